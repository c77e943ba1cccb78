import type { V1Node, V1Pod, V1PodDisruptionBudget } from '@kubernetes/client-node';
import type { ClusterIndex, SnapshotChanges } from '../snapshot/cluster-index.js';
import { deriveSchedulerCache } from './scheduling/scheduler-cache.js';
import { isPodReady } from './pod-facts.js';
import type { DrainPlan, PodPlan } from './types.js';

/** Marks a pod the pool plan put in place of an evicted one (its value: the batch that evicted the original). */
export const PLANNED_REPLACEMENT_ANNOTATION = 'maint.kubectl.io/planned-replacement-of-batch';

/**
 * The cluster as it will be once a batch is done: its nodes back in service (uncordoned), every pod its
 * drain removed gone, each placed replacement Running and Ready on the node the simulation chose (same
 * name, labels and spec: the name a controller picks is unknowable), and each budget recounted by the
 * disruption controller. Pure: a new snapshot and index (derived from the old one's, see
 * ClusterIndex.withChanges, as is the scheduler's cache), the old ones untouched.
 */
export function clusterAfterBatch(
  index: ClusterIndex,
  plan: Pick<DrainPlan, 'nodes' | 'pods'>,
  batchNumber: number,
): ClusterIndex {
  const removed = plan.pods.filter(isRemovedByDrain);
  const removedUids = new Set(removed.map((p) => p.uid));
  const originals = new Map<string, V1Pod>();
  for (const node of plan.nodes) {
    for (const pod of index.podsOnNode(node)) {
      if (removedUids.has(pod.metadata?.uid ?? '')) originals.set(pod.metadata?.uid ?? '', pod);
    }
  }
  const replacements = removed.flatMap((p) => {
    const original = originals.get(p.uid);
    const node = p.replacement?.placedOn;
    return original && node ? [runningCopy(original, node, batchNumber)] : [];
  });
  const preempted = preemptedPods(index, plan.pods);
  const cordoned = plan.nodes.map((name) => index.node(name)).filter((n) => n?.spec?.unschedulable);
  const changes: SnapshotChanges = {
    removedPods: [...originals.values(), ...preempted.map((v) => v.pod)],
    addedPods: [
      ...replacements,
      ...preempted.flatMap((v) => (v.node ? [runningCopy(v.pod, v.node, batchNumber)] : [])),
    ],
    replacedNodes: cordoned.map((n) => uncordoned(n!)),
    pdbs: recountBudgets(index.snapshot.pdbs, removed, originals),
  };
  const next = index.withChanges(changes);
  deriveSchedulerCache(index, next, changes);
  return next;
}

/**
 * The pods the batch's replacements preempted (deleted by the scheduler), with the node their own
 * replacement was placed on (null: none).
 */
function preemptedPods(index: ClusterIndex, pods: readonly PodPlan[]): Array<{ pod: V1Pod; node: string | null }> {
  return pods.flatMap((p) =>
    (isRemovedByDrain(p) ? (p.replacement?.preemption?.victims ?? []) : []).flatMap((v) => {
      const pod = index
        .podsOnNode(v.node)
        .find((o) => o.metadata?.name === v.name && o.metadata?.namespace === v.namespace);
      return pod ? [{ pod, node: v.replacement?.placedOn ?? null }] : [];
    }),
  );
}

/** The drain removes it: evicted or deleted, and admitted at some point (a blocked pod stays). */
export function isRemovedByDrain(p: PodPlan): boolean {
  return (p.action === 'evict' || p.action === 'delete') && p.outcome !== null && p.outcome !== 'blocked';
}

function runningCopy(pod: V1Pod, node: string, batchNumber: number): V1Pod {
  const { deletionTimestamp: _gone, ...metadata } = pod.metadata ?? {};
  return {
    ...pod,
    metadata: {
      ...metadata,
      uid: `${pod.metadata?.uid ?? pod.metadata?.name}~batch-${batchNumber}`,
      annotations: { ...metadata.annotations, [PLANNED_REPLACEMENT_ANNOTATION]: String(batchNumber) },
    },
    spec: { containers: [], ...pod.spec, nodeName: node },
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True' }],
    },
  };
}

function uncordoned(node: V1Node): V1Node {
  return { ...node, spec: { ...node.spec, unschedulable: false } };
}

/**
 * The disruption controller's recount after the batch: a Ready pod removed without a placed replacement
 * is one healthy pod fewer; a replacement (Ready) of a pod that was not Ready is one more. The status is
 * caught up with the spec (the controller had the whole batch to sync).
 */
function recountBudgets(
  pdbs: readonly V1PodDisruptionBudget[],
  removed: readonly PodPlan[],
  originals: ReadonlyMap<string, V1Pod>,
): V1PodDisruptionBudget[] {
  const delta = new Map<string, number>();
  for (const p of removed) {
    const original = originals.get(p.uid);
    const wasReady = original ? isPodReady(original) : false;
    const isReadyAfter = p.replacement?.placedOn != null;
    const change = Number(isReadyAfter) - Number(wasReady);
    if (change === 0) continue;
    for (const b of p.pdbs)
      delta.set(`${b.namespace}/${b.name}`, (delta.get(`${b.namespace}/${b.name}`) ?? 0) + change);
  }
  return pdbs.map((pdb) => {
    const key = `${pdb.metadata?.namespace ?? 'default'}/${pdb.metadata?.name ?? ''}`;
    const change = delta.get(key) ?? 0;
    const status = pdb.status;
    const generation = pdb.metadata?.generation;
    if (!status || (change === 0 && (status.observedGeneration ?? 0) >= (generation ?? 0))) return pdb;
    const currentHealthy = Math.max(0, (status.currentHealthy ?? 0) + change);
    return {
      ...pdb,
      status: {
        ...status,
        currentHealthy,
        disruptionsAllowed: Math.max(0, currentHealthy - (status.desiredHealthy ?? 0)),
        ...(generation !== undefined ? { observedGeneration: generation } : {}),
      },
    };
  });
}
