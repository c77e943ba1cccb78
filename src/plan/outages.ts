import type { V1Pod } from '@kubernetes/client-node';
import type { ClusterIndex } from '../snapshot/cluster-index.js';
import { controllerRef, isTerminal, isTerminating, podKey } from './pod-facts.js';
import { clusterAfterBatch, isRemovedByDrain } from './pool-state.js';
import { SchedulingSimulation } from './scheduling/simulation.js';
import type { PodPlan, ReadVerdict, WorkloadOutage } from './types.js';
import type { VerdictWithReasons } from './verdict.js';
import { outageLine } from './outage-text.js';

/**
 * Workloads the drain leaves short of replicas: pods it removes (evicts or deletes, admitted) whose
 * replacement no node takes. The drain itself finishes — nothing waits for those replacements — so a
 * plan that only looked at the drain would call it clear or slow; the workload is down meanwhile.
 *
 * How long: the replacements are placed again on the cluster as it is once the drain is over and its
 * nodes are back in service (the pool plan's "after the batch" cluster: removed pods gone, every placed
 * replacement running). One that fits then is down until that node returns; one that fits nowhere even
 * then (a node whose labels or taints no longer admit the pod it runs, a request larger than any node)
 * is down for good. The question is asked of the scheduling simulation, whatever rule refused the
 * replacement (resources, affinity, volumes, devices): no rule is special-cased here.
 */
export function workloadOutages(
  index: ClusterIndex,
  plan: { readonly nodes: readonly string[]; readonly pods: readonly PodPlan[] },
): WorkloadOutage[] {
  const down = [...plan.pods.filter(isLeftWithoutNode).map(drainedDown), ...preemptedDown(index, plan.pods)];
  if (down.length === 0) return [];
  const originals = new Map(
    [...plan.nodes.flatMap((node) => index.podsOnNode(node)), ...down.flatMap((d) => d.victim ?? [])].map(
      (pod) => [pod.metadata?.uid ?? '', pod] as const,
    ),
  );
  const after = new SchedulingSimulation(clusterAfterBatch(index, plan, 0), new Set());
  const backOn = new Map(
    down.map((p) => {
      const original = originals.get(p.uid);
      return [p, original ? after.place(original).placedOn : null] as const;
    }),
  );
  const groups = Map.groupBy(down, (p) => `${p.workload}\u0000${backOn.get(p) === null ? 'for-good' : ''}`);
  return [...groups.values()].map((pods) => {
    const first = pods[0]!;
    const returnsOn = [...new Set(pods.flatMap((p) => backOn.get(p) ?? []))];
    const unknown = pods.find((p) => p.unknown !== undefined)?.unknown;
    return {
      kind: first.controller.kind,
      namespace: first.namespace,
      name: first.controller.name,
      replicas: replicaCount(index, pods, originals),
      pods: pods.map((p) => `${p.namespace}/${p.name}`),
      until: returnsOn.length === 0 ? 'for-good' : 'node-returns',
      returnsOn,
      message: first.message,
      ...(unknown ? { unknown } : {}),
    };
  });
}

/** A pod left without a node: drained, or preempted by a drained pod's replacement. */
interface DownPod {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly controller: { readonly kind: string; readonly name: string };
  readonly workload: string;
  readonly message: string;
  /** Why whether its replacement finds a node is unknown, when it is. */
  readonly unknown?: string;
  /** The preempted pod, which is not on a drained node. */
  readonly victim?: V1Pod;
}

function drainedDown(p: PodPlan): DownPod {
  const controller = p.controller!;
  const workload = `${p.namespace}/${controller.kind}/${controller.name}`;
  const { message, unknown } = p.replacement!;
  return { namespace: p.namespace, name: p.name, uid: p.uid, controller, workload, message, unknown };
}

/**
 * The pods the replacements preempt whose own replacement finds no node: the drain takes their room, so
 * their workload is down as surely as one whose drained pod has nowhere to go — unless the fate of the
 * replacement that preempts them is unknown: then so is theirs.
 */
function preemptedDown(index: ClusterIndex, pods: readonly PodPlan[]): DownPod[] {
  return pods.flatMap((p) =>
    (p.replacement?.preemption?.victims ?? []).flatMap((v): DownPod[] => {
      const unknown = v.replacement?.unknown ?? p.replacement!.unknown;
      if (v.controller === null || v.replacement === null || v.replacement.schedulable) return [];
      const victim = index
        .podsOnNode(v.node)
        .find((pod) => pod.metadata?.name === v.name && pod.metadata?.namespace === v.namespace);
      if (!victim) return [];
      const workload = `${v.namespace}/${v.controller.kind}/${v.controller.name}`;
      const uid = victim.metadata?.uid ?? '';
      const message = v.replacement.message;
      return [{ ...v, uid, controller: v.controller, workload, message, victim, ...(unknown ? { unknown } : {}) }];
    }),
  );
}

/** A pod the drain removes whose controller's replacement finds no node. */
function isLeftWithoutNode(p: PodPlan): boolean {
  return isRemovedByDrain(p) && p.controller !== null && p.replacement !== null && !p.replacement.schedulable;
}

/**
 * The workload's replicas as the snapshot shows them: the pods (not finished, not terminating) of the
 * controllers that own the drained pods — a Deployment's ReplicaSets, a StatefulSet, a Job.
 */
function replicaCount(index: ClusterIndex, pods: readonly DownPod[], originals: ReadonlyMap<string, V1Pod>): number {
  const owners = new Set(pods.flatMap((p) => controllerRef(originals.get(p.uid) ?? {})?.uid ?? []));
  const live = new Set<string>();
  for (const uid of owners) {
    for (const pod of index.podsControlledBy(pods[0]!.namespace, uid)) {
      if (!isTerminal(pod) && !isTerminating(pod)) live.add(podKey(pod));
    }
  }
  return Math.max(live.size, pods.length);
}

/**
 * disruptive: the drain finishes (clear or slow) but leaves a workload with replicas down. Its reasons
 * come first, one per workload. A blocked drain stays blocked (it does not finish; the outages are said
 * after what blocks it). Nothing to say: the verdict as read.
 */
export function withOutages(read: VerdictWithReasons, outages: readonly WorkloadOutage[]): VerdictWithReasons {
  if (outages.length === 0) return read;
  const lines = outages.map(outageLine);
  if (read.verdict === 'blocked') return { verdict: 'blocked', reasons: [...read.reasons, ...lines] };
  // A clear drain's first line says every pod can go at once: true, and beside the point now.
  const rest = read.verdict === 'clear' ? read.reasons.slice(1) : read.reasons;
  const verdict: ReadVerdict = 'disruptive';
  return { verdict, reasons: [...lines, ...rest] };
}
