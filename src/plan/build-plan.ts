import type { V1Pod, V1PodDisruptionBudget } from '@kubernetes/client-node';
import type { ClusterIndex } from '../snapshot/cluster-index.js';
import { parseLabelSelector, matchesLabelSelector } from '../snapshot/label-selector.js';
import {
  placeBlockedReplacements,
  scheduleEvictions,
  type EvictionCandidate,
  type ScheduledEviction,
} from './budget-waves.js';
import { budgetFacts, budgetsBrokenByDeletes, type BudgetFacts } from './budgets.js';
import { planCaveats } from './caveats.js';
import { completeVerdict, unreadKinds, unreadLines } from './completeness.js';
import { controllerOf, type ControllerInfo } from './controller.js';
import { groupBy } from './group-by.js';
import { filterPod, type FilterVerdict } from './drain-filters/chain.js';
import { refusalLines } from './drain-filters/pod-delete-list.js';
import { nodeFailureDeletion } from './node-failure.js';
import { podKey } from './pod-facts.js';
import { SchedulingSimulation } from './scheduling/simulation.js';
import { budgetsBrokenByTaint, maintenanceTaint, taintDeletion, taintText } from './taint-eviction.js';
import type { BudgetPlan, DrainPlan, PlanOptions, PodPlan } from './types.js';
import { decideVerdict } from './verdict.js';
import { planWarnings } from './warnings.js';

/** One pod on a drained node with everything the plan learns about it before the waves. */
interface PodFacts {
  readonly pod: V1Pod;
  readonly key: string;
  readonly node: string;
  readonly filter: FilterVerdict;
  readonly controller: ControllerInfo | null;
  readonly budgets: readonly BudgetFacts[];
}

/**
 * The whole preview of draining `options.nodes`: kubectl's filters per pod, who recreates each pod, the
 * budgets and the waves in which the API admits the evictions (placing replacements with the scheduling
 * simulation as they go), what a NoExecute taint or a node failure would do instead, the verdict, and
 * the caveats. Pure: the snapshot and the options in, the plan out.
 *
 * Throws an Error `node "x" not found` for a node the snapshot does not have, and the selector parser's
 * one-line Error for a bad --pod-selector.
 */
export function buildPlan(index: ClusterIndex, options: PlanOptions): DrainPlan {
  const nodes = [...new Set(options.nodes)];
  for (const name of nodes) if (!index.node(name)) throw new Error(`node "${name}" not found`);

  const budgetCache = new Map<V1PodDisruptionBudget, BudgetFacts>();
  const factsOf = (pdb: V1PodDisruptionBudget) => budgetCache.get(pdb) ?? cache(budgetCache, pdb, budgetFacts(pdb));
  const ctx = { options, index };
  const pods: PodFacts[] = podsToDrain(index, nodes, options.podSelector).map((pod) => ({
    pod,
    key: podKey(pod),
    node: pod.spec?.nodeName ?? '',
    filter: filterPod(pod, ctx, options.disableEviction),
    controller: controllerOf(pod, index),
    budgets: index.pdbsForPod(pod).map(factsOf).sort(byKey),
  }));

  const refusals = refusalsByNode(pods);
  const removed: EvictionCandidate[] = pods
    .filter(isRemoved)
    .map((p) => ({ pod: p.pod, key: p.key, budgets: p.budgets, recreates: p.controller?.recreates ?? false }));
  const candidates = removed.filter((c) => !refusals.has(c.pod.spec?.nodeName ?? ''));
  const simulation = new SchedulingSimulation(index, new Set(nodes));
  const schedule = scheduleEvictions(candidates, simulation, {
    deleteInsteadOfEvict: options.disableEviction,
    budgetsKnown: index.snapshot.kinds.has('PodDisruptionBudget'),
  });

  const blocked = removed.filter((c) => (schedule.pods.get(c.key)?.outcome ?? 'blocked') === 'blocked');
  const unblocked = placeBlockedReplacements(blocked, simulation);

  const taint = maintenanceTaint(options.taint.key, options.taint.value);
  const podPlans = pods.map((p) => {
    const scheduled = isRemoved(p) ? (schedule.pods.get(p.key) ?? heldByNode(p.node, refusals)) : undefined;
    const replacement = scheduled?.replacement ?? unblocked.get(p.key) ?? null;
    return podPlan(p, scheduled && { ...scheduled, replacement }, options, taint);
  });
  const budgets = budgetPlans(pods, budgetCache, schedule.budgets);
  const brokenByDeletes = options.disableEviction ? budgetsBrokenByDeletes(candidates) : [];
  const read = decideVerdict(podPlans, budgets, brokenByDeletes);
  const unread = unreadKinds(
    index.snapshot,
    pods.map((p) => ({ pod: p.pod, removed: isRemoved(p) })),
  );
  const tainted = pods.map((p, i) => ({ ...p, deletion: podPlans[i]!.noExecute }));
  const caveats = planCaveats({
    snapshot: index.snapshot,
    pods: pods.map((p, i) => ({ pod: p.pod, plan: podPlans[i]!, controllerCaveat: p.controller?.caveat ?? null })),
    budgets,
    simulationCaveats: simulation.caveats,
  });

  return {
    kind: 'DrainPlan',
    apiVersion: 'maint.kubectl.io/v1alpha1',
    nodes,
    verdict: completeVerdict(read.verdict, unread),
    assumedVerdict: read.verdict,
    verdictReasons: [...unreadLines(unread), ...read.reasons],
    warnings: planWarnings(
      pods.filter(isRemoved).map((p) => ({ pod: p.pod, recreated: p.controller?.recreates ?? false })),
    ),
    unread,
    pods: podPlans,
    budgets,
    noExecute: { taint: taintText(taint), budgetsBroken: budgetsBrokenByTaint(tainted) },
    nodeFailure: { nodeMonitorGracePeriodSeconds: options.nodeMonitorGracePeriodSeconds },
    caveats: caveats.map((c) => c.caveat),
    caveatScopes: caveats,
  };
}

