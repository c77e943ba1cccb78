import type { V1Deployment, V1Pod, V1PodDisruptionBudget } from '@kubernetes/client-node';
import type { ClusterIndex } from '../snapshot/cluster-index.js';
import { parseLabelSelector, matchesLabelSelector } from '../snapshot/label-selector.js';
import {
  placeBlockedReplacements,
  type EvictionCandidate,
  type ReplacementPlacer,
  type EvictionSchedule,
  type ScheduledEviction,
} from './budget-waves.js';
import { budgetFacts, budgetKey, budgetsBrokenByDeletes, type BudgetFacts, type BudgetKey } from './budgets.js';
import { planCaveats } from './caveats.js';
import { kubeRules } from './kube-version.js';
import { completeVerdict, unreadKinds, unreadLines } from './completeness.js';
import { controllerOf, type ControllerInfo } from './controller.js';
import { disruptionOptOutOf } from './disruption-opt-out.js';
import { escalations } from './escalation.js';
import { autoscalerOfDeployment, planSurge, surgeSelects, type PodSurgePlan, type SurgeOptions } from './surge.js';
import { evictionOrder, groupOfPod, scheduleInGroups } from './eviction-order.js';
import { withUncounted } from './uncounted-eta.js';
import {
  estimateDrain,
  graceSecondsOf,
  startToReady,
  type DrainEta,
  type EtaPod,
  type LatePod,
  type StartToReady,
} from './eta.js';
import { filterPod, type FilterVerdict } from './drain-filters/chain.js';
import { refusalLines } from './drain-filters/pod-delete-list.js';
import { nodeFailureDeletion } from './node-failure.js';
import { controllerRef, podKey } from './pod-facts.js';
import { type RejectedNodes, SchedulingSimulation } from './scheduling/simulation.js';
import { isLateReplacement } from './scheduling/scheduling-queue.js';
import { budgetsBrokenByTaint, maintenanceTaint, taintDeletion, taintText } from './taint-eviction.js';
import type { BudgetPlan, DrainPlan, PlanOptions, PodPlan } from './types.js';
import { planWarnings } from './warnings.js';
import { verdictWithStrategies } from './strategy-verdict.js';
import { withOutages, workloadOutages } from './outages.js';
import {
  deniedEviction,
  podAdmissions,
  undecidedWebhook,
  unreadAdmission,
  waitingWebhook,
} from './admission/pod-admission.js';
import type { PodAdmissionPlan } from './types.js';

/** One pod on a drained node with everything the plan learns about it before the waves. */
interface PodFacts {
  readonly pod: V1Pod;
  readonly key: string;
  readonly node: string;
  readonly filter: FilterVerdict;
  readonly controller: ControllerInfo | null;
  readonly budgets: readonly BudgetFacts[];
  /** What the admission chain does with the drain's request for it (removed pods only). */
  readonly admission: PodAdmissionPlan | undefined;
}

/**
 * The whole preview of draining `options.nodes`: kubectl's filters per pod, who recreates each pod, the
 * budgets and the waves in which the API admits the evictions (placing replacements with the scheduling
 * simulation as they go), what a NoExecute taint or a node failure would do instead, the verdict, and
 * the caveats. Pure: the snapshot and the options in, the plan out. `rejectedNodes`: which replacements
 * list the nodes that refused them (see RejectedNodes).
 *
 * Throws an Error `node "x" not found` for a node the snapshot does not have, and the selector parser's
 * one-line Error for a bad --pod-selector.
 */
