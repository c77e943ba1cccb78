import type { V1Deployment, V1PodDisruptionBudget } from '@kubernetes/client-node';
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
  /** Why (not) surged, in words. */
  readonly text: string;
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
  return {
    surged: true,
    deployment,
    fromReplicas: from,
    toReplicas: to,
    text:
      `surge: Deployment ${deployment} goes from ${from} to ${plural(to, 'replica')}; once the extra one is Ready ` +
      `(on ${c.placement.placedOn}), ${pod.namespace}/${pod.name} is evicted and the Deployment returns to ${from}`,
  };
}

function notSurged(deployment: string | null, text: string): PodSurgePlan {
  return { surged: false, deployment, text };
}
