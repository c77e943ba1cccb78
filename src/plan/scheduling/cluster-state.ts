import type { V1LabelSelector, V1Pod } from '@kubernetes/client-node';
import type { ClusterIndex } from '../../snapshot/cluster-index.js';
import { matchesLabelSelector } from '../../snapshot/label-selector.js';
import { AntiAffinityIndex, type ExistingTerm } from './anti-affinity-index.js';
import type { AssignedPod, ClusterState } from './framework.js';
import { NodeInfo } from './node-info.js';
import { isTerminal, isTerminating } from '../pod-facts.js';
import type { PodInfo } from './pod-info.js';
import { type SchedulerCache, schedulerCache } from './scheduler-cache.js';

export interface Placed {
  readonly pod: PodInfo;
  readonly node: NodeInfo;
}

/**
 * The scheduler's view of the cluster during a drain (its cache and snapshot): a view of each NodeInfo of
 * the cluster's SchedulerCache (built once per cluster state), with the drained nodes cordoned; pods
 * marked terminating as they are evicted; replacements committed as they are placed, into this
 * simulation's views only. Pod queries go through the snapshot's label index.
 */
export class SimulatedCluster implements ClusterState {
  /** The state's NodeInfos, shared until this simulation commits a replacement there (then a view); the drained nodes' cordoned views. */
  private readonly nodes: NodeInfo[];
  readonly drainedNodeInfos: readonly NodeInfo[];
  private readonly index: ClusterIndex;
  private readonly cache: SchedulerCache;
  private readonly evicted = new Set<string>();
  private readonly replacements: Placed[] = [];
  /** The committed replacements' terms; the cache holds the existing pods'. */
  private readonly antiAffinity = new AntiAffinityIndex();
  private readonly caveatTexts = new Set<string>();
  private readonly memos = new Map<string, unknown>();
  /** While true, evicted pods are treated as gone rather than terminating (see withEvictedGone). */
  private evictedGone = false;

  constructor(index: ClusterIndex, drainedNodes: ReadonlySet<string>) {
    this.index = index;
    this.cache = schedulerCache(index);
    // Views are made only where this simulation differs from the state: thousands of nodes, a few touched.
    this.nodes = [...this.cache.nodeInfos];
    const drained: NodeInfo[] = [];
    for (const name of drainedNodes) {
      const at = this.cache.positions.get(name);
      if (at === undefined) continue;
      drained.push((this.nodes[at] = NodeInfo.viewOf(this.cache.nodeInfos[at]!, true)));
    }
    this.drainedNodeInfos = drained;
  }

  get nodeInfos(): readonly NodeInfo[] {
    return this.nodes;
  }

  /** The state's own NodeInfo at a position of `nodeInfos`: the same object there until this simulation changes the node. */
  stateNodeInfo(at: number): NodeInfo | undefined {
    return this.cache.nodeInfos[at];
  }

  get caveats(): readonly string[] {
    return [...this.caveatTexts];
  }

  get placedCount(): number {
    return this.replacements.length;
  }

  nodeInfo(name: string): NodeInfo | undefined {
    const at = this.cache.positions.get(name);
    return at === undefined ? undefined : this.nodeInfos[at];
  }

  namespaces(): Iterable<string> {
    return this.cache.namespaces;
  }

  antiAffinityTermsFor(namespace: string, labels: Readonly<Record<string, string>>): readonly ExistingTerm[] {
    const candidates = [
      ...this.cache.antiAffinity.candidates(namespace, labels),
      ...this.antiAffinity.candidates(namespace, labels),
    ];
    return this.evictedGone ? candidates.filter((c) => !this.evicted.has(c.uid)) : candidates;
  }

  caveat(text: string): void {
    this.caveatTexts.add(text);
  }

  memo<T>(key: string, compute: () => T): T {
    if (!this.memos.has(key)) this.memos.set(key, compute());
    return this.memos.get(key) as T;
  }

  stateMemo<T>(key: string, compute: (nodes: readonly NodeInfo[]) => T): T {
    return this.cache.memo(key, () => compute(this.cache.nodeInfos));
  }

  /** The pod is terminating from now on. */
  evict(uid: string): void {
    this.evicted.add(uid);
  }

  get hasEvicted(): boolean {
    return this.evicted.size > 0;
  }

  /**
   * Runs `fn` in the cluster as it is once the evicted pods have terminated: they no longer count for
   * pod (anti-)affinity or spread. Their requests and ports stay on their (drained) nodes, which no
   * replacement may use anyway.
   */
  withEvictedGone<T>(fn: () => T): T {
    this.evictedGone = true;
    try {
      return fn();
    } finally {
      this.evictedGone = false;
    }
  }

  /** A placed replacement holds its room from now on: requests, ports, pod slot, affinity and spread counts. */
  commit(pod: PodInfo, placed: NodeInfo): void {
    const at = this.cache.positions.get(placed.name)!;
    let node = this.nodes[at]!;
    if (node === this.cache.nodeInfos[at]) this.nodes[at] = node = NodeInfo.viewOf(node, false);
    node.addPod(pod);
    this.replacements.push({ pod, node });
    this.antiAffinity.add(pod.requiredAntiAffinityTerms, node, pod.uid);
  }

  podsMatching(namespace: string, selector: V1LabelSelector): AssignedPod[] {
    const out: AssignedPod[] = [];
    const key = `pods-matching\u0000${namespace}\u0000${JSON.stringify(selector)}`;
    const matching = this.cache.memo(key, () => this.index.podsMatching(namespace, selector));
    for (const pod of matching) {
      const node = this.assignedNode(pod);
      if (!node) continue;
      const evicted = this.evicted.has(pod.metadata?.uid ?? '');
      if (evicted && this.evictedGone) continue;
      const terminating = evicted || isTerminating(pod);
      out.push({ namespace, labels: pod.metadata?.labels ?? {}, node, terminating });
    }
    for (const { pod, node } of this.replacements) {
      if (pod.namespace === namespace && matchesLabelSelector(pod.labels, selector)) {
        out.push({ namespace, labels: pod.labels, node, terminating: false });
      }
    }
    return out;
  }

  /** The node of a pod the scheduler's cache holds (bound, not Succeeded/Failed, on a known node). */
  private assignedNode(pod: V1Pod): NodeInfo | undefined {
    const nodeName = pod.spec?.nodeName;
    if (!nodeName || isTerminal(pod)) return undefined;
    return this.nodeInfo(nodeName);
  }
}
