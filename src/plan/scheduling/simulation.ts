import type { V1LabelSelector, V1Pod } from '@kubernetes/client-node';
import { matchesLabelSelector } from '../../snapshot/label-selector.js';
import type { ClusterIndex } from '../../snapshot/cluster-index.js';
import type { ReplacementPlan } from '../types.js';
import { failedSchedulingMessage, type NodeRejected } from './failed-scheduling.js';
import { type AssignedPod, type ClusterState, unresolvable } from './framework.js';
import { hostPortsOf } from './node-ports.js';
import { NodeInfo } from './node-info.js';
import { pickNode } from './placement-score.js';
import { podRequests } from './pod-requests.js';
import { hasDeletionTimestamp, isTerminalPod, type PodInfo, podInfo } from './pod-info.js';
import { type CycleState, preFilter, runFilters } from './registry.js';

export { UNMODELLED_SCHEDULER_RULES } from './unmodelled.js';

/**
 * Not the scheduler's wording: a drained node that passes every modelled filter (the pod tolerates the
 * cordon) is still refused, because the question is whether the replacement finds room elsewhere.
 */
export const DRAINED_NODE_REASON = 'node(s) are being drained';

interface Placed {
  readonly pod: PodInfo;
  readonly node: NodeInfo;
}

/**
 * Answers, pod by pod, whether a controller's replacement for an evicted pod would pass the scheduler's
 * filters on a node outside the drained set, with the drained nodes cordoned. Per-node state (requests,
 * pod count, ports, pods with required anti-affinity) is built once from the snapshot; each placement
 * then reads the label index for spread and affinity counts instead of scanning every pod, and commits
 * the replacement so later placements compete for the same room.
 */
export class SchedulingSimulation {
  private readonly index: ClusterIndex;
  private readonly drainedNodes: ReadonlySet<string>;
  private readonly nodeInfos: NodeInfo[];
  private readonly nodesByName = new Map<string, NodeInfo>();
  private readonly evicted = new Set<string>();
  private readonly replacements: Placed[] = [];
  private readonly antiAffinityPods: Placed[] = [];
  private readonly namespaceNames: ReadonlySet<string>;
  private readonly caveatTexts = new Set<string>();
  private readonly cluster: ClusterState;

  constructor(index: ClusterIndex, drainedNodes: ReadonlySet<string>) {
    this.index = index;
    this.drainedNodes = drainedNodes;
    this.nodeInfos = index.nodes.map((node) => new NodeInfo(node, drainedNodes.has(node.metadata?.name ?? '')));
    for (const node of this.nodeInfos) this.nodesByName.set(node.name, node);
    const namespaces = new Set<string>();
    for (const pod of index.snapshot.pods) {
      namespaces.add(pod.metadata?.namespace ?? 'default');
      this.addExistingPod(pod);
    }
    this.namespaceNames = namespaces;
    this.cluster = this.clusterState();
  }

  /** Approximations met so far (namespaceSelector…), for the plan's caveats. */
  get caveats(): readonly string[] {
    return [...this.caveatTexts];
  }

  /** The pod is being evicted: from now on it is terminating (not counted by topology spread; still holds its room on its node). */
  evict(pod: V1Pod): void {
    this.evicted.add(pod.metadata?.uid ?? '');
  }

  /** Tries to place a replacement copy of `pod` (no nodeName, fresh uid, same labels/spec) on nodes outside the drained set;
   *  on success the replacement is committed (counted on its node for resources, ports, affinity and spread) so later
   *  placements compete for the same room. */
  place(pod: V1Pod): ReplacementPlan {
    const replacement = podInfo(this.replacementOf(pod));
    const state = preFilter(replacement, this.cluster);
    const feasible: NodeInfo[] = [];
    const rejected: NodeRejected[] = [];
    for (const node of this.nodeInfos) {
      const rejection = this.filter(replacement, node, state);
      if (rejection) rejected.push({ node, rejection });
      else feasible.push(node);
    }
    const placedOn = pickNode(replacement, feasible, state, this.siblingsByNode(replacement));
    if (placedOn) this.commit(replacement, placedOn);
    return {
      schedulable: placedOn !== null,
      nodes: feasible.map((n) => n.name),
      placedOn: placedOn?.name ?? null,
      rejected: rejected.map((r) => ({ node: r.node.name, reasons: r.rejection.reasons })),
      message: placedOn
        ? `${feasible.length}/${this.nodeInfos.length} nodes are available; the replacement would be assigned to ${placedOn.name}.`
        : failedSchedulingMessage(replacement, this.nodeInfos.length, rejected),
    };
  }

