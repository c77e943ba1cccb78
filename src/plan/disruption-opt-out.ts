import type { V1Pod } from '@kubernetes/client-node';
import type { DrainAction, PodPlan } from './types.js';

/**
 * A pod can ask the cluster's autoscalers to leave it alone: cluster-autoscaler does not scale down a node
 * with a pod annotated `safe-to-evict: "false"`, Karpenter does not disrupt one annotated
 * `do-not-disrupt: "true"` (each compares the value exactly). kubectl drain reads neither: it evicts such a
 * pod like any other, and so does kubectl maint. The plan says so for each pod it removes, so that the
 * operator learns before the drain which workloads asked not to be moved.
 */
export const SAFE_TO_EVICT = 'cluster-autoscaler.kubernetes.io/safe-to-evict';
export const DO_NOT_DISRUPT = 'karpenter.sh/do-not-disrupt';

/** The annotation and the value by which it asks not to be disrupted. */
const OPT_OUTS: ReadonlyArray<readonly [key: string, value: string]> = [
  [SAFE_TO_EVICT, 'false'],
  [DO_NOT_DISRUPT, 'true'],
];

/**
 * Why a pod the drain removes asked not to be disrupted (its annotations, as `key: "value"`), and what
 * the drain does anyway; undefined for a pod that did not ask, or that the drain leaves on its node.
 */
export function disruptionOptOutOf(pod: V1Pod, action: DrainAction): PodPlan['disruptionOptOut'] {
  if (action !== 'evict' && action !== 'delete') return undefined;
  const annotations = OPT_OUTS.filter(([key, value]) => pod.metadata?.annotations?.[key] === value).map(
    ([key, value]) => `${key}: "${value}"`,
  );
  if (annotations.length === 0) return undefined;
  const does = action === 'evict' ? 'evicts' : 'deletes';
  return {
    annotations,
    text: `asked not to be disrupted (${annotations.join(', ')}): autoscalers leave it alone, kubectl drain ${does} it anyway`,
  };
}
