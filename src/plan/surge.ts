import type { V1Deployment, V1PodDisruptionBudget, V2HorizontalPodAutoscaler } from '@kubernetes/client-node';
import type { PodPlan, ReplacementPlan } from './types.js';
import { plural } from '../wording.js';

/**
 * Surge (`--surge`, `--surge=NS/NAME,…`): for a pod of a Deployment whose budget will not let it go, first
 * bring up extra Ready replicas on other nodes, then evict it (the extra replicas make the budget allow
 * it), then return the Deployment to its own replica count (kubernetes#66811).
 *
 * Scale-up, not a surge rollout: a rollout (maxSurge ≥ 1, maxUnavailable 0) would restart every pod of
 * the Deployment, on every node, and leave a changed pod template (a new ReplicaSet) that returning to
 * the Deployment's own spec would roll out again. A scale-up changes only spec.replicas. Its catch is
 * the scale-down: the ReplicaSet controller picks the pod to delete by rank (ActivePodsWithRanks:
 * unscheduled, then pending, then not Ready, then … the most recently Ready), which would be the new
 * replica, not the old pod on the cordoned node. So the old pod is evicted first, through the Eviction
 * API, and only then is the count returned: by then the only extra pod is the one the ReplicaSet just
 * created in its place, not yet Ready, and it ranks first for deletion.
 *
 * A Deployment under a HorizontalPodAutoscaler is surged through the autoscaler, not against it: the
 * autoscaler owns spec.replicas and would scale an extra replica away at its next sync (its controller
 * clamps every recommendation to [minReplicas, maxReplicas], and only those bounds). So its minReplicas is
 * raised to the surged count for the drain (maxReplicas too when it is lower), recorded with the
 * Deployment's count, and returned afterwards, before the Deployment's own count. While the bounds are
 * raised the autoscaler may still scale *up* on its metrics; the Deployment is then left at the count it
 * chose, not forced back down.
 *
 * Only budgets that extra Ready pods can open are surged: maxUnavailable 0 and minAvailable 100 % count
 * the extra replicas too (the disruption controller's expectedPods follows the scale), so they never allow
 * an eviction however many replicas run.
 */
export interface SurgeOptions {
  /** `--surge`: every Deployment that needs it. */
  readonly all: boolean;
  /** `--surge=NS/NAME,…`: only these Deployments. */
  readonly deployments: readonly string[];
}

export interface PodSurgePlan {
  readonly surged: boolean;
  /** namespace/name of the Deployment, or null when the pod has none. */
  readonly deployment: string | null;
  readonly fromReplicas?: number;
  readonly toReplicas?: number;
  /** The autoscaler whose bounds the surge raises, when one scales the Deployment. */
  readonly autoscaler?: SurgedAutoscaler;
  /** Why (not) surged, in words. */
  readonly text: string;
}

export interface SurgedAutoscaler {
  /** namespace/name. */
  readonly name: string;
  readonly minReplicas: number;
  readonly maxReplicas: number;
  readonly surgedMin: number;
  readonly surgedMax: number;
}

/**
 * The bounds that keep `surgedTo` replicas under an autoscaler: minReplicas raised to at least the surged
 * count, maxReplicas to at least that (the API refuses minReplicas above maxReplicas). Never lowered.
 */
export function raisedBounds(
  minReplicas: number | undefined,
  maxReplicas: number,
  surgedTo: number,
): { minReplicas: number; maxReplicas: number; surgedMin: number; surgedMax: number } {
  const min = minReplicas ?? 1;
  const surgedMin = Math.max(min, surgedTo);
  return { minReplicas: min, maxReplicas, surgedMin, surgedMax: Math.max(maxReplicas, surgedMin) };
}

/** The autoscaler (autoscaling/v2) whose scaleTargetRef is this Deployment, if any. */
export function autoscalerOfDeployment(
  autoscalers: readonly V2HorizontalPodAutoscaler[],
  namespace: string,
  deployment: string,
): V2HorizontalPodAutoscaler | undefined {
  return autoscalers.find(
    (h) =>
      (h.metadata?.namespace ?? 'default') === namespace &&
      h.spec?.scaleTargetRef.kind === 'Deployment' &&
      h.spec.scaleTargetRef.name === deployment,
  );
}

export interface SurgeCandidate {
  readonly pod: PodPlan;
  readonly controller: { readonly kind: string; readonly name: string } | null;
  readonly pdb: V1PodDisruptionBudget | undefined;
  readonly deployment: V1Deployment | undefined;
  /** The extra replica's placement (null when the plan did not look for one). */
  readonly placement: ReplacementPlan | null;
  /** How many pods of the same Deployment the surge must cover (its blocked pods on the drained nodes). */
  readonly extra: number;
  /**
   * The autoscaler that scales the Deployment: one found, none (`null`), or `'unknown'` when
   * HorizontalPodAutoscalers were not read (the plan is then incomplete; the drain looks before it surges).
   */
  readonly autoscaler: V2HorizontalPodAutoscaler | null | 'unknown';
}

