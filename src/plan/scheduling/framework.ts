import type { V1LabelSelector, V1Pod } from '@kubernetes/client-node';
import type { Snapshot, SnapshotKind } from '../../snapshot/types.js';
import type { ExistingTerm } from './anti-affinity-index.js';
import type { NodeInfo } from './node-info.js';
import type { NodeMatcher } from './node-selector.js';
import type { PodInfo } from './pod-info.js';

/**
 * The two rejection codes of the scheduler framework (k8s.io/kube-scheduler/framework): `Unschedulable`
 * means preemption might help on that node, `UnschedulableAndUnresolvable` that it cannot.
 */
export type StatusCode = 'Unschedulable' | 'UnschedulableAndUnresolvable';

/** A filter's verdict on one node; reasons are the scheduler's own words ("node(s) …", "Insufficient cpu"). */
export interface Rejection {
  readonly code: StatusCode;
  readonly reasons: readonly string[];
}

/** null: the node passes this filter (the framework's nil Status). */
export type FilterResult = Rejection | null;

export const unschedulable = (...reasons: string[]): Rejection => ({ code: 'Unschedulable', reasons });
export const unresolvable = (...reasons: string[]): Rejection => ({ code: 'UnschedulableAndUnresolvable', reasons });

/**
 * What the PreFilters worked out for one placement (the framework's CycleState): each plugin's state kept
 * under the plugin, as upstream writes it under "PreFilter" + its name; a plugin's Filter and Skip are
 * given their own state only.
 */
export interface CycleState {
  /** The state the plugin's PreFilter wrote (undefined for a plugin without one). */
  read<S>(plugin: FilterPlugin<S>): S;
  /** The first PreFilter rejection in the profile's order: it holds for every node, and no Filter runs. */
  readonly rejection: Rejection | null;
  /**
   * The filters that judge a node by more than its Node object, in the profile's order, each with its
   * state, less those the PreFilter skipped for this pod (upstream's SkipFilterPlugins).
   */
  readonly podFilters: readonly PluginState[];
}

/** A plugin with the state its PreFilter wrote for the placement. */
export interface PluginState {
  readonly plugin: FilterPlugin;
  readonly state: unknown;
}

/**
 * A filter plugin as it declares itself to the profile (registry.ts orders them): the extension points
 * it implements, Filter always; PreFilter where it works something out once per placement (`S`, its
 * state), with its rejection of every node and its Skip where a pod can give it nothing to check.
 * Written as methods, so a plugin of any state type takes its place in the profile's list.
 */
export interface FilterPlugin<S = unknown> {
  readonly name: string;
  /**
   * The snapshot kinds its PreFilter and Filter read. A plugin that reads the Node alone judges a node by
   * the Node object and the pod's spec: its verdict holds whatever pods run there, so a simulation keeps it
   * per node for every pod with the same spec (see nodeObjectFiltersKey).
   */
  readonly reads: readonly SnapshotKind[];
  /** PreFilter: the whole-cluster work, once per placement. Absent: the state is undefined. */
  preFilter?(pod: PodInfo, cluster: ClusterState): S;
  /** PreFilter's rejection of every node (a claim missing…); absent or null: the Filters run. */
  rejects?(state: S): Rejection | null;
  /**
   * PreFilter's Skip: the pod gives the Filter nothing to check (it would pass every node), so a
   * placement does not call it. Absent: the Filter always runs.
   */
  skips?(pod: PodInfo, state: S): boolean;
  filter(pod: PodInfo, node: NodeInfo, state: S): FilterResult;
  /**
   * Why the plugin's answer holds only approximately on every node (an object it could not read), for the
   * plan to say where the pod lands is not known; null when it holds.
   */
  approximates?(state: S): string | null;
  /**
   * Why the plugin's passing the node does not settle that the pod runs there (a kind of object not read,
   * a volume a driver may fail to provision); null when it does.
   */
  unknownOn?(state: S, node: NodeInfo): string | null;
  /**
   * The nodes the pod's own objects (its volumes, its devices) allow it on whatever runs there, for a pod
   * that fits nowhere: those of them drained hold it until one returns. Null where they do not narrow
   * its nodes. Given the cycle to read another plugin's state as well.
   */
  narrows?(state: S, cycle: CycleState): NodeMatcher | null;
  /**
   * Where the plugin's verdict on a node reads only that node's sums (as the cluster state has its pods)
   * and what this key says of the pod: the simulation keeps its verdict per node of the state and key.
   * Absent: the verdict is worked out every time.
   */
  sharedVerdictKey?(state: S): string;
  /** Reserve: the plugin holds for the pod what it needs on the node it is placed on (its claims' devices). */
  reserve?(state: S, node: NodeInfo, cluster: ClusterState): void;
  /**
   * Whether the reason, one of this plugin's, is for room: what the pods on the node take (resources, pod
   * slots), which a pod leaving it gives back. A plugin with room reasons judges room: the wave-order
   * rules run it alone to ask whether a node has room for a pod. Absent: the plugin judges no room.
   */
  isRoomReason?(reason: string): boolean;
  /**
   * The pods the Filter counts for the pod only while they run (a terminating one does not count), as a
   * test of a pod's namespace and labels; null where it counts none. Where the drain evicts such a pod in
   * the pod's own wave, the order the scheduler meets the wave in decides what the Filter sees.
   */
  countsWhileRunning?(pod: PodInfo): ((namespace: string, labels: Readonly<Record<string, string>>) => boolean) | null;
  /**
   * The nodes whose drain may change what the plugin makes of the pod (its Filter, or its Score) otherwise
   * than by refusing it there: a cordon that drops a node from the domains it counts, a claim released
   * once no node outside the drain can use its allocation. Absent or empty: a drained node only refuses
   * the pod. Asked of a pending pod, whose schedule the simulations of a cluster state share as far as
   * their drained nodes cannot change it.
   */
  drainedNodesRead?(pod: PodInfo, cluster: ClusterState): readonly NodeInfo[];
}

