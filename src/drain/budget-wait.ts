import type { V1PodDisruptionBudget } from '@kubernetes/client-node';
import { budgetKey, syncFailedMessage } from '../plan/budgets.js';
import type { Clock } from './clock.js';
import type { BudgetNumbers } from './pod-machine.js';

/** How a wait for a budget ended. */
export type BudgetWakeup = 'budget' | 'timer' | 'stopped';

/** When the cache already says the budget allows a disruption, look again this soon (the 429 we just got is newer). */
const RECHECK_MS = 250;

export function budgetNumbers(pdb: V1PodDisruptionBudget): BudgetNumbers {
  const generation = pdb.metadata?.generation ?? 0;
  const observedGeneration = pdb.status?.observedGeneration ?? 0;
  const failed = syncFailedMessage(pdb);
  return {
    disruptionsAllowed: pdb.status?.disruptionsAllowed ?? 0,
    currentHealthy: pdb.status?.currentHealthy ?? 0,
    desiredHealthy: pdb.status?.desiredHealthy ?? 0,
    observed: observedGeneration >= generation,
    ...(failed ? { controllerError: failed } : {}),
  };
}

/**
 * How many of the pods waiting for a budget to wake after its status changed: as many as it now allows
 * (first come, first served), none while the disruption controller has not observed its latest spec
 * (the API would answer "still being processed"), all of them when the budget is deleted (nothing
 * refuses them any more). Waking only as many as allowed keeps the others from spending requests on
 * certain 429s.
 */
export function waitersToWake(numbers: BudgetNumbers | null, waiting: number): number {
  if (numbers === null) return waiting;
  if (!numbers.observed) return 0;
  return Math.min(waiting, Math.max(0, numbers.disruptionsAllowed));
}

interface Waiter {
  settle(how: BudgetWakeup): void;
}

/**
 * Pods refused for their budget wait here. The PodDisruptionBudget watches feed `observe`/`forget`; a
 * wait ends when the budget allows a disruption (the watch, at once), after the fallback delay (in case
 * the watch is down or lagging), or when the signal aborts (drain stopped, or the pod disappeared).
 */
export class BudgetWaiter {
  private readonly budgets = new Map<string, BudgetNumbers>();
  private readonly waiting = new Map<string, Waiter[]>();
  private readonly listeners: Array<(key: string, numbers: BudgetNumbers) => void> = [];

  constructor(private readonly clock: Clock) {}

  /** The watch reported a budget (added or changed). */
  observe(pdb: V1PodDisruptionBudget): void {
    const key = budgetKey(pdb.metadata?.namespace ?? 'default', pdb.metadata?.name ?? '');
    const numbers = budgetNumbers(pdb);
    this.budgets.set(key, numbers);
    for (const listener of this.listeners) listener(key, numbers);
    this.wake(key, waitersToWake(numbers, this.waiting.get(key)?.length ?? 0));
  }

  /** The watch reported a budget deleted. */
  forget(pdb: V1PodDisruptionBudget): void {
    const key = budgetKey(pdb.metadata?.namespace ?? 'default', pdb.metadata?.name ?? '');
    this.budgets.delete(key);
    this.wake(key, waitersToWake(null, this.waiting.get(key)?.length ?? 0));
  }

  numbers(key: string): BudgetNumbers | undefined {
    return this.budgets.get(key);
  }

  /** Called on every status the watch reports, to refresh what waiting pods show. */
  onChange(listener: (key: string, numbers: BudgetNumbers) => void): void {
    this.listeners.push(listener);
  }

  wait(key: string, fallbackMs: number, signal: AbortSignal): Promise<BudgetWakeup> {
    if (signal.aborted) return Promise.resolve('stopped');
    const cached = this.budgets.get(key);
    const delay = cached && waitersToWake(cached, 1) > 0 ? Math.min(fallbackMs, RECHECK_MS) : fallbackMs;
    return new Promise<BudgetWakeup>((resolve) => {
      const timer = new AbortController();
      let settled = false;
      const waiter: Waiter = {
        settle: (how) => {
          if (settled) return;
          settled = true;
          this.remove(key, waiter);
          signal.removeEventListener('abort', onAbort);
          timer.abort();
          resolve(how);
        },
      };
      const onAbort = () => waiter.settle('stopped');
      signal.addEventListener('abort', onAbort, { once: true });
      const list = this.waiting.get(key) ?? [];
      list.push(waiter);
      this.waiting.set(key, list);
      void this.clock.sleep(delay, timer.signal).then((elapsed) => {
        if (elapsed) waiter.settle('timer');
      });
    });
  }

  /** How many pods wait for this budget now. */
  waitingFor(key: string): number {
    return this.waiting.get(key)?.length ?? 0;
  }

  private wake(key: string, count: number): void {
    const list = this.waiting.get(key);
    if (!list) return;
    for (const waiter of list.slice(0, count)) waiter.settle('budget');
  }

  private remove(key: string, waiter: Waiter): void {
    const list = this.waiting.get(key);
    if (!list) return;
    const index = list.indexOf(waiter);
    if (index >= 0) list.splice(index, 1);
    if (list.length === 0) this.waiting.delete(key);
  }
}
