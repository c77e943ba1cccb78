import type { V1Taint, V1Toleration } from '@kubernetes/client-node';

/**
 * Taints and tolerations, one place for every rule that matches them: the API's own `ToleratesTaint`, the
 * taint eviction controller's choice of toleration, and the scheduler's taint helpers.
 */

/**
 * Toleration.ToleratesTaint (k8s.io/api core/v1 toleration.go): effect and key match when the
 * toleration leaves them empty or they are equal; `Exists` takes any value, `Equal` (or no operator)
 * the same value. Gt/Lt (alpha, off by default) and unknown operators match nothing.
 */
export function toleratesTaint(toleration: V1Toleration, taint: V1Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  switch (toleration.operator ?? 'Equal') {
    case 'Exists':
      return true;
    case 'Equal':
    case '':
      return (toleration.value ?? '') === (taint.value ?? '');
    default:
      return false;
  }
}

/**
 * The first toleration, in pod order, that matches the taint: what GetMatchingTolerations picks for the
 * taint eviction controller, which reads only that one toleration's tolerationSeconds.
 */
export function firstMatchingToleration(
  tolerations: readonly V1Toleration[] | undefined,
  taint: V1Taint,
): V1Toleration | undefined {
  return (tolerations ?? []).find((t) => toleratesTaint(t, taint));
}

/** The taint the node lifecycle controller puts on a cordoned node (no value). */
export const UNSCHEDULABLE_TAINT: V1Taint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };

/** A taint is tolerated when ANY toleration matches it (`TolerationsTolerateTaint`), by `toleratesTaint` above. */
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