export function buildPlan(index: ClusterIndex, options: PlanOptions, rejectedNodes: RejectedNodes = 'all'): DrainPlan {
  const nodes = [...new Set(options.nodes)];
  for (const name of nodes) if (!index.node(name)) throw new Error(`node "${name}" not found`);

  const drained = drainedPods(index, nodes, options);
  const { budgetCache, pods, candidates, order } = drained;
  // A strategy that gets a stuck eviction-order group out lets the later groups go: play the drain again
  // with those pods leaving, until no more group is freed (at most once per group).
  let play = playDrain(index, nodes, options, drained, new Set(), rejectedNodes);
  for (let i = 1; i < order.groups.length && freesAGroup(play); i++) {
    play = playDrain(index, nodes, options, drained, new Set(play.rescued.keys()), rejectedNodes);
  }
  const { simulation, schedule, podPlans, heldByOthers, surged, withStrategies, rescued, eta } = play;
  const taint = maintenanceTaint(options.taint.key, options.taint.value);
  const budgets = budgetPlans(pods, budgetCache, schedule.budgets, withStrategies);
  const brokenByDeletes = options.disableEviction ? budgetsBrokenByDeletes(candidates) : [];
  const waysOut = unusedWaysOut(index, pods, podPlans, heldByOthers, options);
  const outages = workloadOutages(index, { nodes, pods: withStrategies });
  const read = withOutages(verdictWithStrategies(withStrategies, budgets, brokenByDeletes, rescued), outages);
  const unread = unreadKinds(
    index.snapshot,
    pods.map((p) => ({ pod: p.pod, removed: isRemoved(p), surged: surged.has(p.key) })),
  );
  const tainted = pods.map((p, i) => ({ ...p, deletion: podPlans[i]!.noExecute }));
  const caveats = [
    ...planCaveats({
      snapshot: index.snapshot,
      pods: pods.map((p, i) => ({ pod: p.pod, plan: podPlans[i]!, controllerCaveat: p.controller?.caveat ?? null })),
      budgets,
      simulationCaveats: simulation.caveats,
    }),
    ...admissionCaveats(index, pods),
  ];

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
    outages,
    waysOut,
    alreadyCordoned: nodes.filter((node) => index.node(node)?.spec?.unschedulable === true),
    kubernetes: kubernetesOf(index.snapshot),
    pods: withStrategies,
    budgets,
    noExecute: { taint: taintText(taint), budgetsBroken: budgetsBrokenByTaint(tainted) },
    nodeFailure: { nodeMonitorGracePeriodSeconds: options.nodeMonitorGracePeriodSeconds },
    caveats: [...order.problems, ...caveats.map((c) => c.caveat)],
    caveatScopes: [...order.problems.map((caveat) => ({ caveat, pods: [] })), ...caveats],
    order: { by: order.by, groups: order.groups },
    eta: withUncounted(
      {
        totalSeconds: eta.totalSeconds,
        waves: eta.waves,
        ...(eta.steps.length > 0 ? { steps: eta.steps } : {}),
        basis: eta.basis,
      },
      withStrategies,
    ),
  };
}

/** The version the plan models, and what the server does not serve. */
function kubernetesOf(snapshot: ClusterIndex['snapshot']): DrainPlan['kubernetes'] {
  const { serverVersion, notServed } = snapshot;
  const read = { server: serverVersion ?? null, modelled: kubeRules(snapshot).modelled };
  return notServed?.length ? { ...read, notServed } : read;
}

/**
 * The drain played out once: the waves group after group (`leaving`: pods a strategy gets out of their
 * group, see scheduleInGroups), the replacements, the timeline, and the strategies (--escalate-after,
 * --surge) each blocked pod would meet.
 */
