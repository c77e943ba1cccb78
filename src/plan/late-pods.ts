import type { V1Pod } from '@kubernetes/client-node';
import type { ClusterIndex } from '../snapshot/cluster-index.js';
import { budgetKey, type BudgetKey } from './budgets.js';
import { filterPod } from './drain-filters/chain.js';
import type { FilterContext } from './drain-filters/status.js';
import type { DrainAction } from './types.js';

/** What a drain does with a pod it finds on its node after its plan read the node. */
export interface LatePodVerdict {
  readonly pod: V1Pod;
  readonly action: DrainAction;
  /** kubectl's message; empty for a plain eviction. */
  readonly reason: string;
  /** The budgets that select it, as namespace/name. */
  readonly pdbs: readonly BudgetKey[];
}

/**
 * kubectl drain lists a node's pods once it has cordoned the node; a drain that planned before the cordon
 * may find pods bound since (bound before the cordon, or by a scheduler that had not yet seen it). Each of
 * `pods` (those --pod-selector selects: selectedByPodSelector) gets what the plan would have given it:
 * kubectl's filters on the state the plan read (their owners) with the plan's options, and its budgets.
 */
export function latePodVerdicts(
  index: ClusterIndex,
  pods: readonly V1Pod[],
  options: FilterContext['options'],
): LatePodVerdict[] {
  const ctx: FilterContext = { options, index };
  return pods.map((pod) => {
    const filter = filterPod(pod, ctx, options.disableEviction);
    const namespace = pod.metadata?.namespace ?? 'default';
    return {
      pod,
      action: filter.action,
      reason: filter.reason,
      pdbs: index.pdbsForPod(pod).map((pdb) => budgetKey(namespace, pdb.metadata?.name ?? '')),
    };
  });
}
