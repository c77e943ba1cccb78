import { BUDGET_FALLBACK, TRANSIENT_RETRY, backoffDelayMs } from './backoff.js';
import type { StaleStatus } from './budget-staleness.js';
import type { EvictionStep } from './eviction-retry.js';
import type { PodDrainState } from './events.js';

/**
 * One pod's way through the drain, as pure transitions: each takes the machine and what just happened
 * and returns the next machine and the one thing the engine must do next. No I/O and no clock: "now"
 * comes in as an argument, so a test can drive a pod through every path with plain numbers.
 *
 *   queued ─request→ evicting ─admitted→ terminating ─gone→ gone
 *                       │  ├─429 budget→ waiting-for-budget ─budget changed / fallback timer→ (request)
 *                       │  ├─transient→ retrying ─delay→ (request)            (failed after too many)
 *                       │  ├─404 / UID mismatch→ gone (already-gone)
 *                       │  └─permanent→ failed
 *   any waiting state ─pod disappeared→ gone (already-gone)
 * Server dry run: admitted / refused end the pod at once in the 'dry-run' phase (nothing to wait for).
 */
export interface PodMachine {
  readonly state: PodDrainState;
  /** Requests sent so far. */
  readonly attempts: number;
  /** Consecutive budget refusals: the fallback timer grows with them. */
  readonly refusals: number;
  /** Consecutive transient failures: the retry delay grows with them, and the pod fails past the limit. */
  readonly failures: number;
  /** When the budget first refused the pod (kept across retries, shown as "waiting since"). */
  readonly waitingSinceMs: number | null;
}

export type PodAction =
  /** Take a concurrency slot and send the eviction (or the delete). */
  | { readonly do: 'request' }
  /** Wait until the budget's status allows a disruption, or `fallbackMs` passes. The slot is released. */
  | { readonly do: 'wait-for-budget'; readonly pdb: string; readonly fallbackMs: number }
  /** Wait `ms`, then request again. The slot is released. */
  | { readonly do: 'sleep'; readonly ms: number }
  /** Wait until the pod is deleted (or replaced by another pod of the same name). The slot is kept. */
  | { readonly do: 'wait-for-gone' }
  | { readonly do: 'stop' };

export interface Transition {
  readonly machine: PodMachine;
  readonly action: PodAction;
}

export interface PodMachineConfig {
  readonly dryRun: 'none' | 'server';
  readonly method: 'evict' | 'delete';
  /** Seconds the pod is given to terminate (--grace-period, else its own terminationGracePeriodSeconds). */
  readonly graceSeconds: number;
  /** Transient failures in a row after which the pod fails (a 5xx that never heals). */
  readonly maxFailures: number;
  /** Deleted by --escalate-after after its budget kept refusing its eviction. */
  readonly escalated?: boolean;
}

/** Budget numbers as the PDB's watch last reported them, to show while a pod waits. */
export interface BudgetNumbers {
  readonly disruptionsAllowed: number;
  readonly currentHealthy: number;
  readonly desiredHealthy: number;
  /** status.observedGeneration has caught up with metadata.generation. */
  readonly observed: boolean;
  /** The disruption controller's SyncFailed message, when it cannot compute the budget. */
  readonly controllerError?: string | undefined;
  /** The status looks stale (see budget-staleness.ts). */
  readonly staleStatus?: StaleStatus | undefined;
}

/** The budget's numbers as its watch last reported them, with the finding that its status is stale, if it is. */
export function withStaleStatus(
  numbers: BudgetNumbers | undefined,
  stale: StaleStatus | null,
): BudgetNumbers | undefined {
  return numbers && stale ? { ...numbers, staleStatus: stale } : numbers;
}

export function initialMachine(): Transition {
  return {
    machine: { state: { phase: 'queued' }, attempts: 0, refusals: 0, failures: 0, waitingSinceMs: null },
    action: { do: 'request' },
  };
}

/** The slot was granted and the request is about to be sent. */
export function requestSent(machine: PodMachine): PodMachine {
  const attempt = machine.attempts + 1;
  return { ...machine, attempts: attempt, state: { phase: 'evicting', attempt } };
}

