import type { V1LabelSelector } from '@kubernetes/client-node';
import { matchesLabelSelector, type Labels } from '../snapshot/label-selector.js';
import type { CoveringBudget } from './events.js';
import type { BudgetNumbers } from './pod-machine.js';

/**
 * The budgets that select a pod, as the drain's budget watch knows them now (namespace/name, sorted): those
 * of its namespace whose selector matches its labels, the plan's rule (snapshot/cluster-index.ts). The
 * Eviction API refuses a pod under more than one (500), so a budget created or widened during the drain is
 * worth naming the moment the watch shows it.
 */
export function budgetsSelecting(
  namespace: string,
  labels: Labels,
  selectors: ReadonlyMap<string, V1LabelSelector>,
): string[] {
  const prefix = `${namespace}/`;
  return [...selectors]
    .filter(([key, selector]) => key.startsWith(prefix) && matchesLabelSelector(labels, selector))
    .map(([key]) => key)
    .sort();
}

/** A budget with its numbers as last watched (null until the watch has reported it). */
export function coveringBudget(key: string, numbers: BudgetNumbers | undefined): CoveringBudget {
  return {
    pdb: key,
    disruptionsAllowed: numbers?.disruptionsAllowed ?? null,
    currentHealthy: numbers?.currentHealthy ?? null,
    desiredHealthy: numbers?.desiredHealthy ?? null,
  };
}

/** "demo/hello-extra (needs 0 healthy, has 1, allowed 1)", the wait lines' words; the name alone when unknown. */
export function coveringBudgetText(budget: CoveringBudget): string {
  if (budget.disruptionsAllowed === null) return budget.pdb;
  return `${budget.pdb} (needs ${budget.desiredHealthy} healthy, has ${budget.currentHealthy}, allowed ${budget.disruptionsAllowed})`;
}

/** The same list, so that an unchanged answer is not announced again. */
export function sameCovering(a: readonly CoveringBudget[] | undefined, b: readonly CoveringBudget[]): boolean {
  return (
    (a?.length ?? 0) === b.length &&
    b.every(
      (x, i) =>
        a![i]!.pdb === x.pdb &&
        a![i]!.disruptionsAllowed === x.disruptionsAllowed &&
        a![i]!.currentHealthy === x.currentHealthy &&
        a![i]!.desiredHealthy === x.desiredHealthy,
    )
  );
}
