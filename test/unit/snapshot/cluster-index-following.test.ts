/**
 * A later read of the cluster from the run's cache holds the same objects where nothing changed: its
 * index is derived from the last one's (ClusterIndex.follows, ClusterIndex.following), and so is the
 * scheduler's cache. Both must be what a fresh build of the same snapshot gives, lists in the same order,
 * and so must every plan made on them; where a derivation could not be exact, the index is built fresh.
 */
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { drainEveryPod, syntheticClusterList } from '../../../scripts/bench/synthetic-cluster.js';
import { buildPlan } from '../../../src/plan/build-plan.js';
import { schedulerCache } from '../../../src/plan/scheduling/scheduler-cache.js';
import { ClusterIndex } from '../../../src/snapshot/cluster-index.js';
import { snapshotFromDocuments } from '../../../src/snapshot/load-file.js';
import type { Snapshot } from '../../../src/snapshot/types.js';

const CLUSTER = { nodes: 60, pods: 1_200, namespaces: 6, zones: 3, seed: 11 };
const base = snapshotFromDocuments([syntheticClusterList(CLUSTER)], { type: 'file', path: 'generated' }, 'generated');
const nodeNames = base.nodes.map((n) => n.metadata!.name!);

/** The index's lists, as plain data in their order: what a derived index must share with a fresh one. */
function lists(index: ClusterIndex) {
  const inner = index as unknown as Record<string, Map<string, unknown>>;
  const sorted = (map: Map<string, unknown>) => [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(
    ['nodesByName', 'podsByNode', 'podsByNamespace', 'podsByLabel', 'owners'].map((k) => [k, sorted(inner[k]!)]),
  );
}

function cacheSummary(index: ClusterIndex) {
  const cache = schedulerCache(index);
  return {
    nodes: cache.nodeInfos.map((n) => [n.name, n.node, n.requested, n.podCount, n.usedPorts]),
    namespaces: [...cache.namespaces].sort(),
  };
}

const podsOf = (s: Snapshot, node: string) => s.pods.filter((p) => p.spec?.nodeName === node);
const renamed = (pod: V1Pod, suffix: string, node = pod.spec?.nodeName): V1Pod => ({
  ...pod,
  metadata: { ...pod.metadata, name: `${pod.metadata!.name}-${suffix}`, uid: `${pod.metadata!.uid}-${suffix}` },
  spec: { containers: [], ...pod.spec, ...(node ? { nodeName: node } : {}) },
});

/**
 * The cache's next read after a drain of `node` began: the node cordoned, its pods' objects changed in
 * place (terminating), some pods gone, replacements appended (bound elsewhere), a label changed in place,
 * a ReplicaSet's status changed, the budgets read again.
 */
function nextRead(before: Snapshot, node: string, round: number): Snapshot {
  const cordoned: V1Node = { ...before.nodes.find((n) => n.metadata?.name === node)!, spec: { unschedulable: true } };
  const onNode = new Set(podsOf(before, node));
  const [gone, ...terminating] = [...onNode];
  const target = nodeNames[(nodeNames.indexOf(node) + 7) % nodeNames.length]!;
  const relabel = before.pods.find((p) => !onNode.has(p) && p.metadata?.labels);
  const pods = before.pods.flatMap((pod): V1Pod[] => {
    if (pod === gone) return [];
    if (onNode.has(pod)) return [{ ...pod, metadata: { ...pod.metadata, deletionTimestamp: new Date(0) } }];
    if (pod === relabel) return [{ ...pod, metadata: { ...pod.metadata, labels: { moved: `r${round}` } } }];
    return [pod];
  });
  const replacements = terminating.slice(0, 3).map((p) => renamed(p, `r${round}`, target));
  const [rs, ...otherSets] = before.replicaSets;
  return {
    ...before,
    nodes: before.nodes.map((n) => (n.metadata?.name === node ? cordoned : n)),
    pods: [...pods, ...replacements],
    replicaSets: rs ? [{ ...rs, status: { replicas: 0 } }, ...otherSets] : before.replicaSets,
    pdbs: before.pdbs.map((b) => ({ ...b })),
  };
}

/** The index of `next`, derived from `before`'s (which has its scheduler cache). */
function follow(before: Snapshot, next: Snapshot): ClusterIndex {
  ClusterIndex.of(before);
  ClusterIndex.follows(next, before);
  return ClusterIndex.of(next);
}

describe('an index derived from the last read of the cluster', () => {
  it('holds the lists a fresh index of the same snapshot holds, in the same order, and shares the rest', () => {
    const first = { ...base };
    const node = nodeNames[3]!;
    const next = nextRead(first, node, 1);
    schedulerCache(ClusterIndex.of(first));
    const derived = follow(first, next);
    expect(lists(derived)).toEqual(lists(new ClusterIndex(next)));
    // Derived, not built: a list no pod of which moved is the last index's own.
    const untouched = nodeNames.find((n) => podsOf(first, n).every((p) => next.pods.includes(p)))!;
    expect(derived.podsOnNode(untouched)).toBe(ClusterIndex.of(first).podsOnNode(untouched));
    expect(cacheSummary(derived)).toEqual(cacheSummary(new ClusterIndex(next)));
  });

  it('gives the plans a fresh index gives, read after read', () => {
    let before: Snapshot = { ...base };
    schedulerCache(ClusterIndex.of(before));
    for (const [round, node] of [nodeNames[5], nodeNames[17], nodeNames[40]].entries()) {
      const next = nextRead(before, node!, round);
      const derived = follow(before, next);
      const options = drainEveryPod([nodeNames[(round * 13 + 2) % nodeNames.length]!, node!]);
      expect(buildPlan(derived, options)).toEqual(buildPlan(new ClusterIndex(next), options));
      expect(lists(derived)).toEqual(lists(new ClusterIndex(next)));
      before = next;
    }
  }, 60_000);

  it('is built fresh where the pods both reads hold are in another order (a relist), or the nodes differ', () => {
    const first = { ...base };
    const index = ClusterIndex.of(first);
    expect(ClusterIndex.following(index, { ...first, pods: [...first.pods].reverse() })).toBeNull();
    expect(ClusterIndex.following(index, { ...first, nodes: [...first.nodes].reverse() })).toBeNull();
    expect(ClusterIndex.following(index, { ...first, nodes: first.nodes.slice(1) })).toBeNull();
    const fewer = { ...first, pods: first.pods.slice(0, first.pods.length / 2) };
    expect(ClusterIndex.following(index, fewer)).toBeNull();
    const relisted = { ...first, pods: [...first.pods].reverse() };
    ClusterIndex.follows(relisted, first);
    expect(lists(ClusterIndex.of(relisted))).toEqual(lists(new ClusterIndex(relisted)));
  });

  it('builds the scheduler cache fresh where the namespaces changed', () => {
    const first = { ...base };
    schedulerCache(ClusterIndex.of(first));
    const next = { ...nextRead(first, nodeNames[9]!, 1), namespaces: first.namespaces.map((n) => ({ ...n })) };
    expect(cacheSummary(follow(first, next))).toEqual(cacheSummary(new ClusterIndex(next)));
  });

  it('builds the scheduler cache fresh where a node changed its labels: the kept terms hold their node', () => {
    const first = { ...base };
    schedulerCache(ClusterIndex.of(first));
    const pod = first.pods.find(
      (p) => p.spec?.nodeName && p.spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution,
    )!;
    const relabelled = (n: V1Node): V1Node =>
      n.metadata?.name === pod.spec!.nodeName
        ? {
            ...n,
            metadata: { ...n.metadata, labels: { ...n.metadata?.labels, 'topology.kubernetes.io/zone': 'moved' } },
          }
        : n;
    const next = { ...first, nodes: first.nodes.map(relabelled) };
    const { namespace = 'default', labels = {} } = pod.metadata ?? {};
    const terms = (index: ClusterIndex) =>
      schedulerCache(index)
        .antiAffinity.candidates(namespace, labels)
        .map((t) => [t.uid, t.node.name, t.node.labels]);
    expect(terms(follow(first, next))).toEqual(terms(new ClusterIndex(next)));
  });
});
