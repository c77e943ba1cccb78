import { describe, expect, it } from 'vitest';
import { batchEta, poolEta } from '../../../src/plan/pool-eta.js';

describe('a pool batch estimate', () => {
  it('is its drain, then the command and the return: replacements Ready during the command cost nothing more', () => {
    const eta = batchEta({ drainSeconds: 6, replacementsReadySeconds: 8 }, 600);
    expect(eta).toEqual({ totalSeconds: 606, drainSeconds: 6, replacementsReadySeconds: 8, commandSeconds: 600 });
  });

  it('waits for replacements slower than drain and command together: the next batch needs the budgets back', () => {
    expect(batchEta({ drainSeconds: 6, replacementsReadySeconds: 90 }, 30).totalSeconds).toBe(90);
  });

  it('counts no command time when none is assumed, and has no total when the drain cannot finish', () => {
    expect(batchEta({ drainSeconds: 4, replacementsReadySeconds: 2 }, null)).toMatchObject({
      totalSeconds: 4,
      commandSeconds: 0,
    });
    expect(batchEta({ drainSeconds: null, replacementsReadySeconds: 0 }, 60).totalSeconds).toBeNull();
  });
});

describe('a pool run estimate', () => {
  it('adds the batches up and names the command time as an assumption', () => {
    const batches = [
      batchEta({ drainSeconds: 2, replacementsReadySeconds: 3 }, 10),
      batchEta({ drainSeconds: 5, replacementsReadySeconds: 6 }, 10),
    ];
    const eta = poolEta(batches, 10);
    expect(eta.totalSeconds).toBe(27);
    expect(eta.basis[0]).toBe("the command and the node's return take 10 s per batch (assumed: --command-time)");
  });

  it('says the command is not counted without --command-time, and gives no total when a batch is blocked', () => {
    const eta = poolEta([batchEta({ drainSeconds: null, replacementsReadySeconds: 0 }, null)], null);
    expect(eta.totalSeconds).toBeNull();
    expect(eta.basis[0]).toMatch(/^the command and the node's return are not counted \(no --command-time\)/);
    expect(eta.basis).toContain('a blocked batch cannot finish: no total');
  });
});
