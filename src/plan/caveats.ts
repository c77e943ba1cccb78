import type { V1Pod, V1PodAffinityTerm, V1WeightedPodAffinityTerm } from '@kubernetes/client-node';
import {
  isDraKindWarning,
  isKindWarning,
  isVolumeKindWarning,
  type Snapshot,
  type SnapshotKind,
} from '../snapshot/types.js';
import { someNames } from './completeness.js';
import { isTerminal, podKey } from './pod-facts.js';
import { kubeRules } from './kube-version.js';
import { SCHEDULER_CAVEATS } from './scheduling/unmodelled.js';
import type { BudgetPlan, CaveatScope, PodPlan } from './types.js';
import { kindPlural } from '../wording.js';

/** What the plan's own rules leave out (the scheduling simulation lists its own). */
export const PLAN_CAVEATS = {
  readiness:
    'Readiness: a replacement that finds a node is taken as Ready by the next wave; image pulls, start-up and readiness probes decide how long a wave really takes',
  order:
    'Eviction order within a budget is a race between concurrent requests; the plan admits pods in node, namespace, name order',
  taintTiming:
    'NoExecute and node-failure timelines start when the controllers see the taint: node tainting is rate-limited per zone (--node-eviction-rate 0.1 nodes/s) and the node monitor period adds up to 5s',
} as const;

/** What each missing kind costs the plan. */
const MISSING_KIND_EFFECT: Partial<Record<SnapshotKind, string>> = {
  PodDisruptionBudget: 'budgets are unknown, so evictions the plan calls immediate may wait or be refused',
  DaemonSet: 'every DaemonSet-managed pod is assumed to have its DaemonSet',
  ReplicaSet: 'pods owned by ReplicaSets are assumed to be recreated; their Deployments are not named',
  StatefulSet: 'pods owned by StatefulSets are assumed to be recreated',
  ReplicationController: 'pods owned by ReplicationControllers are assumed to be recreated',
  Job: 'pods owned by Jobs are assumed to be recreated',
  PersistentVolumeClaim: "whether a node can mount the replacement's claims is not known",
  PersistentVolume: "whether a node can mount the replacement's bound volumes is not known",
  StorageClass: "whether a node can bind or provision the replacement's unbound claims is not known",
  CSINode: 'CSI attach limits (NodeVolumeLimits) are not checked',
  CSIDriver: 'whether a CSI driver publishes storage capacity is not known, so provisioning on any node is assumed',
  CSIStorageCapacity: 'published storage capacity is not checked, so provisioning on any node is assumed',
  Namespace: "a pod (anti-)affinity namespaceSelector is taken to select the owning pod's namespace only",
  PriorityClass: 'a pod without spec.priority is taken as priority 0',
  HorizontalPodAutoscaler:
    'whether an autoscaler scales a surged Deployment is unknown: the drain looks before it surges, and raises the minReplicas of one it finds',
};

/** What the plan assumed for a kind the snapshot did not read. */
export function missingKindEffect(kind: SnapshotKind): string {
  return MISSING_KIND_EFFECT[kind] ?? 'objects of this kind are unknown';
}

/** The caveat for a kind the snapshot did not read: what the plan assumed instead. */
export function missingKindCaveat(kind: SnapshotKind): string {
  return `${kindPlural(kind)} were not loaded: ${missingKindEffect(kind)}`;
}

/** A drained pod with its plan, as the caveat rules read it. */
export interface CaveatPod {
  readonly pod: V1Pod;
  readonly plan: PodPlan;
  /** What the snapshot could not confirm about its controller (controller.ts), or null. */
  readonly controllerCaveat: string | null;
}

export interface CaveatInput {
  readonly snapshot: Snapshot;
  readonly pods: readonly CaveatPod[];
  readonly budgets: readonly BudgetPlan[];
  /** Approximations the scheduling simulation met (namespaceSelector…). */
  readonly simulationCaveats: readonly string[];
}

/** The pods a caveat concerns: 'all' for the whole plan, an empty list when it cannot apply. */
type Concerned = readonly V1Pod[] | 'all';

/**
 * The caveats that can apply to this plan, each with the pods it concerns: a scheduler rule only for the
 * replacements it could change (volumes only for pods with claims, DRA only for pods with resource
 * claims…), a plan rule only when the plan uses it (readiness only when a pod waits for a wave).
 */
