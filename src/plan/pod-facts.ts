import type { V1OwnerReference, V1Pod } from '@kubernetes/client-node';

/** Facts about a pod that several rules read, each named after the upstream helper it mirrors. */

/** `namespace/name`, the way kubectl lists pods in its messages. */
export function podKey(pod: V1Pod): string {
  return `${pod.metadata?.namespace ?? 'default'}/${pod.metadata?.name ?? ''}`;
}

/** podutil.IsPodReady: the Ready condition is True. The eviction API calls such a pod healthy. */
export function isPodReady(pod: V1Pod): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** Phase Succeeded or Failed: the pod has finished and its containers will not run again (nor is it in the scheduler's cache). */
export function isTerminal(pod: V1Pod): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

/** metadata.deletionTimestamp is set: the pod is already being deleted. */
export function isTerminating(pod: V1Pod): boolean {
  return pod.metadata?.deletionTimestamp != null;
}

/** metav1.GetControllerOf: the owner reference marked `controller: true`, if any. */
export function controllerRef(pod: V1Pod): V1OwnerReference | undefined {
  return pod.metadata?.ownerReferences?.find((ref) => ref.controller === true);
}

/** The kubelet's annotation on the API-server copy of a static pod. */
export const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

export function isMirrorPod(pod: V1Pod): boolean {
  return pod.metadata?.annotations?.[MIRROR_POD_ANNOTATION] !== undefined;
}

/**
 * A timestamp as epoch seconds. Live snapshots hold Dates, file snapshots RFC 3339 strings; an
 * unparsable value gives undefined.
 */
export function toEpochSeconds(value: Date | string | undefined | null): number | undefined {
  if (value == null) return undefined;
  const ms = value instanceof Date ? value.getTime() : Date.parse(value);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}