  private filter(pod: PodInfo, node: NodeInfo, state: CycleState) {
    const rejection = runFilters(pod, node, state);
    if (rejection || !this.drainedNodes.has(node.name)) return rejection;
    return unresolvable(DRAINED_NODE_REASON);
  }

  /** The pod as its controller would recreate it: same spec and labels, not bound, not terminating, a new uid. */
  private replacementOf(pod: V1Pod): V1Pod {
    const { nodeName: _bound, ...spec } = pod.spec ?? { containers: [] };
    const uid = `${pod.metadata?.uid ?? pod.metadata?.name}-replacement-${this.replacements.length + 1}`;
    return {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: pod.metadata?.name,
        namespace: pod.metadata?.namespace ?? 'default',
        uid,
        labels: pod.metadata?.labels,
        ownerReferences: pod.metadata?.ownerReferences,
      },
      spec,
      status: { phase: 'Pending' },
    };
  }

  private commit(pod: PodInfo, node: NodeInfo): void {
    node.addPod(pod);
    this.replacements.push({ pod, node });
    if (pod.requiredAntiAffinityTerms.length > 0) this.antiAffinityPods.push({ pod, node });
  }

  /** An assigned pod of the snapshot counts on its node: requests (status-aware), ports, one pod slot. */
  private addExistingPod(pod: V1Pod): void {
    const node = this.assignedNode(pod);
    if (!node) return;
    node.addPod({ requests: podRequests(pod, true), hostPorts: hostPortsOf(pod), priority: pod.spec?.priority ?? 0 });
    if (pod.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.length) {
      this.antiAffinityPods.push({ pod: podInfo(pod, true), node });
    }
  }

  /** The node of a pod the scheduler's cache holds (bound, not Succeeded/Failed, on a known node). */
  private assignedNode(pod: V1Pod): NodeInfo | undefined {
    const nodeName = pod.spec?.nodeName;
    if (!nodeName || isTerminalPod(pod)) return undefined;
    return this.nodesByName.get(nodeName);
  }

  /** Pods of the namespace carrying all of the pod's labels, per node: the placement tie-breaker. */
  private siblingsByNode(pod: PodInfo): Map<NodeInfo, number> {
    const counts = new Map<NodeInfo, number>();
    if (Object.keys(pod.labels).length === 0) return counts;
    for (const sibling of this.cluster.podsMatching(pod.namespace, { matchLabels: { ...pod.labels } })) {
      if (!sibling.terminating) counts.set(sibling.node, (counts.get(sibling.node) ?? 0) + 1);
    }
    return counts;
  }

  private clusterState(): ClusterState {
    return {
      nodeInfos: this.nodeInfos,
      nodeInfo: (name) => this.nodesByName.get(name),
      podsMatching: (namespace, selector) => this.podsMatching(namespace, selector),
      namespaces: () => this.namespaceNames,
      podsWithRequiredAntiAffinity: () => this.antiAffinityPods,
      caveat: (text) => this.caveatTexts.add(text),
    };
  }

  private podsMatching(namespace: string, selector: V1LabelSelector): AssignedPod[] {
    const out: AssignedPod[] = [];
    for (const pod of this.index.podsMatching(namespace, selector)) {
      const node = this.assignedNode(pod);
      if (!node) continue;
      const terminating = hasDeletionTimestamp(pod) || this.evicted.has(pod.metadata?.uid ?? '');
      out.push({ namespace, labels: pod.metadata?.labels ?? {}, node, terminating });
    }
    for (const { pod, node } of this.replacements) {
      if (pod.namespace === namespace && matchesLabelSelector(pod.labels, selector)) {
        out.push({ namespace, labels: pod.labels, node, terminating: false });
      }
    }
    return out;
  }
}