/** The pods kubectl drain lists: bound to a drained node and matching --pod-selector, in plan order. */
function podsToDrain(index: ClusterIndex, nodes: readonly string[], podSelector: string | undefined): V1Pod[] {
  const selector = podSelector ? parseLabelSelector(podSelector) : undefined;
  const pods = nodes.flatMap((node) => index.podsOnNode(node));
  const selected = selector ? pods.filter((pod) => matchesLabelSelector(pod.metadata?.labels, selector)) : pods;
  return selected.sort(byNodeNamespaceName);
}

function byNodeNamespaceName(a: V1Pod, b: V1Pod): number {
  const key = (p: V1Pod) => [p.spec?.nodeName ?? '', p.metadata?.namespace ?? '', p.metadata?.name ?? ''];
  const [ka, kb] = [key(a), key(b)];
  for (let i = 0; i < ka.length; i++) {
    if (ka[i]! !== kb[i]!) return ka[i]! < kb[i]! ? -1 : 1;
  }
  return 0;
}

const isRemoved = (p: PodFacts) => p.filter.action === 'evict' || p.filter.action === 'delete';

/** Per node, kubectl's "cannot delete …" lines: a node with any refusal is not drained at all. */
function refusalsByNode(pods: readonly PodFacts[]): Map<string, string[]> {
  const refused = groupBy(
    pods.filter((p) => p.filter.action === 'refuse'),
    (p) => p.node,
  );
  return new Map(
    [...refused].map(([node, list]) => [
      node,
      refusalLines(list.map((p) => ({ namespace: namespaceOf(p.pod), name: nameOf(p.pod), reason: p.filter.reason }))),
    ]),
  );
}

function heldByNode(node: string, refusals: ReadonlyMap<string, string[]>): ScheduledEviction {
  const why = (refusals.get(node) ?? []).join('; ');
  return {
    outcome: 'blocked',
    wave: null,
    reason: `node "${node}" is not drained: kubectl evicts nothing on a node where a pod is refused (${why})`,
    replacement: null,
  };
}

function podPlan(
  p: PodFacts,
  scheduled: ScheduledEviction | undefined,
  options: PlanOptions,
  taint: ReturnType<typeof maintenanceTaint>,
): PodPlan {
  return {
    namespace: namespaceOf(p.pod),
    name: nameOf(p.pod),
    uid: p.pod.metadata?.uid ?? '',
    node: p.node,
    action: p.filter.action,
    reason: p.filter.reason,
    filter: p.filter.filter,
    outcome: scheduled?.outcome ?? null,
    outcomeReason: scheduled?.reason ?? '',
    wave: scheduled?.wave ?? null,
    controller: p.controller ? { kind: p.controller.kind, name: p.controller.name } : null,
    pdbs: p.budgets.map((b) => ({ namespace: b.namespace, name: b.name, disruptionsAllowed: b.disruptionsAllowed })),
    replacement: scheduled?.replacement ?? null,
    noExecute: taintDeletion(p.pod, taint),
    nodeFailure: nodeFailureDeletion(p.pod, options.nodeMonitorGracePeriodSeconds),
  };
}

/** Every budget selecting a pod on the drained nodes, with the pods it would see go and its waves. */
function budgetPlans(
  pods: readonly PodFacts[],
  facts: ReadonlyMap<V1PodDisruptionBudget, BudgetFacts>,
  waves: ReturnType<typeof scheduleEvictions>['budgets'],
): BudgetPlan[] {
  const removed = pods.filter(isRemoved).flatMap((p) => p.budgets.map((b) => ({ budget: b.key, pod: p.key })));
  const drained = groupBy(removed, (r) => r.budget);
  return [...facts.values()].sort(byKey).map((b) => ({
    namespace: b.namespace,
    name: b.name,
    disruptionsAllowed: b.disruptionsAllowed,
    currentHealthy: b.currentHealthy,
    desiredHealthy: b.desiredHealthy,
    expectedPods: b.expectedPods,
    stale: b.stale,
    unhealthyPodEvictionPolicy: b.unhealthyPodEvictionPolicy,
    neverAllows: b.neverAllows ?? (b.syncFailed !== null ? `SyncFailed: ${b.syncFailed}` : null),
    drainedPods: (drained.get(b.key) ?? []).map((r) => r.pod),
    perWave: waves.get(b.key)?.perWave ?? 0,
    waves: waves.get(b.key)?.waves ?? 0,
  }));
}

const byKey = (a: BudgetFacts, b: BudgetFacts) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
const namespaceOf = (pod: V1Pod) => pod.metadata?.namespace ?? 'default';
const nameOf = (pod: V1Pod) => pod.metadata?.name ?? '';

function cache<K, V>(map: Map<K, V>, key: K, value: V): V {
  map.set(key, value);
  return value;
}
