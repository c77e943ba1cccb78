import { describe, expect, it } from 'vitest';
import type { EvictionStep } from '../../../src/drain/eviction-retry.js';
import {
  answered,
  budgetChanged,
  budgetStatusJudged,
  disappeared,
  finalizersSeen,
  initialMachine,
  requestSent,
  waitSkipped,
  withStaleStatus,
  type PodMachine,
  type PodMachineConfig,
  type Transition,
} from '../../../src/drain/pod-machine.js';
import { helloExhausted as exhausted, waitingForHello } from './states.js';

const NOW = 1_700_000_000_000;
const real: PodMachineConfig = { dryRun: 'none', method: 'evict', graceSeconds: 5, maxFailures: 3 };
const serverDryRun: PodMachineConfig = { ...real, dryRun: 'server' };

const transient: EvictionStep = { kind: 'retry', error: 'server error: etcd timeout (HTTP 504)', retryAfterMs: null };

/** Sends a request and feeds the answer, as the engine does. */
function ask(machine: PodMachine, step: EvictionStep, nowMs = NOW, config = real): Transition {
  return answered(requestSent(machine), step, nowMs, config, undefined);
}

describe('pod machine', () => {
  it('A queued pod asks for a slot to send its request', () => {
    const { machine, action } = initialMachine();
    expect(machine.state).toEqual({ phase: 'queued' });
    expect(action).toEqual({ do: 'request' });
    expect(requestSent(machine).state).toEqual({ phase: 'evicting', attempt: 1 });
  });

  it('An admitted eviction waits for the pod to go, until its grace period ends at the latest', () => {
    const { machine, action } = ask(initialMachine().machine, { kind: 'admitted' });
    expect(machine.state).toEqual({ phase: 'terminating', deadlineMs: NOW + 5000 });
    expect(action).toEqual({ do: 'wait-for-gone' });
    expect(disappeared(machine, real).machine.state).toEqual({ phase: 'gone', how: 'evicted' });
  });

  it('A deleted pod (--disable-eviction) is reported deleted, not evicted', () => {
    const config: PodMachineConfig = { ...real, method: 'delete' };
    const { machine } = ask(initialMachine().machine, { kind: 'admitted' }, NOW, config);
    expect(disappeared(machine, config).machine.state).toEqual({ phase: 'gone', how: 'deleted' });
  });

  it('A pod that disappears before we evicted it was already gone', () => {
    const waiting = ask(initialMachine().machine, exhausted).machine;
    expect(disappeared(waiting, real)).toEqual({
      machine: { ...waiting, state: { phase: 'gone', how: 'already-gone' } },
      action: { do: 'stop' },
    });
  });

  it('A 404 ends the pod as already gone', () => {
    const t = ask(initialMachine().machine, { kind: 'gone', detail: 'not found' });
    expect(t.machine.state).toEqual({ phase: 'gone', how: 'already-gone' });
    expect(t.action).toEqual({ do: 'stop' });
  });

  it('A budget refusal releases the slot and waits for the budget, with a fallback that grows 1 s, 2 s, 4 s', () => {
    let machine = initialMachine().machine;
    const fallbacks: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const t = ask(machine, exhausted, NOW + i * 1000);
      machine = t.machine;
      if (t.action.do === 'wait-for-budget') fallbacks.push(t.action.fallbackMs);
    }
    expect(fallbacks).toEqual([1000, 2000, 4000]);
    // The wait began with the first refusal.
    expect(machine.state).toEqual({ ...waitingForHello, attempts: 3, sinceMs: NOW });
  });

  it('A budget refusal shows the numbers the budget watch last reported when the cause has none', () => {
    const notObserved: EvictionStep = {
      ...exhausted,
      why: 'status-not-observed',
      desiredHealthy: null,
      currentHealthy: null,
    };
    const t = answered(requestSent(initialMachine().machine), notObserved, NOW, real, {
      disruptionsAllowed: 0,
      currentHealthy: 4,
      desiredHealthy: 3,
      observed: false,
    });
    expect(t.machine.state).toMatchObject({ why: 'status-not-observed', currentHealthy: 4, desiredHealthy: 3 });
  });

  it('The budget watch refreshes the numbers of a waiting pod', () => {
    const waiting = ask(initialMachine().machine, exhausted).machine;
    const next = budgetChanged(waiting, {
      disruptionsAllowed: 1,
      currentHealthy: 4,
      desiredHealthy: 3,
      observed: true,
    });
    expect(next.state).toMatchObject({ phase: 'waiting-for-budget', disruptionsAllowed: 1, currentHealthy: 4 });
    // A pod that is not waiting keeps its state.
    const queued = initialMachine().machine;
    expect(budgetChanged(queued, { disruptionsAllowed: 1, currentHealthy: 4, desiredHealthy: 3, observed: true })).toBe(
      queued,
    );
  });

  it('A budget the disruption controller cannot compute is shown with its error, and the error goes once fixed', () => {
    const broken = {
      disruptionsAllowed: 0,
      currentHealthy: 0,
      desiredHealthy: 0,
      observed: false,
      controllerError: 'configmaps does not implement the scale subresource',
    };
    const waiting = answered(requestSent(initialMachine().machine), exhausted, NOW, real, broken).machine;
    expect(waiting.state).toMatchObject({ controllerError: 'configmaps does not implement the scale subresource' });
    const fixed = budgetChanged(waiting, {
      disruptionsAllowed: 0,
      currentHealthy: 3,
      desiredHealthy: 3,
      observed: true,
    });
    expect(fixed.state).not.toHaveProperty('controllerError');
  });

  it('A transient error is retried after 1 s, 2 s, 4 s, and the pod fails past the limit', () => {
    let t = initialMachine();
    const sleeps: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      t = ask(t.machine, transient);
      if (t.action.do === 'sleep') sleeps.push(t.action.ms);
    }
    expect(sleeps).toEqual([1000, 2000, 4000]);
    expect(t.machine.state).toEqual({
      phase: 'failed',
      error: 'server error: etcd timeout (HTTP 504) (gave up after 4 attempts)',
    });
  });

  it('A retry waits the Retry-After the server asked for, and says when the next attempt is', () => {
    const t = ask(initialMachine().machine, { kind: 'retry', error: 'throttled', retryAfterMs: 3000 });
    expect(t.action).toEqual({ do: 'sleep', ms: 3000 });
    expect(t.machine.state).toEqual({ phase: 'retrying', attempts: 1, error: 'throttled', nextAttemptMs: NOW + 3000 });
  });

  it("An admission webhook's 429 is asked again as it says and never counts as a failure: its operator moves the pod first", () => {
    const webhook: EvictionStep = {
      kind: 'retry',
      error: 'admission webhook "w.io" denied the request: migrating',
      retryAfterMs: 5000,
      patient: true,
    };
    let t = initialMachine();
    for (let i = 0; i < real.maxFailures + 5; i += 1) t = ask(t.machine, webhook);
    expect(t.action).toEqual({ do: 'sleep', ms: 5000 });
    expect(t.machine.failures).toBe(0);
    expect(t.machine.state).toMatchObject({ phase: 'retrying', error: webhook.error });
    // In a server dry run it is the answer: the pod ends refused, with the webhook's words.
    expect(ask(initialMachine().machine, webhook, NOW, serverDryRun).machine.state).toEqual({
      phase: 'dry-run',
      admitted: false,
      reason: webhook.error,
      pdb: null,
    });
  });

  it('A budget refusal between transient errors resets the retry count', () => {
    let machine = ask(initialMachine().machine, transient).machine;
    machine = ask(machine, transient).machine;
    machine = ask(machine, exhausted).machine;
    expect(machine.failures).toBe(0);
  });

  it('A permanent error fails the pod at once', () => {
    const t = ask(initialMachine().machine, { kind: 'fail', error: 'forbidden: x' });
    expect(t).toMatchObject({ machine: { state: { phase: 'failed', error: 'forbidden: x' } }, action: { do: 'stop' } });
  });

  it('In a server dry run an admitted eviction ends the pod as admitted, with nothing to wait for', () => {
    const t = ask(initialMachine().machine, { kind: 'admitted' }, NOW, serverDryRun);
    expect(t.machine.state).toEqual({ phase: 'dry-run', admitted: true, reason: 'eviction admitted', pdb: null });
    expect(t.action).toEqual({ do: 'stop' });
  });

  it('In a server dry run a budget refusal ends the pod as refused, naming the budget and its numbers', () => {
    const t = ask(initialMachine().machine, exhausted, NOW, serverDryRun);
    expect(t.machine.state).toEqual({
      phase: 'dry-run',
      admitted: false,
      reason: 'PodDisruptionBudget hello needs 3 healthy pods, has 3',
      pdb: 'hello',
    });
    expect(t.action).toEqual({ do: 'stop' });
  });

  it('In a server dry run a refusal without numbers still names the budget', () => {
    const spent: EvictionStep = { ...exhausted, desiredHealthy: null, currentHealthy: null };
    expect(ask(initialMachine().machine, spent, NOW, serverDryRun).machine.state).toMatchObject({
      reason: 'PodDisruptionBudget hello allows no disruption now',
    });
  });

  it('--skip-wait-for-delete-timeout skips a pod that stays terminating, in kubectl words', () => {
    const terminating = ask(initialMachine().machine, { kind: 'admitted' }).machine;
    expect(waitSkipped(terminating, 20).machine.state).toEqual({
      phase: 'skipped',
      reason: 'pod has DeletionTimestamp older than 20 seconds, skipping',
    });
  });

  it('A terminating pod seen with finalizers says which, and forgets them once they are removed', () => {
    const terminating = ask(initialMachine().machine, { kind: 'admitted' }).machine;
    const held = finalizersSeen(terminating, ['example.com/hold']);
    expect(held.state).toEqual({ phase: 'terminating', deadlineMs: NOW + 5000, finalizers: ['example.com/hold'] });
    expect(finalizersSeen(held, ['example.com/hold'])).toBe(held);
    expect(finalizersSeen(held, []).state).toEqual({ phase: 'terminating', deadlineMs: NOW + 5000 });
    // Only a terminating pod waits on its finalizers.
    const queued = initialMachine().machine;
    expect(finalizersSeen(queued, ['example.com/hold'])).toBe(queued);
  });

  it('A stale budget status is noted on the waiting pod, and dropped when the budget writes a new status', () => {
    const waiting = ask(initialMachine().machine, exhausted).machine;
    const stale = budgetStatusJudged(waiting, { healthyPods: 4, sinceMs: NOW });
    expect(stale.state).toMatchObject({ phase: 'waiting-for-budget', staleStatus: { healthyPods: 4, sinceMs: NOW } });
    expect(budgetStatusJudged(stale, { healthyPods: 4, sinceMs: NOW })).toBe(stale);
    const fresh = budgetChanged(stale, {
      disruptionsAllowed: 0,
      currentHealthy: 4,
      desiredHealthy: 4,
      observed: true,
    });
    expect(fresh.state).not.toHaveProperty('staleStatus');
    expect(budgetStatusJudged(stale, null).state).not.toHaveProperty('staleStatus');
  });
});

describe('withStaleStatus', () => {
  const numbers = { disruptionsAllowed: 0, currentHealthy: 3, desiredHealthy: 3, observed: true };
  const stale = { healthyPods: 2, sinceMs: NOW - 30_000 };

  it('adds a stale finding to the watch’s numbers', () => {
    expect(withStaleStatus(numbers, stale)).toEqual({ ...numbers, staleStatus: stale });
  });

  it('keeps the numbers as they are when the status follows the pods', () => {
    expect(withStaleStatus(numbers, null)).toBe(numbers);
  });

  it('has no numbers to add to before the watch reports the budget', () => {
    expect(withStaleStatus(undefined, stale)).toBeUndefined();
  });
});
