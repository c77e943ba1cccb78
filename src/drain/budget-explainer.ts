import type { V1LabelSelector, V1PodDisruptionBudget } from '@kubernetes/client-node';
import type { DrainApi } from '../kube/drain-api.js';
import { classifyKubeError } from '../kube/errors.js';
import { budgetBlockers, sameBlockers } from './budget-blockers.js';
import { budgetsSelecting, coveringBudget, sameCovering } from './budget-coverage.js';
import { budgetKey, budgetOfKey, type BudgetKey } from '../plan/budgets.js';
import { budgetNumbers } from './budget-wait.js';
import type { Clock } from './clock.js';
import type { BudgetBlocker, CoveringBudget, PodRef } from './events.js';
import type { BudgetNumbers, PodMachine } from './pod-machine.js';
import type { DrainTarget } from './targets.js';

/** While pods wait for a budget, how often its pods are listed to say what holds it (one LIST per budget). */
const EXPLAIN_EVERY_MS = 3_000;

type PodState = PodMachine['state'];

/** A pod of the drain as the explainer sees it: what the plan said of it, and where its machine is. */
export interface ExplainedPod {
  readonly target: DrainTarget;
  readonly state: PodState;
}

export interface BudgetExplainerDeps {
  readonly api: Pick<DrainApi, 'listPods' | 'readPod' | 'listPdbs'>;
  readonly clock: Clock;
  /** Every pod of the drain, now. */
  readonly pods: () => Iterable<ExplainedPod>;
  /** The budget's numbers as last watched. */
  readonly numbers: (key: string) => BudgetNumbers | undefined;
  /** A waiting pod's state with its explanation, to be emitted. */
  readonly show: (pod: PodRef, state: PodState) => void;
  readonly warnOnce: (what: string, message: string) => void;
  /** Aborted when the drain stops or ends: no explaining loop outlives it. */
  readonly signal: AbortSignal;
  /** Whether pods are listed at all (a real drain; a dry run has no waits to explain). */
  readonly listsPods: boolean;
}

/**
 * Says what holds a budget a pod waits for: its pods that are not Ready or whose replacement finds no
 * node (listed every few seconds while someone waits), and the other budgets that select the pod (from
 * the budget watch, or read again when the API refused the pod for having several). The engine feeds it
 * the budget watch and asks it to dress each waiting state; it emits only through `show`.
 */
export class BudgetExplainer {
  /** Budget key → its selector, from the budget watch. */
  private readonly selectors = new Map<string, V1LabelSelector>();
  /** Budget key → what holds it, from its pods. */
  private readonly blockers = new Map<string, readonly BudgetBlocker[]>();
  /** Pod uid → the other budgets its last wait event named (to announce a change once). */
  private readonly otherBudgetsShown = new Map<string, readonly CoveringBudget[]>();
  private readonly explaining = new Set<string>();

  constructor(private readonly deps: BudgetExplainerDeps) {}

  /** The budget watch reported a budget (added or changed). */
  observe(pdb: V1PodDisruptionBudget, namespace: string): void {
    const key = budgetKey(pdb.metadata?.namespace ?? namespace, pdb.metadata?.name ?? '');
    if (pdb.spec?.selector) this.selectors.set(key, pdb.spec.selector);
    else this.selectors.delete(key);
  }

  /** The budget watch reported a budget deleted. */
  forget(pdb: V1PodDisruptionBudget): void {
    this.selectors.delete(budgetKeyOf(pdb));
  }

  /**
   * A budget wait with what holds the budget, when its pods have told, and the other budgets that select
   * the pod, when the budget watch shows any.
   */
  explained(target: DrainTarget, state: PodState): PodState {
    if (state.phase !== 'waiting-for-budget') return state;
    const key = budgetKey(target.ref.namespace, state.pdb);
    const blockers = this.blockers.get(key);
    const others = this.budgetsOf(target).filter((b) => b.pdb !== key);
    this.otherBudgetsShown.set(target.ref.uid, others);
    return {
      ...state,
      ...(blockers && blockers.length > 0 ? { blockers } : {}),
      ...(others.length > 0 ? { otherBudgets: others } : {}),
    };
  }

