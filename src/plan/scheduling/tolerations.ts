import type { V1Taint, V1Toleration } from '@kubernetes/client-node';

/** The taint the node lifecycle controller puts on a cordoned node (no value). */
export const UNSCHEDULABLE_TAINT: V1Taint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };

/**
 * `Toleration.ToleratesTaint` (k8s.io/api core/v1, v1.37): an empty effect matches every effect, an
 * empty key every key; operator Equal (or empty) needs the same value, Exists any value. Lt/Gt need the
 * TaintTolerationComparisonOperators gate, alpha and off in 1.37, so they never match here.
 */
export function toleratesTaint(toleration: V1Toleration, taint: V1Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  switch (toleration.operator ?? '') {
    case '':
    case 'Equal':
      return (toleration.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

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
