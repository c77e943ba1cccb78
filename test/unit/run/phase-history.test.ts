import type { V1Node } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { ANNOTATION, historyWith, phaseHistory, RELEASED_NODE } from '../../../src/run/state.js';

const node = (annotations: Record<string, string>): V1Node => ({ metadata: { name: 'pool-1', annotations } });

describe('phase history', () => {
  it('appends each phase with its time to what the node records, oldest first', () => {
    const claimed = node({ [ANNOTATION.history]: historyWith(null, 'pending', 't0') });
    const draining = node({ [ANNOTATION.history]: historyWith(claimed, 'draining', 't1') });
    expect(phaseHistory(draining)).toEqual([
      { phase: 'pending', at: 't0' },
      { phase: 'draining', at: 't1' },
    ]);
  });

  it('records a write sent again (its first answer lost) once', () => {
    const claimed = node({ [ANNOTATION.history]: historyWith(null, 'pending', 't0') });
    const done = node({ [ANNOTATION.history]: historyWith(claimed, 'done', 't1') });
    expect(phaseHistory(node({ [ANNOTATION.history]: historyWith(done, 'done', 't1') }))).toEqual([
      { phase: 'pending', at: 't0' },
      { phase: 'done', at: 't1' },
    ]);
  });

  it('keeps the latest 40 steps: a node resumed over and over does not grow without bound', () => {
    let current = node({});
    for (let i = 0; i < 50; i += 1) current = node({ [ANNOTATION.history]: historyWith(current, 'draining', `t${i}`) });
    const steps = phaseHistory(current);
    expect(steps).toHaveLength(40);
    expect(steps.at(-1)).toEqual({ phase: 'draining', at: 't49' });
  });

  it('a node without a history (or one that does not parse) has its current phase and since when', () => {
    const a = { [ANNOTATION.phase]: 'drained', [ANNOTATION.since]: 't5' };
    expect(phaseHistory(node(a))).toEqual([{ phase: 'drained', at: 't5' }]);
    expect(phaseHistory(node({ ...a, [ANNOTATION.history]: '{"not":"a list"}' }))).toEqual([
      { phase: 'drained', at: 't5' },
    ]);
    expect(phaseHistory(node({}))).toEqual([]);
  });

  it('goes with the claim when a node is released', () => {
    expect(RELEASED_NODE).toHaveProperty([ANNOTATION.history], null);
  });
});
