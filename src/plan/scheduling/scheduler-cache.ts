import type { V1Pod } from '@kubernetes/client-node';
import {
  sameObjects,
  type ClusterIndex,
  type IndexDerivation,
  type SnapshotChanges,
} from '../../snapshot/cluster-index.js';
import { isTerminal } from '../pod-facts.js';
import type { Snapshot } from '../../snapshot/types.js';
import { hasScoringTerms, requiredAntiAffinityTerms, scoringTerms } from './affinity-term.js';
import { namespaceLabels } from './namespace-labels.js';
import { AntiAffinityIndex, type PodTerms } from './anti-affinity-index.js';
import { NodeInfo } from './node-info.js';
import { hostPortsOf } from './host-ports.js';
import { nonZeroRequests, podRequests, statusRuleOf, type StatusRule } from './pod-requests.js';
import { kubeRules } from '../kube-version.js';

/**
 * The scheduler's cache for one cluster state (its NodeInfo list): per node the sums of what its assigned
 * pods hold, the required anti-affinity terms of those pods, and the namespaces that have pods. Building
 * it walks every pod of the snapshot, which on a large cluster is most of a plan's fixed cost, so it is
 * built once per ClusterIndex and shared: each simulation takes views of its NodeInfos (NodeInfo.viewOf)
 * and keeps its own replacements. The pool plan derives the next state's cache from the previous one,
 * touching only the nodes a batch changed (`deriveSchedulerCache`).
 */
export class SchedulerCache {
  readonly nodeInfos: readonly NodeInfo[];
  readonly antiAffinity: AntiAffinityIndex;
  /** The terms InterPodAffinity's score reads off assigned pods (preferred terms, required affinity). */
  readonly scoringTerms: AntiAffinityIndex;
  readonly namespaces: ReadonlySet<string>;
  /** Where each node is in `nodeInfos` (the snapshot's node order). */
  readonly positions: ReadonlyMap<string, number>;
  /** Work every simulation of this cluster state shares (see `memo`). */
  private readonly memos = new Map<string, unknown>();

  constructor(
    nodeInfos: readonly NodeInfo[],
    antiAffinity: AntiAffinityIndex,
    scoringTerms: AntiAffinityIndex,
    namespaces: ReadonlySet<string>,
    positions?: ReadonlyMap<string, number>,
  ) {
    this.nodeInfos = nodeInfos;
    this.antiAffinity = antiAffinity;
    this.scoringTerms = scoringTerms;
    this.namespaces = namespaces;
    this.positions = positions ?? new Map(nodeInfos.map((n, i) => [n.name, i]));
  }

  /**
   * What a simulation works out from this cluster state alone (its nodes as the snapshot has them, its
   * pods, the pod's spec), kept under `key` for every simulation of the state: the pool plan runs
   * hundreds of them against one state, one per node it judges alone.
   */
  memo<T>(key: string, compute: () => T): T {
    if (!this.memos.has(key)) this.memos.set(key, compute());
    return this.memos.get(key) as T;
  }
}

// A memo, not state: the same index always gives the same cache, and a dropped index drops its cache.
const caches = new WeakMap<ClusterIndex, SchedulerCache>();

/**
 * The cache of this cluster state, made on first use: derived from the cache of the state the index was
 * derived from (ClusterIndex.following) where that one was made and `derivable` allows, built otherwise.
 */
export function schedulerCache(index: ClusterIndex): SchedulerCache {
  let cache = caches.get(index);
  if (!cache) {
    const from = index.takeDerivation();
    if (from && derivable(from, index)) deriveSchedulerCache(from.index, index, from.changes);
    cache = caches.get(index) ?? buildCache(index);
    caches.set(index, cache);
  }
  return cache;
}

/**
 * Whether the cache of the state an index was derived from gives its own by the pods and nodes that
 * changed alone: the terms it keeps hold their node's labels and read the namespaces' labels, and the
 * pods' requests follow the server's minor.
 */
function derivable(from: IndexDerivation, index: ClusterIndex): boolean {
  const [before, after] = [from.index.snapshot, index.snapshot];
  const sameNamespaces = sameObjects(before.namespaces, after.namespaces);
  const sameNodeLabels = from.changes.replacedNodes.every((node) =>
    sameLabels(node.metadata?.labels, from.index.node(node.metadata?.name ?? '')?.metadata?.labels),
  );
  return sameNamespaces && sameNodeLabels && before.serverVersion === after.serverVersion;
}

function sameLabels(a: Readonly<Record<string, string>> = {}, b: Readonly<Record<string, string>> = {}): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