function playDrain(
  index: ClusterIndex,
  nodes: readonly string[],
  options: PlanOptions,
  drained: ReturnType<typeof drainedPods>,
  leaving: ReadonlySet<string>,
  rejectedNodes: RejectedNodes,
) {
  const { pods, refusals, removed, candidates, order } = drained;
  const simulation = new SchedulingSimulation(index, new Set(nodes), rejectedNodes);
  const schedule = scheduleInGroups(candidates, order, simulation, scheduleOptions(index, options), leaving);

  const blocked = removed.filter((c) => (schedule.pods.get(c.key)?.outcome ?? 'blocked') === 'blocked');
  const unblocked = placeBlockedReplacements(
    blocked.filter((c) => !schedule.pods.get(c.key)?.replacement),
    simulation,
  );

  const taint = maintenanceTaint(options.taint.key, options.taint.value);
  const orderGroups = groupOfPod(order);
  const scheduledOf = (p: PodFacts) =>
    isRemoved(p)
      ? (deniedEviction(p.admission) ?? schedule.pods.get(p.key) ?? heldByNode(p.node, refusals))
      : undefined;
  const firstEta = drainEta(index, pods, scheduledOf, orderGroups);
  const podPlans = pods.map((p) => {
    const scheduled = scheduledOf(p);
    const replacement = scheduled?.replacement ?? unblocked.get(p.key) ?? null;
    return {
      ...podPlan(p, scheduled && { ...scheduled, replacement }, options, taint),
      orderGroup: orderGroups.get(p.key) ?? null,
      eta: firstEta.pods.get(p.key) ?? null,
    };
  });
  const heldByOthers = new Set(pods.flatMap((p) => (scheduledOf(p)?.heldBy !== undefined ? [p.key] : [])));
  const escalated = escalations(podPlans, options.escalation, heldByOthers);
  const surges = surgePlans(index, pods, podPlans, heldByOthers, options.surge);
  const surged = new Map([...surges].filter(([, s]) => s.surged));
  const certain = new Map([...escalated].filter(([key, e]) => e.when === 'certain' && !surged.has(key)));
  const late = new Map<string, LateStrategy>([
    ...[...certain].map(
      ([key, e]) =>
        [
          key,
          { strategy: 'escalate-after', afterSeconds: e.afterSeconds, why: 'deleted by --escalate-after' },
        ] as const,
    ),
    ...[...surged].map(([key]) => {
      const ready = firstEta.surgeReady.get(key);
      return [
        key,
        {
          strategy: 'surge',
          afterSeconds: ready?.seconds ?? 0,
          why: 'evicted once the surge replica is Ready',
          ...(ready ? { basis: ready.text } : {}),
        },
      ] as const;
    }),
  ]);
  const eta = late.size === 0 ? firstEta : drainEta(index, pods, scheduledOf, orderGroups, late);
  const withStrategies = podPlans.map((p) => {
    const key = `${p.namespace}/${p.name}`;
    const escalation = escalated.get(key);
    const surge = surges.get(key);
    // A later group waits for the pods a strategy removes: every pod's time may move.
    if (!escalation && !surge) return eta === firstEta ? p : { ...p, eta: eta.pods.get(key) ?? null };
    const why = [p.outcomeReason, surge?.text, surged.has(key) ? undefined : escalation?.text].filter(Boolean);
    return {
      ...p,
      outcomeReason: why.join('; '),
      ...(escalation ? { escalation } : {}),
      ...(surge ? { surge } : {}),
      eta: eta.pods.get(key) ?? null,
    };
  });
  const rescued = new Map([
    ...[...certain].map(([key, e]) => [key, `escalation: ${key} is ${e.text}`] as const),
    ...[...surged].map(([key, s]) => [key, s.text] as const),
  ]);
  return { simulation, schedule, podPlans, heldByOthers, surged, withStrategies, rescued, eta, leaving };
}

/**
 * The admission kinds not read: a caveat on the pods the drain removes, whose requests they could concern;
 * and the bindings that judge a removed pod with params from the API server's informer (cachedParamsCaveat).
 */
function admissionCaveats(index: ClusterIndex, pods: readonly PodFacts[]) {
  const removed = pods.filter(isRemoved);
  if (removed.length === 0) return [];
  const keys = removed.map((p) => p.key);
  const unread = unreadAdmission(index.snapshot).map((caveat) => ({ caveat, pods: keys }));
  const cached = removed.filter((p) => (p.admission?.cachedParams?.length ?? 0) > 0);
  if (cached.length === 0) return unread;
  const bindings = [...new Set(cached.flatMap((p) => p.admission!.cachedParams!))].sort();
  const caveat = cachedParamsCaveat(bindings, kubeRules(index.snapshot).policyParamsReadOnMiss);
  return [...unread, { caveat, pods: cached.map((p) => p.key) }];
}

/**
 * What the plan cannot see of a binding with params of a built-in kind: the API server reads them from its
 * informer, which it stops for good once no binding uses that kind for a moment (a policy reinstalled, its
 * bindings deleted first), and does not start again until it restarts (K/K #133827).
 */