/** The API server answered the request (see eviction-retry.ts for how the answer was classified). */
export function answered(
  machine: PodMachine,
  step: EvictionStep,
  nowMs: number,
  config: PodMachineConfig,
  budget: BudgetNumbers | undefined,
): Transition {
  switch (step.kind) {
    case 'admitted':
      if (config.dryRun === 'server') {
        const reason = config.method === 'evict' ? 'eviction admitted' : 'deletion admitted (no budget checked)';
        return stop(machine, { phase: 'dry-run', admitted: true, reason, pdb: null });
      }
      return {
        machine: {
          ...machine,
          failures: 0,
          state: { phase: 'terminating', deadlineMs: nowMs + config.graceSeconds * 1000 },
        },
        action: { do: 'wait-for-gone' },
      };
    case 'gone':
      return stop(machine, { phase: 'gone', how: 'already-gone' });
    case 'budget': {
      if (config.dryRun === 'server') {
        return stop(machine, { phase: 'dry-run', admitted: false, reason: refusalReason(step), pdb: step.pdb });
      }
      const since = machine.waitingSinceMs ?? nowMs;
      const fallbackMs = backoffDelayMs(BUDGET_FALLBACK, machine.refusals);
      const next: PodMachine = {
        ...machine,
        refusals: machine.refusals + 1,
        failures: 0,
        waitingSinceMs: since,
        state: {
          phase: 'waiting-for-budget',
          pdb: step.pdb,
          why: step.why,
          disruptionsAllowed: budget?.disruptionsAllowed ?? 0,
          currentHealthy: step.currentHealthy ?? budget?.currentHealthy ?? 0,
          desiredHealthy: step.desiredHealthy ?? budget?.desiredHealthy ?? 0,
          attempts: machine.attempts,
          sinceMs: since,
          ...(budget?.controllerError ? { controllerError: budget.controllerError } : {}),
          ...(budget?.staleStatus && !budget.controllerError ? { staleStatus: budget.staleStatus } : {}),
        },
      };
      return { machine: next, action: { do: 'wait-for-budget', pdb: step.pdb, fallbackMs } };
    }
    case 'retry': {
      // A webhook's 429 is the answer a server dry run asked for (its operator would move the pod first).
      if (step.patient && config.dryRun === 'server') {
        return stop(machine, { phase: 'dry-run', admitted: false, reason: step.error, pdb: null });
      }
      const failures = step.patient ? machine.failures : machine.failures + 1;
      if (failures > config.maxFailures) {
        return stop(machine, { phase: 'failed', error: `${step.error} (gave up after ${machine.attempts} attempts)` });
      }
      const ms = step.retryAfterMs ?? backoffDelayMs(TRANSIENT_RETRY, failures - 1);
      return {
        machine: {
          ...machine,
          failures,
          state: { phase: 'retrying', attempts: machine.attempts, error: step.error, nextAttemptMs: nowMs + ms },
        },
        action: { do: 'sleep', ms },
      };
    }
    case 'fail':
      return stop(machine, { phase: 'failed', error: step.error });
  }
}

/** The budget's watch reported new numbers while the pod waits for it: show them (a new status is not stale). */
export function budgetChanged(machine: PodMachine, numbers: BudgetNumbers): PodMachine {
  const state = machine.state;
  if (state.phase !== 'waiting-for-budget') return machine;
  const { controllerError: _previous, staleStatus: _stale, ...rest } = state;
  return {
    ...machine,
    state: {
      ...rest,
      why: numbers.observed ? 'budget-exhausted' : 'status-not-observed',
      disruptionsAllowed: numbers.disruptionsAllowed,
      currentHealthy: numbers.currentHealthy,
      desiredHealthy: numbers.desiredHealthy,
      ...(numbers.controllerError ? { controllerError: numbers.controllerError } : {}),
    },
  };
}

/** The drain counted the budget's pods again: its status is stale (or no longer), as budget-staleness.ts judges. */
export function budgetStatusJudged(machine: PodMachine, stale: StaleStatus | null): PodMachine {
  const state = machine.state;
  if (state.phase !== 'waiting-for-budget' || state.controllerError) return machine;
  const { staleStatus: previous, ...rest } = state;
  if (previous?.healthyPods === stale?.healthyPods && previous?.sinceMs === stale?.sinceMs) return machine;
  return { ...machine, state: stale ? { ...rest, staleStatus: stale } : rest };
}

/**
 * The pod's watch (or a GET) saw it terminating with these finalizers: it cannot disappear before they are
 * removed, so the views say which ones it waits on.
 */
export function finalizersSeen(machine: PodMachine, finalizers: readonly string[]): PodMachine {
  const state = machine.state;
  if (state.phase !== 'terminating') return machine;
  if ((state.finalizers ?? []).join(' ') === finalizers.join(' ')) return machine;
  const { finalizers: _previous, ...rest } = state;
  return { ...machine, state: finalizers.length > 0 ? { ...rest, finalizers: [...finalizers] } : rest };
}

/**
 * The pod no longer exists (deleted, or its name now belongs to a new pod). After our own eviction it was
 * evicted (or deleted); before, someone else removed it.
 */
export function disappeared(machine: PodMachine, config: PodMachineConfig): Transition {
  const ours = machine.state.phase === 'terminating';
  const how = !ours
    ? 'already-gone'
    : config.escalated
      ? 'escalated'
      : config.method === 'evict'
        ? 'evicted'
        : 'deleted';
  return stop(machine, { phase: 'gone', how });
}

/** --skip-wait-for-delete-timeout: the pod has been terminating for longer than that; stop waiting for it. */
export function waitSkipped(machine: PodMachine, seconds: number): Transition {
  return stop(machine, {
    phase: 'skipped',
    reason: `pod has DeletionTimestamp older than ${seconds} seconds, skipping`,
  });
}

/** Still owed work: not gone, failed, skipped or judged by a dry run. */
export function isSettled(state: PodDrainState): boolean {
  return state.phase === 'gone' || state.phase === 'failed' || state.phase === 'skipped' || state.phase === 'dry-run';
}

export function refusalReason(step: Extract<EvictionStep, { kind: 'budget' }>): string {
  if (step.why === 'status-not-observed') {
    return `PodDisruptionBudget ${step.pdb}: status not yet observed by the disruption controller`;
  }
  if (step.desiredHealthy === null || step.currentHealthy === null) {
    return `PodDisruptionBudget ${step.pdb} allows no disruption now`;
  }
  return `PodDisruptionBudget ${step.pdb} needs ${step.desiredHealthy} healthy pods, has ${step.currentHealthy}`;
}

function stop(machine: PodMachine, state: PodDrainState): Transition {
  return { machine: { ...machine, state }, action: { do: 'stop' } };
}
