import { describe, expect, it } from 'vitest';
import type { DrainEvent } from '../../../src/drain/events.js';
import {
  initialDrainProgress,
  reduceDrainEvents,
  secondsLeftAt,
  type DrainProgress,
  type WaveHints,
} from '../../../src/ui/drain-live-state.js';
import { HELLO_A, HELLO_B, podEvent, started, T0, waiting } from './drain-fixture.js';

// The plan said: hello-a in wave 1 at 0 s, hello-b in wave 2 at 6 s, all gone after 11 s.
const hints: WaveHints = {
  perWave: new Map([['demo/hello', 1]]),
  podBudget: new Map(),
  eta: {
    totalSeconds: 11,
    podWave: new Map([
      [HELLO_A.uid, 1],
      [HELLO_B.uid, 2],
    ]),
    waveStartsAfterSeconds: new Map([
      [1, 0],
      [2, 6],
    ]),
  },
};

const fold = (events: readonly DrainEvent[]): DrainProgress =>
  events.reduce((state, e) => reduceDrainEvents(state, e, { hints }), initialDrainProgress());
const at = (seconds: number) => T0 + seconds * 1000;

describe('about N s left', () => {
  it('counts the plan total down from the start while the first wave is current', () => {
    const progress = fold([started([HELLO_A, HELLO_B])]);
    expect(secondsLeftAt(progress, at(0))).toBe(11);
    expect(secondsLeftAt(progress, at(4))).toBe(7);
  });

  it('re-anchors when a wave completes: what the plan left after wave 2 starts, from when it really started', () => {
    const progress = fold([
      started([HELLO_A, HELLO_B]),
      podEvent(HELLO_A, 1, { phase: 'terminating', deadlineMs: at(6) }),
      waiting(HELLO_B, 1, 1),
      podEvent(HELLO_B, 9, { phase: 'evicting', attempt: 2 }),
      podEvent(HELLO_B, 9, { phase: 'terminating', deadlineMs: at(14) }),
    ]);
    // Every pod admitted: the longest grace period left, from the last admission.
    expect(secondsLeftAt(progress, at(9))).toBe(5);
    expect(secondsLeftAt(progress, at(12))).toBe(2);
    // Past the estimate by 6 s (the view says so).
    expect(secondsLeftAt(progress, at(20))).toBe(-6);
  });

  it('keeps the anchor while no further wave is admitted (a retry does not reset the countdown)', () => {
    const progress = fold([
      started([HELLO_A, HELLO_B]),
      podEvent(HELLO_A, 1, { phase: 'terminating', deadlineMs: at(6) }),
      waiting(HELLO_B, 2, 1),
      waiting(HELLO_B, 4, 2),
    ]);
    // Wave 1 was admitted at 1 s (the plan: 0 s): the plan's 11 s count from then, to 12 s, whatever
    // hello-b's refusals meanwhile.
    expect(secondsLeftAt(progress, at(4))).toBe(8);
  });

  it('has no estimate without the plan', () => {
    const progress = [started([HELLO_A])].reduce((s, e) => reduceDrainEvents(s, e), initialDrainProgress());
    expect(secondsLeftAt(progress, at(1))).toBeNull();
  });
});