function cachedParamsCaveat(bindings: readonly string[], readOnMiss: boolean): string {
  const then = readOnMiss
    ? 'it then judges with the params it saw last'
    : 'it then judges with the params it saw last, or denies "no params found" where the binding says Deny';
  return (
    `ValidatingAdmissionPolicy params: ${bindings.join(', ')} ${bindings.length === 1 ? 'reads its' : 'read their'} ` +
    `params from the API server's informer, which stops for good, until the API server restarts, once no binding ` +
    `uses that kind (kubernetes/kubernetes#133827): ${then}; plan --ask-server asks the API server`
  );
}

/** Whether a pod is held behind an eviction-order group that the strategies get out: the drain must be played again. */
function freesAGroup(play: ReturnType<typeof playDrain>): boolean {
  const grew = [...play.rescued.keys()].some((key) => !play.leaving.has(key));
  return grew && [...play.schedule.pods.values()].some((p) => p.heldBy === 'order-group');
}

/**
 * The nodes whose drain is refused or blocked even if every replacement finds a node: kubectl's filters
 * and the budget waves, without the scheduling simulation, so at a small part of buildPlan's cost. A
 * replacement that finds no node only holds its budget longer, so buildPlan shows these nodes refused or
 * blocked too. The pool plan uses it to leave such nodes out of a batch before planning the batch; every
 * batch it then takes still carries buildPlan's own plan.
 */
export function drainBlockedNodes(index: ClusterIndex, options: PlanOptions): string[] {
  const nodes = [...new Set(options.nodes)];
  const { pods, refusals, candidates, order } = drainedPods(index, nodes, options);
  const schedule = scheduleInGroups(candidates, order, ASSUMED_PLACED, scheduleOptions(index, options));
  const blocked = new Set(refusals.keys());
  for (const p of pods) if (deniedEviction(p.admission)) blocked.add(p.node);
  for (const c of candidates) {
    if (schedule.pods.get(c.key)?.outcome === 'blocked') blocked.add(c.pod.spec?.nodeName ?? '');
  }
  return nodes.filter((n) => blocked.has(n));
}

/** A placer that finds every replacement a node, and holds no room. */
const ASSUMED_PLACED: ReplacementPlacer = {
  evict: () => {},
  place: () => ({ schedulable: true, nodes: [], placedOn: null, rejected: [], message: '' }),
};

/** The drained pods with kubectl's filters, owners and budgets, and what the waves will be played on. */
function drainedPods(index: ClusterIndex, nodes: readonly string[], options: PlanOptions) {
  const budgetCache = new Map<V1PodDisruptionBudget, BudgetFacts>();
  const factsOf = (pdb: V1PodDisruptionBudget) => budgetCache.get(pdb) ?? cache(budgetCache, pdb, budgetFacts(pdb));
  const ctx = { options, index };
  const admission = podAdmissions(index.snapshot, options.disableEviction);
  const pods: PodFacts[] = podsToDrain(index, nodes, options.podSelector).map((pod) => {
    const filter = filterPod(pod, ctx, options.disableEviction);
    return {
      pod,
      key: podKey(pod),
      node: pod.spec?.nodeName ?? '',
      filter,
      controller: controllerOf(pod, index),
      budgets: index.pdbsForPod(pod).map(factsOf).sort(byKey),
      admission: filter.action === 'evict' || filter.action === 'delete' ? admission(pod) : undefined,
    };
  });
  const refusals = refusalsByNode(pods);
  // A pod the admission chain denies never leaves: its budget is not spent, the others go without it.
  const removed: EvictionCandidate[] = pods
    .filter((p) => isRemoved(p) && !deniedEviction(p.admission))
    .map((p) => {
      const late = admittedLate(p.admission);
      return {
        pod: p.pod,
        key: p.key,
        budgets: p.budgets,
        recreates: p.controller?.recreates ?? false,
        ...(late === undefined ? {} : { admittedLate: late }),
      };
    });
  const candidates = removed.filter((c) => !refusals.has(c.pod.spec?.nodeName ?? ''));
  const order = evictionOrder(
    candidates.map((c) => c.pod),
    options.orderBy === 'priority',
  );
  return { budgetCache, pods, refusals, removed, candidates, order };
}

