import { describe, expect, it } from 'vitest';
import { RunEta } from '../../../src/run/run-eta.js';

const estimates = {
  commandSeconds: 60,
  batches: [
    { drainSeconds: 4, replacementsReadySeconds: 5 },
    { drainSeconds: 8, replacementsReadySeconds: 10 },
    { drainSeconds: 2, replacementsReadySeconds: 3 },
  ],
};

describe("the run's live estimate", () => {
  it('at a batch start: its fresh drain plan plus the assumed command, then the later batches as planned', () => {
    const eta = new RunEta(estimates);
    const now = eta.at('started', { drainSeconds: 6, replacementsReadySeconds: 7 }, [2, 3]);
    expect(now).toEqual({ batchSeconds: 66, runSeconds: 66 + 68 + 62, commandSeconds: 60, commandBasis: 'assumed' });
  });

  it('once a batch has come back, its measured command time replaces the assumption', () => {
    const eta = new RunEta(estimates);
    eta.recordCommand(20);
    eta.recordCommand(30);
    expect(eta.at('finished', null, [3])).toEqual({
      batchSeconds: 0,
      runSeconds: 27,
      commandSeconds: 25,
      commandBasis: 'measured',
    });
  });

  it('a resumed run goes on from the command times it measured before it stopped', () => {
    const eta = new RunEta(estimates, [20, 30]);
    expect(eta.at('started', { drainSeconds: 8, replacementsReadySeconds: 10 }, [3])).toMatchObject({
      batchSeconds: 8 + 25,
      runSeconds: 33 + 27,
      commandSeconds: 25,
      commandBasis: 'measured',
    });
    eta.recordCommand(40);
    expect(eta.measuredSeconds()).toEqual([20, 30, 40]);
  });

  it("at a drain's end the batch has its command left, or its replacements' readiness when that is longer", () => {
    const eta = new RunEta({ ...estimates, commandSeconds: 5 });
    expect(eta.at('drained', { drainSeconds: 4, replacementsReadySeconds: 30 }, []).batchSeconds).toBe(26);
    expect(eta.at('drained', { drainSeconds: 4, replacementsReadySeconds: 6 }, []).batchSeconds).toBe(5);
  });

  it('without --command-time or a measurement the command is not counted, and says so', () => {
    const eta = new RunEta({ ...estimates, commandSeconds: null });
    expect(eta.at('finished', null, [2])).toMatchObject({ runSeconds: 10, commandSeconds: 0, commandBasis: 'none' });
  });

  it('a run recorded without estimates, or a blocked drain, has no run estimate rather than a wrong one', () => {
    expect(new RunEta(undefined).at('finished', null, [2]).runSeconds).toBeNull();
    const blocked = new RunEta(estimates).at('started', { drainSeconds: null, replacementsReadySeconds: 0 }, []);
    expect(blocked).toMatchObject({ batchSeconds: null, runSeconds: null });
  });
});
