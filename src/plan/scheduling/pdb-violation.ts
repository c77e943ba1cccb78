import type { V1PodDisruptionBudget } from '@kubernetes/client-node';
import { matchesLabelSelector } from '../../snapshot/label-selector.js';
import type { BudgetKey } from '../budgets.js';
import { isEmptySelector } from './affinity-term.js';
import type { VictimPod } from './pod-priority.js';

/*
 * How preemption counts PodDisruptionBudgets (pkg/scheduler/framework/preemption, v1.37): read by
 * DefaultPreemption's choice of victims and by the simulation's account of the budgets its victims spend.
 */

/** A budget as preemption reads it: its namespace, selector, disruptionsAllowed and disruptedPods. */
export interface PreemptionBudget {
  readonly key: BudgetKey;
  readonly pdb: V1PodDisruptionBudget;
  /** status.disruptionsAllowed, less what earlier preemptions of the simulation deleted. */
  readonly allowed: number;
}

/**
 * `filterPodsWithPDBViolation`: splits pods (in the order given, kept) into those whose deletion would
 * take a budget that selects them below zero, counting down each budget as it goes, and the others. A
 * budget with an empty selector selects nothing here; a pod the budget already lists in disruptedPods is
 * not counted. Also returns, per violating pod, the budgets it breaks.
 */
export function splitByBudgetViolation<T extends VictimPod>(
  pods: readonly T[],
  budgets: readonly PreemptionBudget[],
): { violating: T[]; nonViolating: T[]; broken: Map<T, BudgetKey[]> } {
  const allowed = budgets.map((b) => b.allowed);
  const violating: T[] = [];
  const nonViolating: T[] = [];
  const broken = new Map<T, BudgetKey[]>();
  for (const pod of pods) {
    const breaks: BudgetKey[] = [];
    budgets.forEach((b, i) => {
      if (!counts(b, pod)) return;
      allowed[i]!--;
      if (allowed[i]! < 0) breaks.push(b.key);
    });
    if (breaks.length > 0) {
      violating.push(pod);
      broken.set(pod, breaks);
    } else {
      nonViolating.push(pod);
    }
  }
  return { violating, nonViolating, broken };
}

/**
 * Whether deleting the pod spends a disruption of the budget, as preemption counts: same namespace, a
 * selector with requirements that matches the pod's labels (an empty one selects nothing here, a pod
 * without labels matches none), and the pod not already in the budget's disruptedPods.
 */
export function counts(budget: PreemptionBudget, pod: VictimPod): boolean {
  const selector = budget.pdb.spec?.selector;
  if (Object.keys(pod.labels).length === 0) return false;
  if ((budget.pdb.metadata?.namespace ?? 'default') !== pod.namespace) return false;
  if (!selector || isEmptySelector(selector) || !matchesLabelSelector(pod.labels, selector)) return false;
  return budget.pdb.status?.disruptedPods?.[pod.name] === undefined;
}
