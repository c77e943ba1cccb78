import type { V1Taint, V1Toleration } from '@kubernetes/client-node';

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
