import { describe, expect, it } from 'vitest';
import type { PodDrainState } from '../../../src/drain/events.js';
import { surgeEndReason, surgeSettled, surgesByPod } from '../../../src/drain/surge-coordination.js';
import type { SurgeRequest, SurgeWork } from '../../../src/drain/surge.js';
import { waitingForHello } from './states.js';

const web: SurgeWork = { namespace: 'shop', name: 'web', extra: 2, pods: ['w1', 'w2'] };
const api: SurgeWork = { namespace: 'shop', name: 'api', extra: 1, pods: ['a1'] };
const request: SurgeRequest = { deployments: [web, api], restoreFirst: [{ namespace: 'shop', name: 'old' }] };

describe('surgesByPod', () => {
  it('maps each surged pod to its own Deployment’s surge', () => {
    const byPod = surgesByPod(request, 'none');
    expect(byPod.get('w1')).toBe(web);
    expect(byPod.get('w2')).toBe(web);
    expect(byPod.get('a1')).toBe(api);
    expect(byPod.size).toBe(3);
  });

  it('a pod of no surged Deployment waits for nothing', () => {
    expect(surgesByPod(request, 'none').get('other')).toBeUndefined();
  });

  it.each(['client', 'server'] as const)('a %s dry run surges nothing, so no pod waits', (dryRun) => {
    expect(surgesByPod(request, dryRun).size).toBe(0);
  });

  it('without --surge no pod waits', () => {
    expect(surgesByPod(undefined, 'none').size).toBe(0);
  });
});

describe('surgeSettled', () => {
  const gone: PodDrainState = { phase: 'gone', how: 'evicted' };
  const failed: PodDrainState = { phase: 'failed', error: 'forbidden' };
  const skipped: PodDrainState = { phase: 'skipped', reason: 'pod has DeletionTimestamp older than 5 seconds' };
  const terminating: PodDrainState = { phase: 'terminating', deadlineMs: 0 };
  interface Case {
    readonly name: string;
    readonly states: Readonly<Record<string, PodDrainState>>;
    readonly expected: boolean;
  }
  const cases: Case[] = [
    { name: 'every surged pod gone: the Deployment goes back', states: { w1: gone, w2: gone }, expected: true },
    {
      name: 'one pod still waiting for its budget keeps the surge up',
      states: { w1: gone, w2: waitingForHello },
      expected: false,
    },
    { name: 'one pod still terminating keeps the surge up', states: { w1: terminating, w2: gone }, expected: false },
    { name: 'a pod not yet sent keeps the surge up', states: { w1: gone, w2: { phase: 'queued' } }, expected: false },
    {
      name: 'failed and skipped pods are settled: nothing more will come',
      states: { w1: failed, w2: skipped },
      expected: true,
    },
    { name: 'a pod the drain does not hold is not waited for', states: { w1: gone }, expected: true },
  ];
  it.each(cases)('$name', ({ states, expected }) => {
    expect(surgeSettled(web, (uid) => states[uid])).toBe(expected);
  });
});

describe('surgeEndReason', () => {
  it.each([
    { stoppedBy: null, expected: 'the drain ended' },
    { stoppedBy: 'interrupted', expected: 'the drain stopped (interrupted)' },
    { stoppedBy: 'timeout', expected: 'the drain stopped (timeout)' },
  ] as const)('$stoppedBy: $expected', ({ stoppedBy, expected }) => {
    expect(surgeEndReason(stoppedBy)).toBe(expected);
  });
});
