import type { V1Pod } from '@kubernetes/client-node';
import type { BudgetBlocker } from './events.js';

/**
 * Why a budget does not free up, from its pods as the API server shows them: a healthy pod is Ready, so
 * the budget waits for the others — a replacement the scheduler cannot place (it says why in the pod's
 * PodScheduled condition, the same text as its FailedScheduling event), one not yet scheduled or
 * started, a running pod that is not Ready. Pods being deleted are on their way out and say nothing.
 * Unschedulable ones come first: they are the ones that stop the drain.
 */
export function budgetBlockers(pods: readonly V1Pod[]): BudgetBlocker[] {
  const blockers = pods.flatMap((pod): BudgetBlocker[] => {
    if (pod.metadata?.deletionTimestamp != null) return [];
    const phase = pod.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') return [];
    const name = `${pod.metadata?.namespace ?? 'default'}/${pod.metadata?.name ?? ''}`;
    const condition = (type: string) => pod.status?.conditions?.find((c) => c.type === type);
    const scheduled = condition('PodScheduled');
    if (scheduled?.status === 'False') {
      return [{ pod: name, state: 'unschedulable', message: scheduled.message || scheduled.reason || 'not scheduled' }];
    }
    if (!pod.spec?.nodeName) return [{ pod: name, state: 'pending', message: 'not yet scheduled' }];
    if (phase === 'Pending')
      return [{ pod: name, state: 'pending', message: `scheduled to ${pod.spec.nodeName}, starting` }];
    const ready = condition('Ready');
    if (ready?.status === 'True') return [];
    return [{ pod: name, state: 'not-ready', message: ready?.message || ready?.reason || 'not Ready' }];
  });
  const rank = { unschedulable: 0, pending: 1, 'not-ready': 2 } as const;
  return blockers.sort((a, b) => rank[a.state] - rank[b.state] || (a.pod < b.pod ? -1 : a.pod > b.pod ? 1 : 0));
}

/** The same blockers, so that an unchanged answer is not announced again. */
export function sameBlockers(a: readonly BudgetBlocker[] | undefined, b: readonly BudgetBlocker[]): boolean {
  return (
    a !== undefined &&
    a.length === b.length &&
    a.every((x, i) => x.pod === b[i]!.pod && x.state === b[i]!.state && x.message === b[i]!.message)
  );
}
