import type { V1Pod } from '@kubernetes/client-node';
import type { DrainApi } from '../kube/drain-api.js';
import { selectedByPodSelector } from '../plan/build-plan.js';
import { latePodVerdicts } from '../plan/late-pods.js';
import type { PlanOptions } from '../plan/types.js';
import { ClusterIndex } from '../snapshot/cluster-index.js';
import type { Snapshot } from '../snapshot/types.js';
import type { PodRef } from './events.js';
import { DEFAULT_GRACE_SECONDS, neverEvictReason, type DrainTarget, type SkippedPod } from './targets.js';

/** The pods found on the drained nodes after the plan read them, as the drain treats them. */
export interface LateWork {
  readonly targets: readonly DrainTarget[];
  readonly skipped: readonly SkippedPod[];
  /** Pods kubectl's filters refuse (an unmanaged pod without --force…), with kubectl's reason. */
  readonly refused: readonly SkippedPod[];
}

/** Treats pods found on the drained nodes after the plan: as the plan would have (plan/late-pods.ts). */
export type ClassifyLatePods = (pods: readonly V1Pod[], nowEpochSeconds: number) => LateWork;

/**
 * How the drain treats the pods it finds on its nodes after its plan read them, judged on the state the
 * plan read with the plan's options (`nowEpochSeconds` given at each call), from the index the plan was
 * made from (ClusterIndex.of).
 */
export function latePodsClassifier(snapshot: Snapshot, options: PlanOptions): ClassifyLatePods {
  return (pods, nowEpochSeconds) => {
    const selected = selectedByPodSelector(pods, options.podSelector);
    if (selected.length === 0) return { targets: [], skipped: [], refused: [] };
    const index = ClusterIndex.of(snapshot);
    const targets: DrainTarget[] = [];
    const skipped: SkippedPod[] = [];
    const refused: SkippedPod[] = [];
    for (const verdict of latePodVerdicts(index, selected, { ...options, nowEpochSeconds })) {
      const { pod } = verdict;
      const ref = refOfPod(pod);
      // A DaemonSet created after the plan read the cluster is not in it: with --ignore-daemonsets its pod
      // is left alone all the same, never refused for a DaemonSet "not found".
      const guard = neverEvictReason(pod);
      if (verdict.action === 'skip') skipped.push({ ref, reason: verdict.reason });
      else if (guard && (verdict.action !== 'refuse' || options.ignoreDaemonSets)) skipped.push({ ref, reason: guard });
      else if (verdict.action === 'refuse') refused.push({ ref, reason: verdict.reason });
      else
        targets.push({
          ref,
          method: verdict.action === 'delete' ? 'delete' : 'evict',
          pdbs: verdict.pdbs,
          ownGraceSeconds: pod.spec?.terminationGracePeriodSeconds ?? DEFAULT_GRACE_SECONDS,
          ...(pod.metadata?.labels ? { labels: pod.metadata.labels } : {}),
        });
    }
    return { targets, skipped, refused };
  };
}

function refOfPod(pod: V1Pod): PodRef {
  return {
    namespace: pod.metadata?.namespace ?? 'default',
    name: pod.metadata?.name ?? '',
    uid: pod.metadata?.uid ?? '',
    node: pod.spec?.nodeName ?? '',
  };
}

/**
 * The pods on `nodes` now, read from the API server, that the drain does not know (`known`: the uids of
 * the pods it took on or left alone), as `classify` treats them.
 */
export async function findLatePods(
  api: Pick<DrainApi, 'listPodsOnNode'>,
  nodes: readonly string[],
  known: ReadonlySet<string>,
  classify: ClassifyLatePods,
  nowEpochSeconds: number,
): Promise<LateWork> {
  const lists = await Promise.all(nodes.map((node) => api.listPodsOnNode(node)));
  const unknown = lists.flat().filter((pod) => !known.has(pod.metadata?.uid ?? ''));
  return classify(unknown, nowEpochSeconds);
}
