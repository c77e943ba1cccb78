import type { V1Deployment } from '@kubernetes/client-node';

/**
 * What a surge changed in the cluster, kept on the Deployment itself so that a drain that was killed
 * can be undone (or finished) by the next one, from any machine: the Deployment's own replica count,
 * the count the surge set, and the drained nodes.
 */
export const SURGE_ANNOTATION = 'maint.kubectl.io/surge';

export interface SurgeRecord {
  /** The Deployment's own spec.replicas, to return to. */
  readonly replicas: number;
  /** The replica count the surge set. */
  readonly surgedTo: number;
  readonly nodes: readonly string[];
}

/** The record on a Deployment, or null when it carries none (or one that does not parse). */
export function surgeRecordOf(deployment: V1Deployment): SurgeRecord | null {
  const text = deployment.metadata?.annotations?.[SURGE_ANNOTATION];
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<SurgeRecord>;
    if (typeof value.replicas !== 'number' || typeof value.surgedTo !== 'number') return null;
    return { replicas: value.replicas, surgedTo: value.surgedTo, nodes: Array.isArray(value.nodes) ? value.nodes : [] };
  } catch {
    return null;
  }
}