/**
 * A score plugin as it declares itself to the profile (profile.ts gives its weight): each feasible node's
 * score after the plugin's NormalizeScore, 0…100, in the order of `feasible`; null where the plugin skips
 * the pod (PreScore's Skip: every node would score alike, nothing to add).
 */
export interface ScorePlugin {
  readonly name: string;
  score(
    pod: PodInfo,
    feasible: readonly NodeInfo[],
    state: CycleState,
    cluster: ClusterState,
  ): readonly number[] | null;
}

/**
 * Called for each pod the scheduler's cache holds (bound, not Succeeded or Failed) that matches: the
 * position of its node in `nodeInfos`, its labels, and whether it is terminating (deletionTimestamp set,
 * or evicted by this simulation). No object is made per pod: counts per node or domain need none.
 */
export type MatchVisitor = (at: number, labels: Readonly<Record<string, string>>, terminating: boolean) => void;

/** What the PreFilter steps read from the cluster: built once per simulation, updated by each placement. */
export interface ClusterState {
  readonly nodeInfos: readonly NodeInfo[];
  nodeInfo(name: string): NodeInfo | undefined;
  /** Visits the assigned pods of a namespace whose labels match a selector (placed replacements included). */
  forEachMatch(namespace: string, selector: V1LabelSelector, each: MatchVisitor): void;
  /** forEachMatch's pods that are not terminating, each given as the position of its node in `nodeInfos`. */
  forEachRunningMatch(namespace: string, selector: V1LabelSelector, each: (at: number) => void): void;
  /** Every namespace that has pods, for affinity terms with `namespaceSelector: {}`. */
  namespaces(): Iterable<string>;
  /**
   * Required anti-affinity terms of assigned pods (terminating ones included: they still count) that may
   * match a pod of this namespace with these labels; a superset, each to be checked with termMatches.
   */
  antiAffinityTermsFor(namespace: string, labels: Readonly<Record<string, string>>): readonly ExistingTerm[];
  /**
   * The terms of assigned pods InterPodAffinity's score reads (preferred terms, required affinity; each
   * term a WeightedTerm) that may match a pod of this namespace with these labels; a superset, each to be
   * checked with termMatches.
   */
  scoringTermsFor(namespace: string, labels: Readonly<Record<string, string>>): readonly ExistingTerm[];
  /** The snapshot the state was built from: its controllers and Services, for the default spread selector. */
  readonly snapshot: Snapshot;
  /** Records an approximation the plan should mention (for instance a namespaceSelector it could not resolve). */
  caveat(text: string): void;
  /**
   * PreFilter work that reads only the nodes (labels, taints) and the pod's spec, kept under `key` for
   * the rest of the simulation: nodes do not change within it, only the pods on them do.
   */
  memo<T>(key: string, compute: () => T): T;
  /**
   * Work that reads only the cluster state's nodes (`nodes`: as the snapshot has them, no drained node
   * cordoned) and the pod's spec, kept under `key` for every simulation of the state. What the drain
   * changes is then applied from `drainedNodeInfos`.
   */
  stateMemo<T>(key: string, compute: (nodes: readonly NodeInfo[]) => T): T;
  /** The drained nodes, cordoned, as this simulation sees them. */
  readonly drainedNodeInfos: readonly NodeInfo[];
  /** The snapshot's pods of a namespace that the scheduler's cache holds (bound to a node, not Succeeded or Failed). */
  assignedPodsInNamespace(namespace: string): readonly V1Pod[];
  /** The snapshot's pods on the node that are not Succeeded or Failed. */
  assignedPodsOnNode(name: string): readonly V1Pod[];
  /** The replacements this simulation committed, in order, with their nodes (those preemption deleted included). */
  readonly placed: readonly { readonly pod: PodInfo; readonly node: NodeInfo }[];
  /** Whether the pod still counts: not deleted by preemption, hidden by a dry run, or evicted and gone. */
  counts(uid: string): boolean;
  /**
   * A plugin's own record of this simulation (what its Reserve committed): made by `make` on first use,
   * kept under `owner`; a copy of the simulation (fork) starts from `copy` of it.
   */
  store<T>(owner: object, make: () => T, copy: (kept: T) => T): T;
  /** Whether the evicted pods are taken as gone for the moment (see SimulatedCluster.withEvictedGone). */
  readonly evictedGone: boolean;
  /** Whether the simulation evicted the pod, whether or not the scheduler sees it yet. */
  wasEvicted(uid: string): boolean;
}
