import type { V1Node, V1Taint } from '@kubernetes/client-node';
import { UsedPorts } from './plugins/node-ports.js';
import { addInto, type Resources, toResources } from './pod-requests.js';
import type { PodInfo } from './pod-info.js';
import { UNSCHEDULABLE_TAINT } from '../tolerations.js';

/** What a pod adds to its node's counts. */
export type NodePodCounts = Pick<PodInfo, 'requests' | 'nonZeroRequests' | 'hostPorts'>;

/**
 * What the filters need to know about one node (the scheduler's `NodeInfo`): its labels, taints and
 * allocatable, and the sum of what the pods on it hold. Built once per cluster state from the snapshot
 * (scheduler-cache.ts); each simulation takes a view of it (`viewOf`) that shares those sums until
 * `addPod` commits a placed replacement there, so that later placements compete for the same room
 * without one simulation's replacements leaking into another's.
 */
export class NodeInfo {
  readonly node: V1Node;
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly taints: readonly V1Taint[];
  readonly unschedulable: boolean;
  readonly allocatable: Resources;
  private requestedSums: Record<string, number>;
  private nonZeroSums: Record<string, number>;
  private ports: UsedPorts;
  podCount: number;
  /** The sums and ports belong to another NodeInfo: copied before the first addPod. */
  private shared: boolean;

  /**
   * `cordon`: the node is being drained, so it is seen as the cordon leaves it (see `cordoned`).
   * `counts`: start from that NodeInfo's pods (sharing its sums) instead of an empty node.
   */
  constructor(node: V1Node, cordon = false, counts?: NodeInfo) {
    this.node = cordon ? cordoned(node) : node;
    this.name = node.metadata?.name ?? '';
    this.labels = node.metadata?.labels ?? {};
    this.taints = this.node.spec?.taints ?? [];
    this.unschedulable = this.node.spec?.unschedulable === true;
    this.allocatable = counts?.allocatable ?? toResources(node.status?.allocatable);
    this.requestedSums = counts?.requestedSums ?? {};
    this.nonZeroSums = counts?.nonZeroSums ?? {};
    this.ports = counts?.ports ?? new UsedPorts();
    this.podCount = counts?.podCount ?? 0;
    this.shared = counts !== undefined;
  }

  /** A view of `base` for one simulation (cordoned when drained): the same pods, its own future additions. */
  static viewOf(base: NodeInfo, cordon: boolean): NodeInfo {
    return new NodeInfo(base.node, cordon, base);
  }

  /** The pods' summed requests, by resource. */
  get requested(): Readonly<Record<string, number>> {
    return this.requestedSums;
  }

  /** cpu and memory of the pods as the LeastAllocated score counts them (`NonZeroRequested`). */
  get nonZeroRequested(): Readonly<Record<string, number>> {
    return this.nonZeroSums;
  }

  get usedPorts(): UsedPorts {
    return this.ports;
  }

  /** Counts a pod on this node: its requests, its host ports, one more pod. */
  addPod(pod: NodePodCounts): void {
    this.own();
    addInto(this.requestedSums, pod.requests);
    addInto(this.nonZeroSums, pod.nonZeroRequests);
    for (const port of pod.hostPorts) this.ports.add(port);
    this.podCount++;
  }

  /** A pod leaves the node (a preemption victim): its requests, its host ports and its slot are free again. */
  removePod(pod: NodePodCounts): void {
    this.own();
    for (const name in pod.requests) this.requestedSums[name] = (this.requestedSums[name] ?? 0) - pod.requests[name]!;
    for (const name in pod.nonZeroRequests)
      this.nonZeroSums[name] = (this.nonZeroSums[name] ?? 0) - pod.nonZeroRequests[name]!;
    for (const port of pod.hostPorts) this.ports.remove(port);
    this.podCount--;
  }

  /** Copies the sums and ports this view shares before it changes them. */
  private own(): void {
    if (!this.shared) return;
    this.requestedSums = { ...this.requestedSums };
    this.nonZeroSums = { ...this.nonZeroSums };
    this.ports = this.ports.copy();
    this.shared = false;
  }
}

/**
 * A drained node after `kubectl cordon`: spec.unschedulable, plus the NoSchedule taint the node lifecycle
 * controller adds for it. The taint matters: nodeTaintsPolicy Honor drops the node from spread domains.
 */
function cordoned(node: V1Node): V1Node {
  const taints = node.spec?.taints ?? [];
  const tainted = taints.some((t) => t.key === UNSCHEDULABLE_TAINT.key && t.effect === UNSCHEDULABLE_TAINT.effect);
  return {
    ...node,
    spec: { ...node.spec, unschedulable: true, taints: tainted ? taints : [...taints, UNSCHEDULABLE_TAINT] },
  };
}
