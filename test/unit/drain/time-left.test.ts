import { describe, expect, it } from 'vitest';
import type { PodDrainState } from '../../../src/drain/events.js';
import {
  followTimeLeft,
  secondsLeft,
  type PlannedTimes,
  type PodNow,
  type TimeLeft,
} from '../../../src/drain/time-left.js';
import { waitingForHello } from './states.js';

const T0 = Date.UTC(2026, 10, 29, 3, 0, 0);
const at = (seconds: number) => T0 + seconds * 1000;

// The plan: hello-a in wave 1 at 0 s, hello-b in wave 2 at 6 s, every pod gone after 11 s.
const planned: PlannedTimes = {
  totalSeconds: 11,
  podWave: new Map([
    ['a', 1],
    ['b', 2],
  ]),
  waveStartsAfterSeconds: new Map([
    [1, 0],
    [2, 6],
  ]),
  graceSeconds: new Map([
    ['a', 2],
    ['b', 2],
    ['db', 5],
  ]),
};

const pod = (uid: string, state: PodDrainState, namespace = 'demo'): PodNow => ({
  uid,
  key: `${namespace}/hello-${uid}`,
  namespace,
  state,
});
const waitingSince = (seconds: number): PodDrainState => ({ ...waitingForHello, sinceMs: at(seconds) });
const terminating = (deadlineS: number): PodDrainState => ({ phase: 'terminating', deadlineMs: at(deadlineS) });

/** Folds (time, pods) steps as the drain's events would, and reads the countdown at each step's time. */
function countdown(steps: ReadonlyArray<readonly [number, readonly PodNow[]]>, plan = planned): number[] {
  let left: TimeLeft | null = null;
  return steps.map(([t, pods]) => {
    left = followTimeLeft(left, pods, at(t), plan);
    return left ? secondsLeft(left, at(t)) : Number.NaN;
  });
}

describe('followTimeLeft: one estimate, the plan’s, followed live', () => {
  it('starts at the plan’s total and counts it down', () => {
    expect(countdown([[0, [pod('a', { phase: 'queued' }), pod('b', { phase: 'queued' })]]])).toEqual([11]);
  });

  it('never jumps back up while pods only move between phases: the grace deadlines count from the start', () => {
    // Wave 1 is admitted at 1 s (the plan: 0 s), so the plan's 11 s end at 12 s; hello-a's grace runs to
    // 9 s, inside that. hello-b (wave 2) is admitted at 6 s, the plan's rest after it (5 s) ends at 11 s.
    const a = pod('a', terminating(9));
    const seen = countdown([
      [0, [pod('a', { phase: 'queued' }), pod('b', { phase: 'queued' })]],
      [1, [a, pod('b', waitingSince(1))]],
      [3, [a, pod('b', { phase: 'evicting', attempt: 2 })]],
      [4, [a, pod('b', waitingSince(1))]],
      [5, [a, pod('b', { phase: 'evicting', attempt: 3 })]],
      [6, [a, pod('b', terminating(8))]],
      [7, [a, pod('b', terminating(8))]],
    ]);
    // Counted down steadily, never back up; earlier only when a wave is admitted sooner than the plan said.
    expect(seen).toEqual([11, 11, 9, 8, 7, 5, 4]);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeLessThanOrEqual(seen[i - 1]!);
  });

  it('moves later only for a fact: a wave admitted later than the plan said', () => {
    const a = pod('a', terminating(2));
    const seen = countdown([
      [0, [pod('a', { phase: 'queued' }), pod('b', { phase: 'queued' })]],
      [1, [a, pod('b', waitingSince(1))]],
      // hello-b is admitted at 12 s instead of 7 s (wave 1 at 1 s + the plan's 6): the plan's last 5 s count from there.
      [12, [pod('a', { phase: 'gone', how: 'evicted' }), pod('b', terminating(14))]],
    ]);
    expect(seen).toEqual([11, 11, 5]);
  });

  it('counts --escalate-after: a pod its budget refuses is deleted at its first refusal + the bound, then gone within its grace', () => {
    const plan: PlannedTimes = {
      ...planned,
      podWave: new Map([['a', 1]]),
      totalSeconds: 20,
      escalation: { afterMs: 15_000, namespaces: ['db'] },
    };
    let left: TimeLeft | null = null;
    const steps: ReadonlyArray<readonly [number, readonly PodNow[]]> = [
      [0, [pod('a', { phase: 'queued' }), pod('db', { phase: 'queued' }, 'db')]],
      [1, [pod('a', terminating(3)), pod('db', waitingSince(1), 'db')]],
      [4, [pod('a', { phase: 'gone', how: 'evicted' }), pod('db', { phase: 'evicting', attempt: 5 }, 'db')]],
      [7, [pod('a', { phase: 'gone', how: 'evicted' }), pod('db', waitingSince(1), 'db')]],
    ];
    const seen = steps.map(([t, pods]) => {
      left = followTimeLeft(left, pods, at(t), plan);
      return { left: secondsLeft(left!, at(t)), next: left!.escalations[0] };
    });
    // Deleted at 16 s, gone by 21 s: at 0:07 that is 14 s left, not "past the estimate".
    expect(seen.map((s) => s.left)).toEqual([20, 20, 17, 14]);
    expect(seen[3]!.next).toEqual({ pod: 'db/hello-db', atMs: at(16) });
    // Between two refusals (evicting again) the deletion time holds.
    expect(seen[2]!.next).toEqual({ pod: 'db/hello-db', atMs: at(16) });
  });

  it('goes negative once past the estimate (the view says by how much)', () => {
    // Both waves admitted at once: the plan's rest after wave 2, 5 s.
    const seen = countdown([
      [0, [pod('a', terminating(2)), pod('b', terminating(2))]],
      [8, [pod('a', terminating(2)), pod('b', terminating(2))]],
    ]);
    expect(seen).toEqual([5, -3]);
  });
});
