import type { V1Pod } from '@kubernetes/client-node';
import type { ClusterIndex } from '../../snapshot/cluster-index.js';
import type { ReplacementPlan } from '../types.js';
import { SimulatedCluster } from './cluster-state.js';
import { failedSchedulingMessage, type NodeRejected } from './failed-scheduling.js';
import { type Rejection, unresolvable } from './framework.js';
import type { NodeInfo } from './node-info.js';
import { pickNode } from './placement-score.js';
import { type PodInfo, podInfo } from './pod-info.js';
import { type CycleState, preFilter, runFilters } from './registry.js';

export { UNMODELLED_SCHEDULER_RULES } from './unmodelled.js';

/**
 * Not the scheduler's wording: a drained node that passes every modelled filter (the pod tolerates the
 * cordon) is still refused, because the question is whether the replacement finds room elsewhere.
 */
export const DRAINED_NODE_REASON = 'node(s) are being drained';

interface Attempt {
  readonly feasible: readonly NodeInfo[];
  readonly rejected: readonly NodeRejected[];
  readonly placedOn: NodeInfo | null;
}

/**
 * Answers, pod by pod, whether a controller's replacement for an evicted pod would pass the scheduler's
 * filters on a node outside the drained set, with the drained nodes cordoned. Per-node state (requests,
 * pod count, ports, pods with required anti-affinity) is built once from the snapshot; each placement
 * then reads the label index for spread and affinity counts instead of scanning every pod, and commits
 * the replacement so later placements compete for the same room.
 */
export class SchedulingSimulation {
  private readonly cluster: SimulatedCluster;
  private readonly drainedNodes: ReadonlySet<string>;

  constructor(index: ClusterIndex, drainedNodes: ReadonlySet<string>) {
    this.cluster = new SimulatedCluster(index, drainedNodes);
    this.drainedNodes = drainedNodes;
  }

  /** Approximations met so far (namespaceSelector…), for the plan's caveats. */
  get caveats(): readonly string[] {
    return this.cluster.caveats;
  }

  /** The pod is being evicted: from now on it is terminating (not counted by topology spread; still holds its room on its node). */
  evict(pod: V1Pod): void {
    this.cluster.evict(pod.metadata?.uid ?? '');
  }

  /** Tries to place a replacement copy of `pod` (no nodeName, fresh uid, same labels/spec) on nodes outside the drained set;
   *  on success the replacement is committed (counted on its node for resources, ports, affinity and spread) so later
   *  placements compete for the same room. */
  place(pod: V1Pod): ReplacementPlan {
    const replacement = podInfo(this.replacementOf(pod));
    const now = this.attempt(replacement);
    if (now.placedOn || !this.cluster.hasEvicted) return this.report(replacement, now);
    // The scheduler retries when the evicted pods are deleted: their required anti-affinity (and the
    // affinity they satisfied) no longer counts then. A replacement that fits only then waits, it is not stuck.
    const later = this.cluster.withEvictedGone(() => this.attempt(replacement));
    if (!later.placedOn) return this.report(replacement, later);
    const plan = this.report(replacement, later);
    const total = this.cluster.nodeInfos.length;
    return {
      ...plan,
      waitsForTermination: true,
      message: `${failedSchedulingMessage(replacement, total, now.rejected)} Once the evicted pods are gone: ${plan.message}`,
    };
  }

  /** Runs the filters on every node and picks a node among those that pass; commits nothing. */
  private attempt(pod: PodInfo): Attempt {
    const state = preFilter(pod, this.cluster);
    const feasible: NodeInfo[] = [];
    const rejected: NodeRejected[] = [];
    for (const node of this.cluster.nodeInfos) {
      const rejection = this.filter(pod, node, state);
      if (rejection) rejected.push({ node, rejection });
      else feasible.push(node);
    }
    return { feasible, rejected, placedOn: pickNode(pod, feasible, state, this.siblingsByNode(pod)) };
  }

  /** Commits a successful attempt and describes it. */
  private report(pod: PodInfo, { feasible, rejected, placedOn }: Attempt): ReplacementPlan {
    if (placedOn) this.cluster.commit(pod, placedOn);
    const total = this.cluster.nodeInfos.length;
    return {
      schedulable: placedOn !== null,
      nodes: feasible.map((n) => n.name),
      placedOn: placedOn?.name ?? null,
      rejected: rejected.map((r) => ({ node: r.node.name, reasons: r.rejection.reasons })),
      message: placedOn
        ? `${feasible.length}/${total} nodes are available; the replacement would be assigned to ${placedOn.name}.`
        : failedSchedulingMessage(pod, total, rejected),
    };
  }

  private filter(pod: PodInfo, node: NodeInfo, state: CycleState): Rejection | null {
    const rejection = runFilters(pod, node, state);
    if (rejection || !this.drainedNodes.has(node.name)) return rejection;
    return unresolvable(DRAINED_NODE_REASON);
  }

  /** The pod as its controller would recreate it: same spec and labels, not bound, not terminating, a new uid. */
  private replacementOf(pod: V1Pod): V1Pod {
    const { nodeName: _bound, ...spec } = pod.spec ?? { containers: [] };
    const uid = `${pod.metadata?.uid ?? pod.metadata?.name}-replacement-${this.cluster.placedCount + 1}`;
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

  /** Pods of the namespace carrying all of the pod's labels, per node: the placement tie-breaker. */
  private siblingsByNode(pod: PodInfo): Map<NodeInfo, number> {
    const counts = new Map<NodeInfo, number>();
    if (Object.keys(pod.labels).length === 0) return counts;
    for (const sibling of this.cluster.podsMatching(pod.namespace, { matchLabels: { ...pod.labels } })) {
      if (!sibling.terminating) counts.set(sibling.node, (counts.get(sibling.node) ?? 0) + 1);
    }
    return counts;
  }
}
