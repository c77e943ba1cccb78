import { describe, expect, it } from 'vitest';
import type { DrainEvent } from '../../../src/drain/events.js';
import { initialDrainProgress, reduceDrainEvents } from '../../../src/ui/drain-progress.js';
import { drainStatusLine } from '../../../src/ui/drain-status.js';
import { HELLO_A, HELLO_B, helloDrain, podEvent, started, T0, waiting } from './drain-fixture.js';

const progressOf = (events: readonly DrainEvent[]) =>
  events.reduce((s, e) => reduceDrainEvents(s, e), initialDrainProgress());

describe('drainStatusLine', () => {
  it('names the pod that has waited longest for its budget, with the numbers', () => {
    expect(drainStatusLine(progressOf(helloDrain().slice(0, 8)), T0 + 14_000)).toBe(
      'draining k8s-node-1 · 0/2 done · demo/hello-b waiting for budget demo/hello: needs 3 healthy, has 3, allowed 0 · 0:14',
    );
  });
  it('counts the other waiting pods instead of listing them', () => {
    const progress = progressOf([started([HELLO_A, HELLO_B]), waiting(HELLO_A, 1, 1), waiting(HELLO_B, 2, 1)]);
    expect(drainStatusLine(progress, T0 + 3000)).toContain(
      'waiting for budget demo/hello: needs 3 healthy, has 3, allowed 0 (+1 other)',
    );
  });
  it('falls back to pods terminating when nothing waits', () => {
    const progress = progressOf([started([HELLO_A]), podEvent(HELLO_A, 1, { phase: 'terminating', deadlineMs: null })]);
    expect(drainStatusLine(progress, T0 + 2000)).toBe('draining k8s-node-1 · 0/1 done · 1 terminating · 0:02');
  });
  it('says it is starting before the first event', () => {
    expect(drainStatusLine(initialDrainProgress(), T0)).toBe('starting the drain');
  });
});
