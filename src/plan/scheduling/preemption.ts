import type { BudgetKey } from '../budgets.js';
import type { SimulatedCluster, NodePod } from './cluster-state.js';
import { type NodeRejected, preemptionFailure } from './failed-scheduling.js';
import type { CycleState, Rejection } from './framework.js';
import { NodeInfo } from './node-info.js';
import { type Candidate, numCandidates, pickCandidates, selectVictimsOnNode } from './plugins/default-preemption.js';
import { type PreemptionBudget, splitByBudgetViolation } from './pdb-violation.js';
import type { PodInfo } from './pod-info.js';
import { interPodAffinityPlugin } from './plugins/inter-pod-affinity.js';
import { podTopologySpreadPlugin } from './plugins/topology-spread.js';
import { preFilter, runFilters } from './registry.js';

/** The node and victims the dry run chose. */
export interface ChosenPreemption {
  readonly chosen: Candidate<NodePod>;
  /** Per victim, the budgets its deletion breaks. */
  readonly broken: ReadonlyMap<NodePod, readonly BudgetKey[]>;
  /** Nodes ranked exactly as the chosen one. */
  readonly tiedWith: readonly string[];
}

/** The dry run's answer: the node and victims it chose, or why it found none (the "preemption: …" text). */
export type DryRun = ChosenPreemption | { readonly chosen: null; readonly message: string };

/**
 * `Evaluator.Preempt` for a pod the filters placed nowhere: not for a pod with preemptionPolicy Never;
 * the potential nodes are those rejected as Unschedulable (not UnschedulableAndUnresolvable), dry-run in
 * the node list's order until enough candidates are found (every one on a cluster under 100 potential
 * nodes; upstream starts at a random one), then the best candidate by upstream's criteria.
 */
export function dryRunPreemption(
  pod: PodInfo,
  state: CycleState,
  rejected: readonly NodeRejected[],
  cluster: SimulatedCluster,
  budgets: readonly PreemptionBudget[],
  /** The drained nodes: never a candidate, whatever a filter said of them. */
  drained: ReadonlySet<string>,
): DryRun {
  const total = cluster.nodeInfos.length;
  if (pod.preemptionPolicy === 'Never') return { chosen: null, message: preemptionFailure(total, [], true) };
  const potential = rejected
    .filter((r) => r.rejection.code === 'Unschedulable' && !drained.has(r.node.name))
    .map((r) => r.node);
  const wanted = numCandidates(potential.length);
  const nonViolating: Array<Candidate<NodePod>> = [];
  const violating: Array<Candidate<NodePod>> = [];
  const tried: NodeRejected[] = [];
  for (const node of potential) {
    const fitsWithout = (removed: readonly NodePod[]) => fitsOnNodeWithout(pod, state, node, removed, cluster);
    const result = selectVictimsOnNode(pod.priority, cluster.podsOn(node), budgets, fitsWithout);
    if ('code' in result) {
      tried.push({ node, rejection: result });
      continue;
    }
    (result.pdbViolations === 0 ? nonViolating : violating).push({ node: node.name, ...result });
    if (nonViolating.length > 0 && nonViolating.length + violating.length >= wanted) break;
  }
  const candidates = [...nonViolating, ...violating];
  if (candidates.length === 0) return { chosen: null, message: preemptionFailure(total, tried) };
  const [chosen, ...tied] = pickCandidates(candidates);
  const { broken } = splitByBudgetViolation(chosen!.victims, budgets);
  return { chosen: chosen!, broken, tiedWith: tied.map((c) => c.node) };
}

/**
 * The filters on `node` with `removed` gone from it: the node's sums without them, and — when the pod's
 * PreFilter state counts other pods (spread, pod affinity, anti-affinity of existing pods) — that state
 * worked out again without them (upstream's PreFilterExtensions RemovePod/AddPod).
 */
function fitsOnNodeWithout(
  pod: PodInfo,
  state: CycleState,
  node: NodeInfo,
  removed: readonly NodePod[],
  cluster: SimulatedCluster,
): Rejection | null {
  const scratch = NodeInfo.viewOf(node, false);
  for (const p of removed) scratch.removePod(p);
  const affinity = state.read(interPodAffinityPlugin);
  const countsPods =
    state.read(podTopologySpreadPlugin).constraints.length > 0 ||
    affinity.affinityTerms.length > 0 ||
    affinity.antiAffinityTerms.length > 0 ||
    affinity.existingAntiAffinityKeys.length > 0;
  const without = countsPods
    ? cluster.withoutPods(new Set(removed.map((p) => p.uid)), () => preFilter(pod, cluster))
    : state;
  return runFilters(pod, scratch, without);
}