function buildCache(index: ClusterIndex): SchedulerCache {
  const nodeInfos = index.nodes.map((node, at) => new NodeInfo(node, false, undefined, at));
  const byName = new Map(nodeInfos.map((n) => [n.name, n]));
  const antiAffinity = new AntiAffinityIndex();
  const scoringTerms = new AntiAffinityIndex();
  const namespaces = new Set<string>();
  const status = statusRuleOf(kubeRules(index.snapshot));
  for (const pod of index.snapshot.pods) {
    namespaces.add(pod.metadata?.namespace ?? 'default');
    const node = assignedNode(pod, byName);
    if (!node) continue;
    addExistingPod(node, pod, status);
    const terms = antiAffinityOf(pod, node, index.snapshot);
    if (terms) antiAffinity.add(terms.terms, node, terms.uid);
    const scoring = scoringTermsOf(pod, node, index.snapshot);
    if (scoring) scoringTerms.add(scoring.terms, node, scoring.uid);
  }
  return new SchedulerCache(nodeInfos, antiAffinity, scoringTerms, namespaces);
}

/**
 * `next`'s cache from `previous`'s, when `next` is `previous` with `change` applied and `previous` has
 * one: the NodeInfos of the nodes the change touched are rebuilt from `next`'s pods, every other one is
 * shared. Gives what `schedulerCache(next)` would build from scratch (pool-plan tests compare the plans).
 */
export function deriveSchedulerCache(previous: ClusterIndex, next: ClusterIndex, change: SnapshotChanges): void {
  const before = caches.get(previous);
  if (!before || caches.has(next)) return;
  const touched = new Set(change.replacedNodes.map((n) => n.metadata?.name ?? ''));
  for (const pod of [...change.removedPods, ...change.addedPods])
    if (pod.spec?.nodeName) touched.add(pod.spec.nodeName);
  const nodeInfos = [...before.nodeInfos];
  const status = statusRuleOf(kubeRules(next.snapshot));
  for (const name of touched) {
    const at = before.positions.get(name);
    const node = next.node(name);
    if (at === undefined || !node) continue;
    const info = new NodeInfo(node, false, undefined, at);
    for (const pod of next.podsOnNode(name)) if (!isTerminal(pod)) addExistingPod(info, pod, status);
    nodeInfos[at] = info;
  }
  const byName = (name: string | undefined) => (name === undefined ? undefined : before.positions.get(name));
  const termsOf = (pods: readonly V1Pod[], of = antiAffinityOf) =>
    pods.flatMap((pod) => {
      const at = byName(pod.spec?.nodeName);
      if (at === undefined || isTerminal(pod)) return [];
      return of(pod, nodeInfos[at]!, next.snapshot) ?? [];
    });
  const antiAffinity = before.antiAffinity.derive(termsOf(change.removedPods), termsOf(change.addedPods));
  const scoringTerms = before.scoringTerms.derive(
    termsOf(change.removedPods, scoringTermsOf),
    termsOf(change.addedPods, scoringTermsOf),
  );
  const namespaces = new Set(before.namespaces);
  for (const pod of change.addedPods) namespaces.add(pod.metadata?.namespace ?? 'default');
  // A namespace whose last pod went has none, as a cache built from scratch would say.
  for (const pod of change.removedPods) {
    const ns = pod.metadata?.namespace ?? 'default';
    if (next.podsInNamespace(ns).length === 0) namespaces.delete(ns);
  }
  caches.set(next, new SchedulerCache(nodeInfos, antiAffinity, scoringTerms, namespaces, before.positions));
}

/** An assigned pod of the snapshot counts on its node: requests (status-aware), ports, one pod slot. */
function addExistingPod(node: NodeInfo, pod: V1Pod, status: StatusRule): void {
  const requests = podRequests(pod, status);
  node.addPod({
    requests,
    nonZeroRequests: nonZeroRequests(pod, status, requests),
    hostPorts: hostPortsOf(pod),
  });
}

function antiAffinityOf(pod: V1Pod, node: NodeInfo, snapshot: Snapshot): PodTerms | undefined {
  if (!pod.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.length) return undefined;
  return { terms: requiredAntiAffinityTerms(pod, namespaceLabels(snapshot)), node, uid: pod.metadata?.uid ?? '' };
}

function scoringTermsOf(pod: V1Pod, node: NodeInfo, snapshot: Snapshot): PodTerms | undefined {
  if (!hasScoringTerms(pod)) return undefined;
  return { terms: scoringTerms(pod, namespaceLabels(snapshot), true), node, uid: pod.metadata?.uid ?? '' };
}

/** The node of a pod the scheduler's cache holds (bound, not Succeeded/Failed, on a known node). */
function assignedNode(pod: V1Pod, byName: ReadonlyMap<string, NodeInfo>): NodeInfo | undefined {
  const nodeName = pod.spec?.nodeName;
  if (!nodeName || isTerminal(pod)) return undefined;
  return byName.get(nodeName);
}
