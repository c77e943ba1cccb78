import { describe, expect, it } from 'vitest';
import { DrainTrail } from '../../../src/drain/node-trail.js';
import { cordoned, finished, HELLO_B, helloDrain, started } from '../ui/drain-fixture.js';

const BY = 'kubectl maint drain (ops@bastion pid 4242)';

describe('DrainTrail', () => {
  it('a drain that finishes: cordoned, then drained, on its node', () => {
    const trail = new DrainTrail(BY);
    expect(helloDrain().flatMap((e) => trail.eventsOf(e))).toEqual([
      { node: 'k8s-node-1', type: 'Normal', reason: 'Cordoned', action: 'Cordon', note: `cordoned by ${BY}` },
      {
        node: 'k8s-node-1',
        type: 'Normal',
        reason: 'Drained',
        action: 'Drain',
        note: `drained by ${BY}: 2 pods removed`,
      },
    ]);
  });

  it('a node cordoned already is not said to be cordoned by the drain', () => {
    const trail = new DrainTrail(BY);
    expect([started(), cordoned(0, true)].flatMap((e) => trail.eventsOf(e))).toEqual([]);
  });

  it('a drain that fails, times out or is interrupted says so, with what is left', () => {
    const outcomes = (['failed', 'timeout', 'interrupted'] as const).map((result) => {
      const trail = new DrainTrail(BY);
      return [started(), cordoned(0, true), finished(9, result, [HELLO_B])].flatMap((e) => trail.eventsOf(e));
    });
    expect(outcomes.flat().map((e) => [e.type, e.reason, e.note])).toEqual([
      ['Warning', 'DrainFailed', `drain by ${BY} failed with 1 pod still on the node`],
      ['Warning', 'DrainFailed', `drain by ${BY} timed out with 1 pod still on the node`],
      [
        'Normal',
        'DrainInterrupted',
        `drain by ${BY} interrupted with 1 pod still on the node; the node stays cordoned`,
      ],
    ]);
  });

  it('a node the drain could not cordon (refused) was left as it was: no trail', () => {
    const trail = new DrainTrail(BY);
    expect([started(), finished(1, 'failed', [HELLO_B])].flatMap((e) => trail.eventsOf(e))).toEqual([]);
  });

  it('a dry run leaves no trail', () => {
    for (const dryRun of ['client', 'server'] as const) {
      const trail = new DrainTrail(BY);
      const events = [started(undefined, dryRun), cordoned(0, false, true), finished(1, 'dry-run')];
      expect(events.flatMap((e) => trail.eventsOf(e))).toEqual([]);
    }
  });
});