function scheduleOptions(index: ClusterIndex, options: PlanOptions) {
  return {
    deleteInsteadOfEvict: options.disableEviction,
    budgetsKnown: index.snapshot.kinds.has('PodDisruptionBudget'),
  };
}

/**
 * --surge: for each pod its budget blocks for good (and nothing else holds), whether the drain would
 * surge its Deployment, or why not. All blocked pods of one Deployment share one surge.
 */
function surgePlans(
  index: ClusterIndex,
  pods: readonly PodFacts[],
  podPlans: readonly PodPlan[],
  heldByOthers: ReadonlySet<string>,
  options: SurgeOptions | undefined,
): Map<string, PodSurgePlan> {
  const result = new Map<string, PodSurgePlan>();
  if (!options) return result;
  const deploymentOf = (p: PodFacts) =>
    p.controller?.kind === 'Deployment' ? `${namespaceOf(p.pod)}/${p.controller.name}` : null;
  const selected = pods.filter((p, i) => {
    const plan = podPlans[i]!;
    const eligible = plan.outcome === 'blocked' && plan.action === 'evict' && p.budgets.length === 1;
    const deployment = deploymentOf(p);
    return (
      eligible &&
      !heldByOthers.has(p.key) &&
      (options.all || (deployment !== null && surgeSelects(options, deployment)))
    );
  });
  const perDeployment = Map.groupBy(selected, (p) => deploymentOf(p) ?? p.key);
  for (const p of selected) {
    const deployment = deploymentOf(p);
    const owner = deployment ? index.owner('Deployment', namespaceOf(p.pod), p.controller!.name) : undefined;
    result.set(
      p.key,
      planSurge({
        pod: podPlans[pods.indexOf(p)]!,
        controller: p.controller,
        pdb: index.pdbsForPod(p.pod)[0],
        deployment: owner as V1Deployment | undefined,
        placement: deployment ? (podPlans[pods.indexOf(p)]!.replacement ?? null) : null,
        extra: perDeployment.get(deployment ?? p.key)?.length ?? 1,
        autoscaler: !index.snapshot.kinds.has('HorizontalPodAutoscaler')
          ? 'unknown'
          : (autoscalerOfDeployment(index.snapshot.autoscalers, namespaceOf(p.pod), p.controller?.name ?? '') ?? null),
      }),
    );
  }
  return result;
}

/**
 * The strategies not chosen that would let pods their budget blocks go: the Deployments --surge would
 * surge (as it would plan them), and the namespaces of budget-blocked pods --escalate-after could delete
 * past their budget. Only what the operator did not ask for: a chosen strategy is in the pods' plans.
 */
function unusedWaysOut(
  index: ClusterIndex,
  pods: readonly PodFacts[],
  podPlans: readonly PodPlan[],
  heldByOthers: ReadonlySet<string>,
  options: PlanOptions,
): NonNullable<DrainPlan['waysOut']> {
  const surge = options.surge
    ? []
    : [...surgePlans(index, pods, podPlans, heldByOthers, { all: true, deployments: [] }).values()].flatMap((s) =>
        s.surged && s.deployment !== null ? [s.deployment] : [],
      );
  const escalate = options.escalation
    ? []
    : podPlans
        .filter(
          (p) =>
            p.outcome === 'blocked' &&
            p.action === 'evict' &&
            p.pdbs.length === 1 &&
            !heldByOthers.has(`${p.namespace}/${p.name}`),
        )
        .map((p) => p.namespace);
  return { surge: [...new Set(surge)], escalate: [...new Set(escalate)] };
}

/** A pod a strategy takes out, as the estimate places it (eta.ts's LatePod without the pod's own facts). */
type LateStrategy = Pick<LatePod, 'strategy' | 'afterSeconds' | 'why' | 'basis'>;

