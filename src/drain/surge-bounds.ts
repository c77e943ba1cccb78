import type { V1Deployment } from '@kubernetes/client-node';
import type { AutoscalerBounds, SurgeRecord } from '../kube/surge-record.js';

// The surge's decisions about counts and bounds, from what was read and the record alone (surge.ts
// reads and writes): when the extra replicas are up, what count a Deployment returns to, and which
// bounds an autoscaler is raised to and returned to.

/** An autoscaler's bounds as read: minReplicas (1 when unset) and maxReplicas. */
export interface Bounds {
  readonly minReplicas: number;
  readonly maxReplicas: number;
}

/** The Deployment controller has seen the new count and as many replicas as it asks for are Ready. */
export function isSurgeReady(deployment: V1Deployment, record: SurgeRecord): boolean {
  const observed = (deployment.status?.observedGeneration ?? 0) >= (deployment.metadata?.generation ?? 0);
  return observed && (deployment.status?.readyReplicas ?? 0) >= record.surgedTo;
}

/**
 * The count a Deployment returns to: its own, unless an autoscaler moved it while its bounds were raised
 * (then the autoscaler chose it, and it stays: null).
 */
export function restoredReplicas(record: SurgeRecord, replicas: number | undefined): number | null {
  const own = !record.autoscaler || replicas === record.surgedTo || replicas === record.replicas;
  return own ? record.replicas : null;
}

/** The bounds to raise an autoscaler to, or null when they already allow the surge (nothing to write). */
export function raisedTo(bounds: AutoscalerBounds, current: Bounds): Bounds | null {
  if (current.minReplicas >= bounds.surgedMin && current.maxReplicas >= bounds.surgedMax) return null;
  return {
    minReplicas: Math.max(current.minReplicas, bounds.surgedMin),
    maxReplicas: Math.max(current.maxReplicas, bounds.surgedMax),
  };
}

/**
 * The bounds an autoscaler returns to: each that is still the surge's goes back to its own; one someone
 * else changed meanwhile is theirs and stays. maxReplicas is never below minReplicas.
 */
export function returnedTo(bounds: AutoscalerBounds, current: Bounds): Bounds {
  const minReplicas = current.minReplicas === bounds.surgedMin ? bounds.minReplicas : current.minReplicas;
  const maxReplicas = Math.max(
    minReplicas,
    current.maxReplicas === bounds.surgedMax ? bounds.maxReplicas : current.maxReplicas,
  );
  return { minReplicas, maxReplicas };
}
