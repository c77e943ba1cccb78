import type { V1Taint, V1Toleration } from '@kubernetes/client-node';
import { toleratesTaint } from '../toleration.js';

/** The taint the node lifecycle controller puts on a cordoned node (no value). */
export const UNSCHEDULABLE_TAINT: V1Taint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };

/** A taint is tolerated when ANY toleration matches it (`TolerationsTolerateTaint`), by the rule in plan/toleration.ts. */
export function tolerationsTolerateTaint(tolerations: readonly V1Toleration[], taint: V1Taint): boolean {
  return tolerations.some((t) => toleratesTaint(t, taint));
}

/** The effects the scheduler filters on (`helper.DoNotScheduleTaintsFilterFunc`); PreferNoSchedule only scores. */
export const isDoNotScheduleTaint = (taint: V1Taint) => taint.effect === 'NoSchedule' || taint.effect === 'NoExecute';

/** `FindMatchingUntoleratedTaint` restricted to NoSchedule/NoExecute taints: the first one no toleration matches. */
export function untoleratedDoNotScheduleTaint(
  taints: readonly V1Taint[],
  tolerations: readonly V1Toleration[],
): V1Taint | undefined {
  return taints.find((taint) => isDoNotScheduleTaint(taint) && !tolerationsTolerateTaint(tolerations, taint));
}