/** The drain's timeline (eta.ts): each removed pod's grace period and its replacement's start-to-Ready time. */
function drainEta(
  index: ClusterIndex,
  pods: readonly PodFacts[],
  scheduledOf: (p: PodFacts) => ScheduledEviction | undefined,
  orderGroups: ReadonlyMap<string, number>,
  late: ReadonlyMap<string, LateStrategy> = new Map(),
): DrainEta & { readonly surgeReady: ReadonlyMap<string, StartToReady> } {
  const readiness = new Map<string, StartToReady>();
  const readinessOf = (p: PodFacts): StartToReady => {
    const owner = p.pod.metadata?.ownerReferences?.find((r) => r.controller)?.uid ?? p.key;
    const known = readiness.get(owner);
    if (known) return known;
    const uid = controllerRef(p.pod)?.uid;
    const siblings = uid ? index.podsControlledBy(namespaceOf(p.pod), uid) : [];
    const ownerName = p.controller ? `${p.controller.kind} ${namespaceOf(p.pod)}/${p.controller.name}` : p.key;
    return cache(readiness, owner, startToReady(p.pod, siblings, ownerName));
  };
  const removed = pods.filter(isRemoved).map((p) => ({ p, scheduled: scheduledOf(p) }));
  const stuck = removed.filter((r) => r.scheduled?.outcome === 'blocked' || r.scheduled?.wave == null);
  const blocked = stuck.some((r) => !late.has(r.p.key));
  const latePods = stuck.flatMap(({ p }) => {
    const strategy = late.get(p.key);
    return strategy
      ? [
          {
            key: p.key,
            group: orderGroups.get(p.key) ?? 1,
            graceSeconds: graceSecondsOf(p.pod),
            ...strategy,
          },
        ]
      : [];
  });
  const etaPods: EtaPod[] = removed.flatMap(({ p, scheduled }) =>
    scheduled?.wave == null
      ? []
      : [
          {
            key: p.key,
            wave: scheduled.wave,
            group: orderGroups.get(p.key) ?? 1,
            graceSeconds: graceSecondsOf(p.pod),
            budgets: p.budgets.map((b) => b.key),
            replacement: scheduled.replacement?.schedulable ? readinessOf(p) : null,
            replacementKeepsName: isLateReplacement(p.pod),
          },
        ],
  );
  // A surged pod goes once its extra replica is Ready: its workload's start-to-Ready time.
  const surgeReady = new Map(stuck.map(({ p }) => [p.key, readinessOf(p)] as const));
  return { ...estimateDrain(etaPods, blocked, latePods), surgeReady };
}

/** The pods kubectl drain lists: bound to a drained node and matching --pod-selector, in plan order. */
function podsToDrain(index: ClusterIndex, nodes: readonly string[], podSelector: string | undefined): V1Pod[] {
  const pods = nodes.flatMap((node) => index.podsOnNode(node));
  return selectedByPodSelector(pods, podSelector).sort(byNodeNamespaceName);
}

/** The pods --pod-selector selects (every pod without it): the only pods kubectl drain lists. */
export function selectedByPodSelector(pods: readonly V1Pod[], podSelector: string | undefined): V1Pod[] {
  if (!podSelector) return [...pods];
  const selector = parseLabelSelector(podSelector);
  return pods.filter((pod) => matchesLabelSelector(pod.metadata?.labels, selector));
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
  const refused = Map.groupBy(
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
    heldBy: 'node',
  };
}