export function planCaveats(input: CaveatInput): CaveatScope[] {
  const { snapshot, pods } = input;
  const rules = kubeRules(snapshot);
  const removed = pods.filter((p) => p.plan.action === 'evict' || p.plan.action === 'delete');
  const replaced = removed.filter((p) => p.plan.replacement !== null).map((p) => p.pod);
  const scoped: Array<[string, Concerned]> = [
    ...(snapshot.kinds.has('PodDisruptionBudget')
      ? []
      : [[missingKindCaveat('PodDisruptionBudget'), removed.map((p) => p.pod)] as [string, Concerned]]),
    ...snapshot.warnings.map((w): [string, Concerned] => [`snapshot: ${w}`, warningConcerns(w, snapshot, replaced)]),
    ...volumeKindCaveats(snapshot, replaced),
    ...unknownPlacements(pods),
    ...controllerCaveats(pods),
    ...input.simulationCaveats
      .filter((c) => !c.includes('namespaceSelector')) // said below, per pod
      .map((c): [string, Concerned] => [c, replaced]),
    [PLAN_CAVEATS.readiness, pods.filter((p) => p.plan.outcome === 'waits').map((p) => p.pod)],
    [PLAN_CAVEATS.order, inBudgetsOfSeveralWaves(removed, input.budgets)],
    [PLAN_CAVEATS.taintTiming, pods.length > 0 ? 'all' : []],
    [SCHEDULER_CAVEATS.inTreeVolumes, replaced.filter(hasInTreeDisks)],
    // The server's version decides the scheduler's rules, which judge the replacements.
    ...(rules.caveat ? [[rules.caveat, replaced] as [string, Concerned]] : []),
    [SCHEDULER_CAVEATS.dra, rules.draDeviceTaintRules ? replaced.filter(hasResourceClaims) : []],
    [SCHEDULER_CAVEATS.draExtendedResources, rules.draExtendedResource ? replaced.filter(hasExtendedResources) : []],
    [
      SCHEDULER_CAVEATS.declaredFeatures,
      rules.nodeDeclaredFeatures && snapshotHas(snapshot, 'declared features') ? replaced : [],
    ],
    [SCHEDULER_CAVEATS.preemption, removed.filter((p) => preemptsOrStays(p.plan.replacement)).map((p) => p.pod)],
    [
      SCHEDULER_CAVEATS.scoring,
      removed.filter((p) => (p.plan.replacement?.tiedWith?.length ?? 0) > 0).map((p) => p.pod),
    ],
    [SCHEDULER_CAVEATS.pendingPods, snapshotHas(snapshot, 'pending pods') ? replaced : []],
    [SCHEDULER_CAVEATS.profiles, replaced],
    [SCHEDULER_CAVEATS.namespaceSelector, namespaceSelectorPods(snapshot, replaced)],
    [missingKindCaveat('PriorityClass'), snapshot.kinds.has('PriorityClass') ? [] : replaced.filter(classOnly)],
    [SCHEDULER_CAVEATS.gates, gatedPods(snapshot, replaced)],
  ];
  const all = pods.map((p) => podKey(p.pod));
  const seen = new Set<string>();
  const result: CaveatScope[] = [];
  for (const [text, concerned] of scoped) {
    if (concerned !== 'all' && concerned.length === 0) continue;
    const keys = concerned === 'all' ? [] : [...new Set(concerned.map(podKey))];
    const everyPod = keys.length === 0 || keys.length === all.length;
    const caveat = everyPod ? text : `${text} (${keys.length === 1 ? 'pod' : 'pods'} ${someNames(keys)})`;
    if (seen.has(caveat)) continue;
    seen.add(caveat);
    result.push({ caveat, pods: concerned === 'all' ? [] : keys, ...(caveat === text ? {} : { rule: text }) });
  }
  return result;
}

/** A replacement that preempts, or finds no node (where preemption could have applied). */
function preemptsOrStays(replacement: PodPlan['replacement']): boolean {
  return replacement != null && (replacement.preemption !== undefined || !replacement.schedulable);
}