/** Whether `pod`'s Deployment is selected by the --surge flag. */
export function surgeSelects(options: SurgeOptions | undefined, deployment: string): boolean {
  if (!options) return false;
  return options.all || options.deployments.includes(deployment);
}

/** Why extra Ready replicas cannot open this budget, or null when they can. */
export function budgetSurgeCannotOpen(pdb: V1PodDisruptionBudget): string | null {
  const spec = pdb.spec;
  if (spec?.maxUnavailable !== undefined) {
    const value = String(spec.maxUnavailable);
    if (value === '0' || value === '0%') {
      return `budget maxUnavailable ${value} counts extra replicas too: it never allows an eviction, whatever the scale`;
    }
  }
  if (spec?.minAvailable !== undefined && String(spec.minAvailable) === '100%') {
    return 'budget minAvailable 100% counts extra replicas too: it never allows an eviction, whatever the scale';
  }
  return null;
}

/** The surge the drain would run for one blocked pod, or why it would not. */
export function planSurge(c: SurgeCandidate): PodSurgePlan {
  const { pod, controller } = c;
  if (!controller) return notSurged(null, 'not surged: no controller would bring up an extra replica');
  if (controller.kind === 'StatefulSet') {
    return notSurged(
      null,
      `not surged: StatefulSet ${pod.namespace}/${controller.name} gives each pod a stable identity; scaling it up adds a new ordinal, not a second copy of ${pod.name}`,
    );
  }
  if (controller.kind !== 'Deployment') {
    return notSurged(
      null,
      `not surged: only Deployments are (${controller.kind} ${pod.namespace}/${controller.name} has no Deployment spec to return to, and its scale is often someone else's)`,
    );
  }
  const deployment = `${pod.namespace}/${controller.name}`;
  if (!c.deployment) return notSurged(deployment, `not surged: Deployment ${deployment} is not in the snapshot`);
  if (!c.pdb) return notSurged(deployment, 'not surged: no budget holds it');
  const closed = budgetSurgeCannotOpen(c.pdb);
  if (closed) return notSurged(deployment, `not surged: ${closed}`);
  if (!c.placement?.schedulable) {
    return notSurged(
      deployment,
      `not surged: no node for an extra replica: ${c.placement?.message ?? 'the plan found none'}`,
    );
  }
  const from = c.deployment.spec?.replicas ?? 1;
  const to = from + c.extra;
  const text =
    `surge: Deployment ${deployment} goes from ${from} to ${plural(to, 'replica')}; once the extra one is Ready ` +
    `(on ${c.placement.placedOn}), ${pod.namespace}/${pod.name} is evicted and the Deployment returns to ${from}`;
  const base = { surged: true, deployment, fromReplicas: from, toReplicas: to } as const;
  if (c.autoscaler === 'unknown') {
    return {
      ...base,
      text: `${text} (HorizontalPodAutoscalers were not read: if one scales it, the drain raises its minReplicas to ${to} for the surge)`,
    };
  }
  if (!c.autoscaler) return { ...base, text };
  const name = `${pod.namespace}/${c.autoscaler.metadata?.name ?? ''}`;
  const bounds = raisedBounds(c.autoscaler.spec?.minReplicas, c.autoscaler.spec?.maxReplicas ?? 1, to);
  return {
    ...base,
    autoscaler: { name, ...bounds },
    text: `${text}; HorizontalPodAutoscaler ${name} owns its scale, so ${autoscalerChange(bounds)} for the surge and is returned first`,
  };
}

/** "its minReplicas goes from 1 to 2 (maxReplicas 1 → 2)", or "its bounds stay (…)" when they already allow it. */
export function autoscalerChange(b: {
  minReplicas: number;
  maxReplicas: number;
  surgedMin: number;
  surgedMax: number;
}): string {
  if (b.surgedMin === b.minReplicas) return `its bounds stay (minReplicas ${b.minReplicas} already keeps them)`;
  const max = b.surgedMax === b.maxReplicas ? '' : ` (maxReplicas ${b.maxReplicas} → ${b.surgedMax})`;
  return `its minReplicas goes from ${b.minReplicas} to ${b.surgedMin}${max}`;
}

function notSurged(deployment: string | null, text: string): PodSurgePlan {
  return { surged: false, deployment, text };
}
