import type { V1Node, V1Taint } from '@kubernetes/client-node';
import { UsedPorts } from './plugins/node-ports.js';
import { addInto, type Resources, toResources } from './pod-requests.js';
import type { PodInfo } from './pod-info.js';
import { UNSCHEDULABLE_TAINT } from '../tolerations.js';

/**
 * What the filters need to know about one node (the scheduler's `NodeInfo`): its labels, taints and
 * allocatable, and the sum of what the pods on it hold. Built once per simulation from the snapshot;
 * `addPod` commits a placed replacement so that later placements compete for the same room.
 */
export class NodeInfo {
  readonly node: V1Node;
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly taints: readonly V1Taint[];
  readonly unschedulable: boolean;
  readonly allocatable: Resources;
  readonly requested: Record<string, number> = {};
  readonly usedPorts = new UsedPorts();
  podCount = 0;
  /** Lowest priority among the pods on the node (Infinity when empty): whether preemption has victims here. */
  lowestPriority = Infinity;

  /** `cordon`: the node is being drained, so it is seen as the cordon leaves it (see `cordoned`). */
  constructor(node: V1Node, cordon = false) {
    this.node = cordon ? cordoned(node) : node;
    this.name = node.metadata?.name ?? '';
    this.labels = node.metadata?.labels ?? {};
    this.taints = this.node.spec?.taints ?? [];
    this.unschedulable = this.node.spec?.unschedulable === true;
    this.allocatable = toResources(node.status?.allocatable);
  }

  /** Counts a pod on this node: its requests, its host ports, one more pod. */
  addPod(pod: Pick<PodInfo, 'requests' | 'hostPorts' | 'priority'>): void {
    addInto(this.requested, pod.requests);
    for (const port of pod.hostPorts) this.usedPorts.add(port);
    this.podCount++;
    this.lowestPriority = Math.min(this.lowestPriority, pod.priority);
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