/** A missing owner kind matters only for the pods it owns: one caveat per text, with its pods. */
function controllerCaveats(pods: readonly CaveatPod[]): Array<[string, Concerned]> {
  const byText = new Map<string, V1Pod[]>();
  for (const p of pods) {
    if (p.controllerCaveat) byText.set(p.controllerCaveat, [...(byText.get(p.controllerCaveat) ?? []), p.pod]);
  }
  return [...byText];
}

/** Removed pods of a budget that lets them go over several waves: their order within the budget is a race. */
function inBudgetsOfSeveralWaves(removed: readonly CaveatPod[], budgets: readonly BudgetPlan[]): V1Pod[] {
  const slow = new Set(budgets.filter((b) => b.waves > 1).map((b) => `${b.namespace}/${b.name}`));
  return removed.filter((p) => p.plan.pdbs.some((b) => slow.has(`${b.namespace}/${b.name}`))).map((p) => p.pod);
}

/**
 * A live read's warning about a kind it could not list concerns only the replacements the kind judges:
 * a volume kind those with claims, a DRA kind those with resource claims, Namespaces those a
 * namespaceSelector judges, PriorityClasses those whose priority is not in their spec.
 */
function warningConcerns(warning: string, snapshot: Snapshot, replaced: readonly V1Pod[]): Concerned {
  if (isVolumeKindWarning(warning)) return replaced.filter(hasClaims);
  if (isDraKindWarning(warning)) return replaced.filter(hasResourceClaims);
  if (isKindWarning(warning, 'Namespace')) return namespaceSelectorPods(snapshot, replaced);
  if (isKindWarning(warning, 'PriorityClass')) return replaced.filter((pod) => pod.spec?.priority == null);
  return 'all';
}

/**
 * The volume kinds the snapshot did not read, for the replacements with claims. A kind that decides where
 * a replacement can run makes its placement unknown (said by `unknownPlacements`); the CSI kinds only
 * sharpen it, so they are said here.
 */
function volumeKindCaveats(snapshot: Snapshot, replaced: readonly V1Pod[]): Array<[string, Concerned]> {
  const claimed = replaced.filter(hasClaims);
  if (claimed.length === 0) return [];
  const csiKinds = ['CSINode', 'CSIDriver', 'CSIStorageCapacity'] as const;
  return csiKinds.filter((kind) => !snapshot.kinds.has(kind)).map((kind) => [missingKindCaveat(kind), claimed]);
}

/** Replacements whose placement the plan leaves unknown, one caveat per reason. */
function unknownPlacements(pods: readonly CaveatPod[]): Array<[string, Concerned]> {
  const byText = new Map<string, V1Pod[]>();
  for (const { pod, plan } of pods) {
    const unknown = plan.replacement?.unknown;
    if (unknown) byText.set(unknown, [...(byText.get(unknown) ?? []), pod]);
  }
  return [...byText];
}

/** Inline in-tree disks, which VolumeRestrictions compares across pods and the simulation does not. */
function hasInTreeDisks(pod: V1Pod): boolean {
  return (pod.spec?.volumes ?? []).some(
    (v) => v.gcePersistentDisk || v.awsElasticBlockStore || v.iscsi || v.rbd || v.azureDisk || v.cinder,
  );
}

/** PersistentVolumeClaims, directly or through generic ephemeral volumes. */
function hasClaims(pod: V1Pod): boolean {
  return (pod.spec?.volumes ?? []).some((v) => v.persistentVolumeClaim != null || v.ephemeral != null);
}

const STANDARD_RESOURCE = /^(cpu|memory|ephemeral-storage|hugepages-.+)$/;

/** DRA resource claims (pod.spec.resourceClaims). */
function hasResourceClaims(pod: V1Pod): boolean {
  return (pod.spec?.resourceClaims ?? []).length > 0;
}

/** An extended resource, which a DeviceClass may back with DRA. */
function hasExtendedResources(pod: V1Pod): boolean {
  const containers = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
  return containers.some((c) =>
    Object.keys({ ...c.resources?.requests, ...c.resources?.limits }).some((r) => !STANDARD_RESOURCE.test(r)),
  );
}

function declaresFeatures(node: Snapshot['nodes'][number]): boolean {
  const status = node.status as { declaredFeatures?: unknown[] } | undefined;
  return (status?.declaredFeatures ?? []).length > 0;
}

