import type { ClusterChange } from '../kube/run-api.js';
import { budgetKey, type BudgetKey } from '../plan/budgets.js';

/**
 * Wakes the run's waits when what they wait for may have changed (kube/run-api.ts watchChanges): a node
 * back from its command, a budget recovered, a replacement Ready (its budget's status changes), a taint
 * lifted. Each wait still reads the state itself (a GET, a snapshot) and keeps a timer as a fallback:
 * a change only says "read again now", so a watch that is late or down costs time, never correctness.
 */
export class ChangeFeed {
  private waiters: Array<{ wants: (change: ClusterChange) => boolean; wake: (woken: boolean) => void }> = [];

  /** Feeds a change to the waits that want it. */
  changed(change: ClusterChange): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const waiter of waiting) {
      if (waiter.wants(change)) waiter.wake(true);
      else this.waiters.push(waiter);
    }
  }

  /**
   * Resolves true at the next change `wants` accepts (any change without it), false when `signal` aborts.
   * The wait is dropped once it resolves either way.
   */
  next(signal: AbortSignal, wants: (change: ClusterChange) => boolean = () => true): Promise<boolean> {
    if (signal.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const waiter = {
        wants,
        wake: (woken: boolean) => {
          signal.removeEventListener('abort', onAbort);
          resolve(woken);
        },
      };
      const onAbort = () => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }
}

/** Whether a change is of the node `name`. */
export const nodeChange =
  (name: string) =>
  (change: ClusterChange): boolean =>
    change.kind === 'node' && change.name === name;

/** Whether a change is of one of the budgets `keys`. */
export const budgetChange =
  (keys: ReadonlySet<BudgetKey> | ReadonlyMap<BudgetKey, unknown>) =>
  (change: ClusterChange): boolean =>
    change.kind === 'pdb' && keys.has(budgetKey(change.namespace, change.name));

/** Wakes whoever waits for the next change of the run's own (a slot of the window freed, a group finished). */
export class Notifier {
  private waiters: Array<(woken: boolean) => void> = [];

  /** Resolves true at the next `notify`, false when `signal` aborts first. */
  next(signal?: AbortSignal): Promise<boolean> {
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      signal?.addEventListener('abort', () => resolve(false), { once: true });
    });
  }

  notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake(true);
  }
}
