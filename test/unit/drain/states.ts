import type { EvictionStep } from '../../../src/drain/eviction-retry.js';
import type { PodDrainState } from '../../../src/drain/events.js';

/** The lab's answer when the hello budget is used up (test/unit/drain/fixtures/eviction-responses.json), classified. */
export const helloExhausted: Extract<EvictionStep, { kind: 'budget' }> = {
  kind: 'budget',
  why: 'budget-exhausted',
  pdb: 'hello',
  desiredHealthy: 3,
  currentHealthy: 3,
  message: 'The disruption budget hello needs 3 healthy pods and has 3 currently',
};

/** A pod waiting for the hello budget after two refusals. */
export const waitingForHello: Extract<PodDrainState, { phase: 'waiting-for-budget' }> = {
  phase: 'waiting-for-budget',
  pdb: 'hello',
  why: 'budget-exhausted',
  disruptionsAllowed: 0,
  currentHealthy: 3,
  desiredHealthy: 3,
  attempts: 2,
  sinceMs: 0,
};
