import type { V1Pod } from '@kubernetes/client-node';
import type { DrainApi, RunningWatch } from '../kube/drain-api.js';
import { classifyKubeError } from '../kube/errors.js';
import { budgetKey, budgetOfKey } from '../plan/budgets.js';
import type { BudgetExplainer } from './budget-explainer.js';
import type { BudgetStatusJudge } from './budget-staleness.js';
import type { BudgetWaiter } from './budget-wait.js';
import type { Clock } from './clock.js';
import type { DrainTarget } from './targets.js';
import type { GoneTracker } from './wait-for-gone.js';

/** How long to wait for the watches' first LIST before evicting anyway (the GET fallback covers the rest). */
export const WATCH_READY_MS = 5_000;

/** Where the drain keeps what its watches see: the pods of its nodes, and its budgets. */
export interface WatchedState {
  readonly gone: Pick<GoneTracker, 'observe' | 'observeDeleted'>;
  /** A pod of a drained node as the watch reported it (its finalizers, while it terminates). */
  readonly podSeen: (pod: V1Pod) => void;
  readonly budgets: Pick<BudgetWaiter, 'observe' | 'forget'>;
  readonly statuses: Pick<BudgetStatusJudge, 'observe' | 'forget'>;
  readonly explainer: Pick<BudgetExplainer, 'observe' | 'forget' | 'showOtherBudgets'>;
}

/**
 * The drain's watches, feeding what they see to the drain's state: the pods of each drained node (a pod
 * gone, its finalizers) and the budgets of each namespace a pod waits in, one watch per namespace, all
 * stopped together when the drain returns. A failed watch is worth one warning: it restarts by itself,
 * and the fallback timers cover the gap.
 */
export class DrainWatches {
  private readonly running: RunningWatch[] = [];
  private readonly podWatches = new Map<string, RunningWatch>();
  private readonly namespaces = new Set<string>();

  constructor(
    private readonly api: Pick<DrainApi, 'watchPodsOnNode' | 'watchPdbs'>,
    private readonly state: WatchedState,
    private readonly warnOnce: (what: string, message: string) => void,
  ) {}

  /**
   * The pod watch of every node and the budget watch of every namespace with a budget in the plan;
   * resolves once they are ready (see `ready`).
   */
  async start(
    nodes: readonly string[],
    targets: readonly DrainTarget[],
    clock: Clock,
    stop: AbortSignal,
  ): Promise<void> {
    this.watchNodes(nodes);
    for (const target of targets) for (const key of target.pdbs) this.watchBudgets(budgetOfKey(key).namespace);
    await this.ready(clock, stop);
  }

  /** The pod watch of every node. */
  watchNodes(nodes: readonly string[]): void {
    for (const node of nodes) {
      const { gone, podSeen } = this.state;
      const watch = this.api.watchPodsOnNode(node, {
        onUpsert: (pod) => {
          gone.observe(pod);
          podSeen(pod);
        },
        onDelete: (pod) => gone.observeDeleted(pod),
        onError: this.failed(`pods on node ${node}`),
      });
      this.running.push(watch);
      this.podWatches.set(node, watch);
    }
  }

  /** Whether the pod watch of `node` says it follows the cluster now (false when it cannot say). */
  podsFollowed(node: string): boolean {
    return this.podWatches.get(node)?.current?.() === true;
  }

  /** The budget watch of `namespace`, started the first time it is asked for. */
  watchBudgets(namespace: string): void {
    if (this.namespaces.has(namespace)) return;
    this.namespaces.add(namespace);
    const { explainer, statuses, budgets } = this.state;
    this.running.push(
      this.api.watchPdbs(namespace, {
        onUpsert: (pdb) => {
          explainer.observe(pdb, namespace);
          statuses.observe(budgetKey(pdb.metadata?.namespace ?? namespace, pdb.metadata?.name ?? ''), pdb);
          budgets.observe(pdb);
          explainer.showOtherBudgets(namespace);
        },
        onDelete: (pdb) => {
          explainer.forget(pdb);
          statuses.forget(budgetKey(pdb.metadata?.namespace ?? 'default', pdb.metadata?.name ?? ''));
          budgets.forget(pdb);
          explainer.showOtherBudgets(namespace);
        },
        onError: this.failed(`PodDisruptionBudgets in namespace ${namespace}`),
      }),
    );
  }

  /** Resolves once the watches started so far have had their first LIST, WATCH_READY_MS passed or `stop` aborts. */
  async ready(clock: Clock, stop: AbortSignal): Promise<void> {
    // The timer goes once the watches are ready: left running, it would hold the process open after the
    // drain ends (up to WATCH_READY_MS after the start).
    const ready = new AbortController();
    void Promise.all(this.running.map((w) => w.ready))
      .catch(() => undefined)
      .then(() => ready.abort());
    await clock.sleep(WATCH_READY_MS, AbortSignal.any([stop, ready.signal]));
  }

  stopAll(): void {
    for (const watch of this.running) watch.stop();
  }

  private failed(what: string) {
    return (err: unknown, retryInMs: number) => this.warnOnce(`watch ${what}`, watchFailureText(what, err, retryInMs));
  }
}

/** What a failed watch says: what it watched, why it failed, and that it restarts by itself. */
export function watchFailureText(what: string, err: unknown, retryInMs: number): string {
  const reason = classifyKubeError(err, undefined, { verb: 'watch', resource: what }).message;
  return `watch of ${what} failed (${reason}); retrying from ${retryInMs / 1000}s on, with slower polling meanwhile`;
}