function podPlan(
  p: PodFacts,
  scheduled: ScheduledEviction | undefined,
  options: PlanOptions,
  taint: ReturnType<typeof maintenanceTaint>,
): PodPlan {
  const optOut = disruptionOptOutOf(p.pod, p.filter.action);
  // An operator's webhook that answers 429 until it has moved the pod: the eviction waits for it.
  const webhook = scheduled?.outcome === 'immediate' ? waitingWebhook(p.admission) : undefined;
  if (webhook) scheduled = { ...scheduled!, outcome: 'waits', reason: `${scheduled!.reason}; ${webhook.text}` };
  return {
    namespace: namespaceOf(p.pod),
    name: nameOf(p.pod),
    uid: p.pod.metadata?.uid ?? '',
    node: p.node,
    action: p.filter.action,
    reason: p.filter.reason,
    filter: p.filter.filter,
    ...(p.filter.override ? { override: p.filter.override } : {}),
    outcome: scheduled?.outcome ?? null,
    outcomeReason: scheduled?.reason ?? '',
    wave: scheduled?.wave ?? null,
    ...(scheduled?.unknown !== undefined ? { outcomeUnknown: scheduled.unknown } : {}),
    ...(scheduled?.waveUnknown !== undefined ? { waveUnknown: scheduled.waveUnknown } : {}),
    controller: p.controller ? { kind: p.controller.kind, name: p.controller.name } : null,
    pdbs: p.budgets.map((b) => ({ namespace: b.namespace, name: b.name, disruptionsAllowed: b.disruptionsAllowed })),
    replacement: scheduled?.replacement ?? null,
    noExecute: taintDeletion(p.pod, taint),
    nodeFailure: nodeFailureDeletion(p.pod, options.nodeMonitorGracePeriodSeconds),
    ...(optOut ? { disruptionOptOut: optOut } : {}),
    ...(p.admission ? { admission: p.admission } : {}),
    ...admissionUnknown(p.admission, scheduled),
  };
}

/**
 * Why the API server may admit the pod's eviction only after the replacements of its wave are scheduled
 * (EvictionCandidate.admittedLate): an operator's webhook answers 429 until it has moved the pod, or a step
 * of the chain whose answer the plan cannot tell decides it (see admissionUnknown).
 */
function admittedLate(admission: PodAdmissionPlan | undefined): string | undefined {
  return waitingWebhook(admission)?.text ?? admissionUnknown(admission, undefined).outcomeUnknown;
}

/**
 * A request whose admission is unknown is not called admitted: its outcome is the plan's answer, not a
 * certainty. The first undecided step of the chain says why: a mutating webhook, a policy, a validating
 * webhook (undecidedWebhook: one the plan does not know, or may or may not be called).
 */
function admissionUnknown(
  admission: PodAdmissionPlan | undefined,
  scheduled: ScheduledEviction | undefined,
): { outcomeUnknown?: string } {
  if (!admission || admission.denied || scheduled?.unknown !== undefined) return {};
  const webhook = undecidedWebhook(admission);
  const policy = admission.unknown[0];
  if (webhook && (webhook.kind === 'MutatingWebhookConfiguration' || !policy)) return { outcomeUnknown: webhook.text };
  if (!policy) return {};
  return { outcomeUnknown: `ValidatingAdmissionPolicy '${policy.policy}' may deny its eviction: ${policy.why}` };
}

/**
 * Every budget selecting a pod on the drained nodes, with the pods it would see go and its waves; unknown
 * where its waves are (the schedule's), or else where the admission of one of its pods is (`plans`).
 */
function budgetPlans(
  pods: readonly PodFacts[],
  facts: ReadonlyMap<V1PodDisruptionBudget, BudgetFacts>,
  waves: EvictionSchedule['budgets'],
  plans: readonly PodPlan[],
): BudgetPlan[] {
  const removed = pods.filter(isRemoved).flatMap((p) => p.budgets.map((b) => ({ budget: b.key, pod: p.key })));
  const drained = Map.groupBy(removed, (r) => r.budget);
  const unknownOf = new Map<BudgetKey, string>();
  for (const p of plans) {
    for (const b of p.pdbs) {
      const key = budgetKey(b.namespace, b.name);
      if (p.outcomeUnknown !== undefined && !unknownOf.has(key)) unknownOf.set(key, p.outcomeUnknown);
    }
  }
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
    ...unknownWaves(waves.get(b.key)?.unknown ?? unknownOf.get(b.key)),
  }));
}

const unknownWaves = (unknown: string | undefined) => (unknown === undefined ? {} : { unknown });
const byKey = (a: BudgetFacts, b: BudgetFacts) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
const namespaceOf = (pod: V1Pod) => pod.metadata?.namespace ?? 'default';
const nameOf = (pod: V1Pod) => pod.metadata?.name ?? '';

function cache<K, V>(map: Map<K, V>, key: K, value: V): V {
  map.set(key, value);
  return value;
}