  /**
   * The budgets that select the pod: the plan's, and those the budget watch shows selecting its labels
   * (one created or widened during the drain), each with its numbers as last watched.
   */
  budgetsOf(target: DrainTarget): CoveringBudget[] {
    const { ref, pdbs, labels } = target;
    const keys = new Set([...pdbs, ...budgetsSelecting(ref.namespace, labels, this.selectors)]);
    return [...keys].sort().map((key) => coveringBudget(key, this.deps.numbers(key)));
  }

  /**
   * The budgets that select the pod as the cluster says now (its labels and its namespace's budgets, read
   * again), each with its status: the API refused the pod for having several, and they are named with the
   * state each is in. What the drain already knew, when the reads fail.
   */
  async budgetsNow(target: DrainTarget): Promise<CoveringBudget[]> {
    const { ref } = target;
    try {
      const [pod, pdbs] = await Promise.all([
        this.deps.api.readPod(ref.namespace, ref.name),
        this.deps.api.listPdbs(ref.namespace),
      ]);
      const selectors = new Map(pdbs.flatMap((p) => (p.spec?.selector ? [[budgetKeyOf(p), p.spec.selector]] : [])));
      const numbers = new Map<string, BudgetNumbers>(pdbs.map((p) => [budgetKeyOf(p), budgetNumbers(p)]));
      const labels = pod?.metadata?.labels ?? target.labels;
      return budgetsSelecting(ref.namespace, labels, selectors).map((key) => coveringBudget(key, numbers.get(key)));
    } catch {
      return this.budgetsOf(target);
    }
  }

  /** A budget of `namespace` came, changed or went: pods waiting there say which other budgets select them now. */
  showOtherBudgets(namespace: string): void {
    for (const { target, state } of this.deps.pods()) {
      if (target.ref.namespace !== namespace || state.phase !== 'waiting-for-budget') continue;
      const key = budgetKey(namespace, state.pdb);
      const others = this.budgetsOf(target).filter((b) => b.pdb !== key);
      if (!sameCovering(this.otherBudgetsShown.get(target.ref.uid), others))
        this.deps.show(target.ref, this.explained(target, state));
    }
  }

  /**
   * While some pod waits for the budget `key`, lists the budget's pods every few seconds and tells the
   * waiting pods what holds it (a replacement the scheduler cannot place, a pod not Ready). One loop per
   * budget; it ends when nobody waits for the budget any more or the drain stops.
   */
  explain(key: BudgetKey): void {
    if (this.explaining.has(key) || !this.deps.listsPods) return;
    this.explaining.add(key);
    const { signal } = this.deps;
    const waiters = () =>
      [...this.deps.pods()].filter(
        ({ target, state }) =>
          state.phase === 'waiting-for-budget' && budgetKey(target.ref.namespace, state.pdb) === key,
      );
    const loop = async () => {
      while (!signal.aborted && waiters().length > 0) {
        const selector = this.selectors.get(key);
        if (selector) {
          try {
            const found = budgetBlockers(await this.deps.api.listPods(budgetOfKey(key).namespace, selector));
            if (!sameBlockers(this.blockers.get(key), found)) {
              this.blockers.set(key, found);
              for (const { target, state } of waiters()) this.deps.show(target.ref, this.explained(target, state));
            }
          } catch (err) {
            this.deps.warnOnce(
              `list ${key}`,
              `cannot list the pods of PodDisruptionBudget ${key} (${classifyKubeError(err, undefined, { verb: 'list', resource: 'pods' }).message}): the wait cannot say what holds it`,
            );
          }
        }
        await this.deps.clock.sleep(EXPLAIN_EVERY_MS, signal);
      }
      this.explaining.delete(key);
    };
    void loop();
  }
}

const budgetKeyOf = (pdb: V1PodDisruptionBudget) =>
  budgetKey(pdb.metadata?.namespace ?? 'default', pdb.metadata?.name ?? '');
