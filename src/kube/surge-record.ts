import type { V1Deployment, V2HorizontalPodAutoscaler } from '@kubernetes/client-node';

/**
 * What a surge changed in the cluster, kept on the Deployment itself so that a drain that was killed
 * can be undone (or finished) by the next one, from any machine: the Deployment's own replica count,
 * the count the surge set, and the drained nodes; for a Deployment under a HorizontalPodAutoscaler, the
 * autoscaler's own bounds and the raised ones. The autoscaler carries a copy (for whoever looks at it).
 */
export const SURGE_ANNOTATION = 'maint.kubectl.io/surge';

export interface AutoscalerBounds {
  readonly name: string;
  /** The autoscaler's own minReplicas and maxReplicas, to return to. */
  readonly minReplicas: number;
  readonly maxReplicas: number;
  /** The bounds the surge set: minReplicas at least the surged count, maxReplicas at least minReplicas. */
  readonly surgedMin: number;
  readonly surgedMax: number;
}

export interface SurgeRecord {
  /** The Deployment's own spec.replicas, to return to. */
  readonly replicas: number;
  /** The replica count the surge set. */
  readonly surgedTo: number;
  readonly nodes: readonly string[];
  /** The autoscaler whose bounds the surge raised, when one scales the Deployment. */
  readonly autoscaler?: AutoscalerBounds | undefined;
}

/** The copy on the autoscaler: its bounds, and the Deployment and nodes they were raised for. */
export interface AutoscalerSurgeRecord extends AutoscalerBounds {
  readonly deployment: string;
  readonly nodes: readonly string[];
}

/** The record on a Deployment, or null when it carries none (or one that does not parse). */
export function surgeRecordOf(deployment: V1Deployment): SurgeRecord | null {
  const value = parsedRecord(deployment.metadata?.annotations);
  if (!value || typeof value.replicas !== 'number' || typeof value.surgedTo !== 'number') return null;
  const autoscaler = boundsOf(value.autoscaler);
  return {
    replicas: value.replicas,
    surgedTo: value.surgedTo,
    nodes: Array.isArray(value.nodes) ? (value.nodes as string[]) : [],
    ...(autoscaler ? { autoscaler } : {}),
  };
}

/** Whether an autoscaler carries a surge record (its bounds are raised, or were and are being returned). */
export function hasAutoscalerRecord(autoscaler: V2HorizontalPodAutoscaler): boolean {
  return parsedRecord(autoscaler.metadata?.annotations) !== null;
}

function parsedRecord(annotations: Record<string, string> | undefined): Record<string, unknown> | null {
  const text = annotations?.[SURGE_ANNOTATION];
  if (!text) return null;
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function boundsOf(value: unknown): AutoscalerBounds | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Partial<AutoscalerBounds>;
  const numbers = [v.minReplicas, v.maxReplicas, v.surgedMin, v.surgedMax];
  if (typeof v.name !== 'string' || !numbers.every((n) => typeof n === 'number')) return null;
  return {
    name: v.name,
    minReplicas: v.minReplicas!,
    maxReplicas: v.maxReplicas!,
    surgedMin: v.surgedMin!,
    surgedMax: v.surgedMax!,
  };
}
