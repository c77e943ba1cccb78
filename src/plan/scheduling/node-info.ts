import type { V1Node, V1Taint } from '@kubernetes/client-node';
import { UsedPorts } from './host-ports.js';
import { addInto, type Resources, toResources } from './pod-requests.js';
import type { PodInfo } from './pod-info.js';
import { UNSCHEDULABLE_TAINT } from '../tolerations.js';

/**
 * The resources every placement reads on every node it checks (NodeResourcesFit's filter and its scores),
 * kept by position in typed arrays beside the by-name sums: a lookup by a varying name in an object is
 * the slow path of the JavaScript engine, and a placement makes millions of them on a large cluster.
 */
export const HOT_RESOURCES = ['cpu', 'memory', 'ephemeral-storage'] as const;
export const CPU = 0;
export const MEMORY = 1;

/** Where a resource is kept in the hot arrays, or -1 (by name only). */
export const hotResourceIndex = (name: string): number => (HOT_RESOURCES as readonly string[]).indexOf(name);

const hotOf = (resources: Resources): Float64Array => Float64Array.from(HOT_RESOURCES, (name) => resources[name] ?? 0);

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
  /** Where the node is in its cluster state's node list (SchedulerCache.nodeInfos), -1 outside one. */
  readonly position: number;
  readonly labels: Readonly<Record<string, string>>;
  readonly taints: readonly V1Taint[];
  readonly unschedulable: boolean;
  readonly allocatable: Resources;
  /** allocatable pods. */
  readonly allocatablePods: number;
  /** allocatable of HOT_RESOURCES, by position. */
  readonly hotAllocatable: Float64Array;
  private requestedSums: Record<string, number>;
  private nonZeroSums: Record<string, number>;
  /** `requested` of HOT_RESOURCES, by position. */
  private hotRequestedSums: Float64Array;
  /** `nonZeroRequested` of cpu and memory, by position. */
  private hotNonZeroSums: Float64Array;
  private ports: UsedPorts;
  podCount: number;
  /** The sums and ports are shared with another NodeInfo (a view's base, or a view of this one): copied before the next change. */
  private shared: boolean;

  /**
   * `cordon`: the node is being drained, so it is seen as the cordon leaves it (see `cordoned`).
   * `counts`: start from that NodeInfo's pods (sharing its sums and its position) instead of an empty node.
   */
  constructor(node: V1Node, cordon = false, counts?: NodeInfo, position = -1) {
    this.node = cordon ? cordoned(node) : node;
    this.name = node.metadata?.name ?? '';
    this.position = counts?.position ?? position;
    this.labels = node.metadata?.labels ?? {};
    this.taints = this.node.spec?.taints ?? [];
    this.unschedulable = this.node.spec?.unschedulable === true;
    this.allocatable = counts?.allocatable ?? toResources(node.status?.allocatable);
    this.allocatablePods = this.allocatable['pods'] ?? 0;
    this.hotAllocatable = counts?.hotAllocatable ?? hotOf(this.allocatable);
    this.requestedSums = counts?.requestedSums ?? {};
    this.nonZeroSums = counts?.nonZeroSums ?? {};
    this.hotRequestedSums = counts?.hotRequestedSums ?? new Float64Array(HOT_RESOURCES.length);
    this.hotNonZeroSums = counts?.hotNonZeroSums ?? new Float64Array(2);
    this.ports = counts?.ports ?? new UsedPorts();
    this.podCount = counts?.podCount ?? 0;
    this.shared = counts !== undefined;
  }

  /**
   * A view of `base` for one simulation (cordoned when drained): the same pods, its own future additions.
   * `base` shares its sums from now on too, so that what it adds later (a simulation's view forked for
   * another order) copies them first and stays out of the view.
   */
  static viewOf(base: NodeInfo, cordon: boolean): NodeInfo {
    base.shared = true;
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

  /** `requested` of HOT_RESOURCES, by position. */
  get hotRequested(): Readonly<Float64Array> {
    return this.hotRequestedSums;
  }

  /** `nonZeroRequested` of cpu and memory, by position (CPU, MEMORY). */
  get hotNonZeroRequested(): Readonly<Float64Array> {
    return this.hotNonZeroSums;
  }

  get usedPorts(): UsedPorts {
    return this.ports;
  }

  /** Counts a pod on this node: its requests, its host ports, one more pod. */
  addPod(pod: NodePodCounts): void {
    this.own();
    addInto(this.requestedSums, pod.requests);
    addInto(this.nonZeroSums, pod.nonZeroRequests);
    this.syncHot();
    for (const port of pod.hostPorts) this.ports.add(port);
    this.podCount++;
  }

  /** A pod leaves the node (a preemption victim): its requests, its host ports and its slot are free again. */
  removePod(pod: NodePodCounts): void {
    this.own();
    for (const name in pod.requests) this.requestedSums[name] = (this.requestedSums[name] ?? 0) - pod.requests[name]!;
    for (const name in pod.nonZeroRequests)
      this.nonZeroSums[name] = (this.nonZeroSums[name] ?? 0) - pod.nonZeroRequests[name]!;
    this.syncHot();
    for (const port of pod.hostPorts) this.ports.remove(port);
    this.podCount--;
  }

  /** Copies the sums and ports this view shares before it changes them. */
  private own(): void {
    if (!this.shared) return;
    this.requestedSums = { ...this.requestedSums };
    this.nonZeroSums = { ...this.nonZeroSums };
    this.ports = this.ports.copy();
    this.hotRequestedSums = this.hotRequestedSums.slice();
    this.hotNonZeroSums = this.hotNonZeroSums.slice();
    this.shared = false;
  }

  /** The hot arrays from the sums by name, after a change (the sums are the record; the arrays follow them). */
  private syncHot(): void {
    for (let i = 0; i < HOT_RESOURCES.length; i++)
      this.hotRequestedSums[i] = this.requestedSums[HOT_RESOURCES[i]!] ?? 0;
    this.hotNonZeroSums[CPU] = this.nonZeroSums['cpu'] ?? 0;
    this.hotNonZeroSums[MEMORY] = this.nonZeroSums['memory'] ?? 0;
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