/** Not yet bound to a node (or nominated for one), and not finished: it competes for room. */
function isPending(pod: V1Pod): boolean {
  if (isTerminal(pod)) return false;
  return !pod.spec?.nodeName || Boolean(pod.status?.nominatedNodeName);
}

/**
 * Without Namespaces: the replacements whose own affinity terms use a namespaceSelector with
 * requirements; every replacement when only other pods' terms do (their anti-affinity judges every
 * replacement). None when Namespaces were read: the selectors are then resolved.
 */
function namespaceSelectorPods(snapshot: Snapshot, replaced: readonly V1Pod[]): readonly V1Pod[] {
  if (snapshot.kinds.has('Namespace')) return [];
  const own = replaced.filter(hasNamespaceSelectorTerm);
  if (own.length > 0) return own;
  return snapshotHas(snapshot, 'namespaceSelector terms') ? replaced : [];
}

/** A namespaceSelector with requirements (`{}` selects every namespace, with or without their labels). */
function selectsNamespaces(term: V1PodAffinityTerm): boolean {
  const selector = term.namespaceSelector;
  return (
    selector != null &&
    ((selector.matchExpressions ?? []).length > 0 || Object.keys(selector.matchLabels ?? {}).length > 0)
  );
}

/**
 * Whether one of the pod's (anti-)affinity terms, required or preferred, has a namespaceSelector with
 * requirements. Nothing is built per pod: the caveats ask it of every pod of the snapshot.
 */
function hasNamespaceSelectorTerm(pod: V1Pod): boolean {
  const a = pod.spec?.affinity;
  if (!a) return false;
  const required = (terms: V1PodAffinityTerm[] | undefined) => terms?.some(selectsNamespaces) === true;
  const preferred = (terms: V1WeightedPodAffinityTerm[] | undefined) =>
    terms?.some((w) => selectsNamespaces(w.podAffinityTerm)) === true;
  return (
    required(a.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution) ||
    preferred(a.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution) ||
    required(a.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution) ||
    preferred(a.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution)
  );
}

/**
 * Replacements of a pod group; every replacement when some pod is bound to a node the snapshot does not
 * have (its room and its spread are unknown). Scheduling gates are the simulation's: a gated
 * replacement's placement is unknown, said with it.
 */
function gatedPods(snapshot: Snapshot, replaced: readonly V1Pod[]): Concerned {
  if (snapshotHas(snapshot, 'pods on unknown nodes')) return replaced;
  return replaced.filter((pod) => {
    const spec = pod.spec as (V1Pod['spec'] & { workloadRef?: unknown }) | undefined;
    return spec?.workloadRef != null;
  });
}

/** A pod naming a priority class without the priority the admission plugin resolves from it. */
function classOnly(pod: V1Pod): boolean {
  return pod.spec?.priority == null && pod.spec?.priorityClassName != null;
}

/** Whole-snapshot facts the caveats test, each a scan of every pod or node. */
const SNAPSHOT_FACTS = {
  'declared features': (snapshot: Snapshot) => snapshot.nodes.some(declaresFeatures),
  'pending pods': (snapshot: Snapshot) => snapshot.pods.some(isPending),
  'namespaceSelector terms': (snapshot: Snapshot) =>
    snapshot.pods.some((pod) => !isTerminal(pod) && hasNamespaceSelectorTerm(pod)),
  'pods on unknown nodes': (snapshot: Snapshot) => {
    const nodes = new Set(snapshot.nodes.map((n) => n.metadata?.name));
    return snapshot.pods.some((p) => p.spec?.nodeName && !nodes.has(p.spec.nodeName));
  },
} as const;

// A memo, not state: a snapshot never changes, and the pool plan plans many batches against each one.
const knownFacts = new WeakMap<Snapshot, Map<keyof typeof SNAPSHOT_FACTS, boolean>>();

function snapshotHas(snapshot: Snapshot, fact: keyof typeof SNAPSHOT_FACTS): boolean {
  let known = knownFacts.get(snapshot);
  if (!known) knownFacts.set(snapshot, (known = new Map()));
  let value = known.get(fact);
  if (value === undefined) known.set(fact, (value = SNAPSHOT_FACTS[fact](snapshot)));
  return value;
}
