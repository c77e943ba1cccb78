import type { V1Pod, V1Taint } from '@kubernetes/client-node';
import { budgetsBrokenByDeletes, type BudgetFacts } from './budgets.js';
import { isMirrorPod } from './pod-facts.js';
import { firstMatchingToleration } from './tolerations.js';
import type { NoExecuteBudgetBreach } from './types.js';

/** The NoExecute taint for --taint KEY[=VALUE]. */
export function maintenanceTaint(key: string, value?: string): V1Taint {
  return { key, effect: 'NoExecute', ...(value ? { value } : {}) };
}

/** `key=value:NoExecute`, as kubectl taint writes it. */
export function taintText(taint: V1Taint): string {
  return `${taint.key}${taint.value ? `=${taint.value}` : ''}:${taint.effect}`;
}

export interface TaintDeletion {
  /** Seconds from the taint until the taint eviction controller deletes the pod; null = never. */
  readonly afterSeconds: number | null;
  readonly reason: string;
}

/**
 * What the pod's tolerations say about a NoExecute taint, as the taint eviction controller reads them
 * (processPodOnNode): only the first matching toleration, in pod order, counts. undefined = none
 * matches (deleted at once); null = it matches without tolerationSeconds (never deleted); otherwise its
 * seconds, 0 or less meaning at once.
 */
export function tolerationSecondsFor(pod: V1Pod, taint: V1Taint): number | null | undefined {
  const toleration = firstMatchingToleration(pod.spec?.tolerations, taint);
  if (!toleration) return undefined;
  return toleration.tolerationSeconds ?? null;
}

/**
 * When the taint eviction controller deletes a pod after a NoExecute taint lands on its node. DaemonSet
 * pods are no exception: whatever they tolerate decides. A mirror pod's deletion does not stop its
 * static pod, so it counts as never.
 */
export function taintDeletion(pod: V1Pod, taint: V1Taint): TaintDeletion {
  const text = taintText(taint);
  if (isMirrorPod(pod)) return { afterSeconds: null, reason: 'mirror pod: the kubelet keeps its static pod running' };
  const seconds = tolerationSecondsFor(pod, taint);
  if (seconds === undefined) return { afterSeconds: 0, reason: `does not tolerate ${text}: deleted at once` };
  if (seconds === null)
    return { afterSeconds: null, reason: `tolerates ${text} without tolerationSeconds: never deleted` };
  if (seconds <= 0) return { afterSeconds: 0, reason: `tolerates ${text} for ${seconds}s: deleted at once` };
  return { afterSeconds: seconds, reason: `tolerates ${text} for ${seconds}s (tolerationSeconds)` };
}

/** A pod the taint deletes, with the budgets selecting it. */
export interface TaintedPod {
  readonly pod: V1Pod;
  readonly key: string;
  readonly budgets: readonly BudgetFacts[];
  readonly deletion: TaintDeletion;
}

/** Budgets the taint breaks: every pod it deletes goes by a plain DELETE, which asks no budget. */
export function budgetsBrokenByTaint(pods: readonly TaintedPod[]): NoExecuteBudgetBreach[] {
  return budgetsBrokenByDeletes(pods.filter((p) => p.deletion.afterSeconds !== null));
}
