import type { V1Pod } from '@kubernetes/client-node';
import type { ClusterIndex } from '../../snapshot/cluster-index.js';
import { budgetKey, type BudgetKey } from '../budgets.js';
import { controllerOf } from '../controller.js';
import type { PreemptionPlan, PreemptionVictim, ReplacementPlan } from '../types.js';
import { isEmptySelector, termMatches } from './affinity-term.js';
import { type NodePod, SimulatedCluster } from './cluster-state.js';
import { counts, type PreemptionBudget, splitByBudgetViolation } from './plugins/default-preemption.js';
import { type ChosenPreemption, type DryRun, dryRunPreemption } from './preemption.js';
import { failedSchedulingMessage, type NodeRejected } from './failed-scheduling.js';
import { type CycleState, type Rejection, unresolvable } from './framework.js';
import { NodeInfo } from './node-info.js';
import { pickNode } from './placement-score.js';
import { type PodInfo, podInfo } from './pod-info.js';
import {
  insufficientReason,
  nodeResourcesFit,
  nodeResourcesFitPlugin,
  nodeResourcesFitPreFilter,
  type ResourceRequest,
  TOO_MANY_PODS_REASON,
} from './plugins/node-resources-fit.js';
import { isLateReplacement, pendingPods, replacementQueue, schedulingGatesOf } from './scheduling-queue.js';
import { controllerRef } from '../pod-facts.js';
import { matchesLabelSelector } from '../../snapshot/label-selector.js';
import { spreadConstraints } from './plugins/topology-spread.js';
import {
  NODE_OBJECT_FILTERS,
  narrowings,
  nodeObjectFiltersKey,
  preFilter,
  reserve,
  runFilters,
  runPodFilters,
  unknownAnswer,
} from './registry.js';
import { requiredNodeAffinity } from './plugins/node-affinity.js';
import { UNSCHEDULABLE_TAINT, untoleratedDoNotScheduleTaint } from '../tolerations.js';

export { UNMODELLED_SCHEDULER_RULES } from './unmodelled.js';

/** A replacement's plan as retryUnplaced rewrites it. */
type MutablePlan = { -readonly [K in keyof ReplacementPlan]: ReplacementPlan[K] };

/** A victim whose replacement is filled in once placed (see placePreempted). */
type MutableVictim = { -readonly [K in keyof PreemptionVictim]: PreemptionVictim[K] };

/** "preemption: …" for a replacement that preempts: the victims, the node, the budgets broken, any tie. */
function preemptionText(p: PreemptionPlan): string {
  const victims = p.victims.map((v) => `${v.namespace}/${v.name} (priority ${v.priority})`).join(', ');
  const budgets = p.budgetsBroken.length > 0 ? `; that breaks budget ${p.budgetsBroken.join(', ')}` : '';
  const tie =
    p.tiedWith.length > 0
      ? ` ${[p.node, ...p.tiedWith].join(', ')} rank alike: kube-scheduler picks one of them at random.`
      : '';
  return `preemption: deletes ${victims} on ${p.node}${budgets}; the replacement is nominated to ${p.node} and runs there once they are gone.${tie}`;
}

/**
 * Why a replacement's fate is unknown when the order of the drain's concurrent evictions decides it (see
 * SchedulingSimulation.checkRace).
 */
export const EVICTION_RACE_UNKNOWN =
  "the drain evicts a wave's pods at once, and whether kube-scheduler meets this replacement before or after the wave's other evictions and replacements decides whether it finds a node, and which";

/**
 * Why a replacement's fate is unknown when where another replacement of its wave goes decides it (see
 * SchedulingSimulation.checkRoom).
 */
export const ROOM_CHOICE_UNKNOWN =
  "one of the wave's replacements could go to either of several nodes (they score alike and kube-scheduler picks one at random, or the order in which it meets the wave's replacements decides), and which it takes decides whether another finds room";

/**
 * Why a replacement's fate is unknown when its required pod affinity selects pods of its wave being
 * replaced (see SchedulingSimulation.checkAffinityRace).
 */
export const AFFINITY_RACE_UNKNOWN =
  'its required pod affinity selects pods of its wave being replaced, and whether kube-scheduler meets it while their old pods or their replacements count, or in between, decides whether it finds a node, and which';

/**
 * Why a replacement's fate is unknown when the order in which kube-scheduler meets a wave's StatefulSet
 * replacements and its other ones decides it (see SchedulingSimulation.checkOrder).
 */
export const REPLACEMENT_ORDER_UNKNOWN =
  "a StatefulSet's replacement is made once its pod is gone, and kube-scheduler may still meet it before the replacements the wave's other controllers made at once; which of them it meets first decides whether this replacement finds a node, and which";

/**
 * A replacement of the current round placed on a node where it could as well have gone elsewhere: nodes
 * that scored alike (tiedWith), or the one it would take met first (see placeFirst).
 */
interface Movable {
  readonly pod: V1Pod;
  readonly plan: MutablePlan;
  readonly info: PodInfo;
  readonly node: string;
  readonly elsewhere: readonly string[];
}

/** What becomes of a replacement: it fits on a node, it preempts, it finds no node. */
type Fate = 'fits' | 'preempts' | 'none';

/** A replacement of the current round, its plan, and the node the plan placed it on before any check. */
interface RoundPlan {
  readonly pod: V1Pod;
  readonly plan: MutablePlan;
  readonly node: string | null;
}

/** One pod of the current round of evictions, and what its replacement would meet as the round's first. */
interface RoundPod {
  readonly pod: V1Pod;
  /** Its replacement placed before any other of the round, the round's other evictions not seen yet. */
  first?: { readonly fate: Fate; readonly node: string | null };
  /** A DoNotSchedule topology spread constraint of the pod selects another pod of its round. */
  spreadsWithMates?: boolean;
}

function fateOf(plan: ReplacementPlan): Fate {
  return plan.preemption ? 'preempts' : plan.schedulable ? 'fits' : 'none';
}

/** A rejection for room alone: too little of a resource, or no pod slot left. */
function isRoomReason(reason: string): boolean {
  return reason === TOO_MANY_PODS_REASON || reason.startsWith(insufficientReason(''));
}

/** The nodes a movable replacement may take, the plan's first; a long list cut short. */
function nodesOf(m: Movable): string {
  const nodes = [m.node, ...m.elsewhere];
  const shown = nodes.slice(0, 5).join(', ');
  return nodes.length > 5 ? `${shown} and ${nodes.length - 5} more` : shown;
}

/**
 * Whether two placements of a replacement come to the same: both find a node or neither; the same
 * preemption (node, unless tied, and victims); the same node where the first had a single feasible one.
 * Which of several feasible nodes it takes is a score, not flagged (as in checkRace).
 */
function sameOutcome(a: ReplacementPlan, b: ReplacementPlan): boolean {
  if (a.schedulable !== b.schedulable) return false;
  const [p, q] = [a.preemption, b.preemption];
  if (p || q) {
    if (!p || !q) return false;
    if (p.node !== q.node) return p.tiedWith.includes(q.node) || q.tiedWith.includes(p.node);
    const victims = (x: PreemptionPlan) =>
      x.victims
        .map((v) => `${v.namespace}/${v.name}`)
        .sort()
        .join();
    return victims(p) === victims(q);
  }
  if (a.placedOn === b.placedOn || a.nodes.length !== 1) return true;
  return (
    (b.placedOn !== null && (a.tiedWith ?? []).includes(b.placedOn)) ||
    (a.placedOn !== null && (b.tiedWith ?? []).includes(a.placedOn))
  );
}

/** What becomes of a replacement, said after "it would". */
function outcomeText(plan: ReplacementPlan): string {
  if (plan.preemption) {
    const victims = plan.preemption.victims.map((v) => v.name).join(', ');
    return `preempt ${victims} on ${plan.preemption.node}`;
  }
  if (!plan.schedulable) return 'find no node';
  return plan.placedOn ? `go to ${plan.placedOn}` : 'find a node';
}

/** The plan names no node: its fate is unknown, for this reason (or the one it was unknown for already). */
function markUnknown(plan: MutablePlan, reason: string): void {
  plan.placedOn = null;
  plan.unknown ??= reason;
  delete plan.tiedWith;
}

/**
 * Not the scheduler's wording: a drained node that passes every modelled filter (the pod tolerates the
 * cordon) is still refused, because the question is whether the replacement finds room elsewhere.
 */
export const DRAINED_NODE_REASON = 'node(s) are being drained';

interface Attempt {
  readonly state: CycleState;
  readonly feasible: readonly NodeInfo[];
  readonly rejected: readonly NodeRejected[];
  readonly placedOn: NodeInfo | null;
  /** Feasible nodes that scored as high as `placedOn`: the scheduler's pick among them is random. */
  readonly tiedWith: readonly NodeInfo[];
  /** Nodes filtered: all of them unless the search stopped on finding enough feasible ones. */
  readonly checked: number;
  /** A PreFilter rejected every node with this message. */
  readonly preFilterMessage?: string;
}

/**
 * The pending pods' schedule in a simulation of the cluster state that drains no node, for the state's
 * other simulations to take as far as the nodes they drain cannot change it (see replayPending).
 */
interface PendingSchedule {
  /** Each pending pod in queue order, with the node it was placed on (by position) and its cycle state. */
  readonly pods: ReadonlyArray<{ readonly info: PodInfo; readonly placed: { at: number; state: CycleState } | null }>;
  /** Before each pending pod (and after the last): where placements start, the caveats met so far. */
  readonly nextStart: readonly number[];
  readonly caveats: ReadonlyArray<readonly string[]>;
  /** By node position, the first pending pod whose placement draining the node may change (pods.length: none). */
  readonly firstChanged: Int32Array;
}

/**
 * The nodes whose drain may change a pending pod's placement otherwise than by refusing it: every node
 * for a named resource claim that is allocated and that no pod uses (it is released when no node outside
 * the drain can use its allocation; a claim in use, or a template's, is not); for a topology spread
 * constraint that honours taints, each node it counts that the cordon's taint drops from its domains.
 */
function drainedNodesRead(pod: V1Pod, cluster: SimulatedCluster): readonly NodeInfo[] {
  const namespace = pod.metadata?.namespace ?? 'default';
  const released = (name: string) => {
    const status = cluster.dra.claim(namespace, name)?.status;
    return status?.allocation != null && (status.reservedFor ?? []).length === 0;
  };
  if ((pod.spec?.resourceClaims ?? []).some((c) => c.resourceClaimName && released(c.resourceClaimName))) {
    return cluster.nodeInfos;
  }
  const tolerations = pod.spec?.tolerations ?? [];
  const honours = (pod.spec?.topologySpreadConstraints ?? []).filter((c) => c.nodeTaintsPolicy === 'Honor');
  if (honours.length === 0 || untoleratedDoNotScheduleTaint([UNSCHEDULABLE_TAINT], tolerations) === undefined)
    return [];
  const affinity = requiredNodeAffinity(pod);
  return cluster.nodeInfos.filter(
    (node) =>
      untoleratedDoNotScheduleTaint(node.taints, tolerations) === undefined &&
      honours.some((c) => c.topologyKey in node.labels && (c.nodeAffinityPolicy === 'Ignore' || affinity(node))),
  );
}

/** Per position in the cluster's node list, the NODE_OBJECT_FILTERS verdict once known. */
type NodeVerdicts = Array<Rejection | null | undefined>;

/** kube-scheduler's floor: below this many nodes every node is checked (schedule_one.go, v1.37). */
const MIN_FEASIBLE_NODES_TO_FIND = 100;
/** …and the least share of a large cluster it looks for, in percent. */
const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;

/**
 * `numFeasibleNodesToFind` with the default `percentageOfNodesToScore` (0, adaptive): the scheduler stops
 * filtering once it has found this many feasible nodes, and scores only those. Every node of a cluster
 * under 100 nodes; 50 % minus 1 % per 125 nodes of a larger one (at least 5 %), and never under 100:
 * 230 of 500 nodes, 500 of 5,000.
 */
export function feasibleNodesToFind(allNodes: number): number {
  if (allNodes < MIN_FEASIBLE_NODES_TO_FIND) return allNodes;
  const percentage = Math.max(MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND, 50 - Math.trunc(allNodes / 125));
  return Math.max(MIN_FEASIBLE_NODES_TO_FIND, Math.trunc((allNodes * percentage) / 100));
}

/**
 * Answers, pod by pod, whether a controller's replacement for an evicted pod would pass the scheduler's
 * filters on a node outside the drained set, with the drained nodes cordoned. Per-node state (requests,
 * pod count, ports, pods with required anti-affinity) is built once per cluster state (SchedulerCache);
 * each placement then reads the label index for spread and affinity counts instead of scanning every
 * pod, and commits the replacement so later placements compete for the same room.
 *
 * Like kube-scheduler, a placement filters nodes from where the previous one stopped (round the node
 * list) and stops once it has found `feasibleNodesToFind` feasible nodes: on a large cluster the answer
 * to "can the replacement be placed" and the candidates it is scored among are the scheduler's own,
 * without filtering every node for every pod. A replacement that fits nowhere has checked every node.
 */
export class SchedulingSimulation {
  private readonly cluster: SimulatedCluster;
  private readonly index: ClusterIndex;
  private readonly drainedNodes: ReadonlySet<string>;
  /** Where the next placement starts filtering (`nextStartNodeIndex`). */
  private nextStart = 0;
  /** Victims whose controllers recreate them, waiting for `placePreempted`. */
  private readonly preempted: Array<{ readonly victim: NodePod; readonly plan: MutableVictim }> = [];
  /**
   * Per budget, how many of its pods preemption deleted in earlier rounds: the disruption controller has
   * counted them by the next round (a wave takes seconds), and lowered status.disruptionsAllowed.
   */
  private readonly budgetsSpent = new Map<BudgetKey, number>();
  /**
   * …and in this round: not yet counted. Preemption deletes its victims (no Eviction API, which would lower
   * the budget at once) and the scheduler goes on to the next pod without waiting for the deletions, so
   * the round's later preemptions read the budget's status without them.
   */
  private readonly budgetsSpending = new Map<BudgetKey, number>();
  private drainBudgetsAllow: ReadonlyMap<BudgetKey, number> = new Map();
  /** Replacements that found no node so far, each with the plan that says so (rewritten if a retry places it). */
  private readonly unplaced: Array<{ readonly pod: V1Pod; readonly plan: MutablePlan }> = [];
  /** A preemption deleted pods since the last retry of the unplaced replacements. */
  private roomFreed = false;
  /** The pods evicted together since the last round's placements (see checkRace). */
  private round: RoundPod[] = [];
  /** Whether the current round's placements have started: the next eviction starts a new round. */
  private roundOpen = false;
  /** `placedCount` when the current round's placements started (see checkAffinityRace). */
  private roundFrom = 0;
  /** The round's replacements placed so far by the filters, with their plans. */
  private roundPlaced: Array<{ readonly pod: V1Pod; readonly plan: MutablePlan; readonly node: string | null }> = [];
  /** The round's replacements that could have gone to other nodes (see checkRoom). */
  private movable: Movable[] = [];
  /**
   * For a round with StatefulSet replacements and others: the simulation as the round's placements
   * found it, and the round's replacements placed so far with their plans (see checkOrder).
   */
  private ordered: { readonly before: SchedulingSimulation; readonly placed: RoundPlan[] } | null = null;
  /** The pending pods' schedule (see schedulePending), null when none is pending. */
  private readonly pendingSchedule: PendingSchedule | null;

  constructor(index: ClusterIndex, drainedNodes: ReadonlySet<string>) {
    this.cluster = new SimulatedCluster(index, drainedNodes);
    this.index = index;
    this.drainedNodes = drainedNodes;
    const pending = pendingPods(index.snapshot);
    const from = pending.length > 0 ? this.replayPending(pending) : 0;
    this.pendingSchedule = pending.length > 0 ? this.schedulePending(pending, from) : null;
  }

  /**
   * The pods already waiting in the scheduler's queue take their room first, in its order: a nominated
   * pod on its nominated node when it passes the filters there (`evaluateNominatedNode`), any other
   * where a placement puts it. One that fits nowhere stays pending and holds nothing. Places them from
   * `from` on (the ones before are placed already, see replayPending), and returns their schedule.
   */
  private schedulePending(pending: readonly V1Pod[], from: number): PendingSchedule {
    const pods: Array<PendingSchedule['pods'][number]> = [];
    const [nextStart, caveats] = [[] as number[], [] as Array<readonly string[]>];
    const firstChanged = new Int32Array(this.cluster.nodeInfos.length).fill(pending.length);
    const changes = (i: number, nodes: readonly NodeInfo[]) => {
      for (const n of nodes) firstChanged[n.position] = Math.min(firstChanged[n.position]!, i);
    };
    for (let i = from; i < pending.length; i++) {
      const pod = pending[i]!;
      const info = podInfo(pod, this.index.snapshot);
      nextStart[i] = this.nextStart;
      caveats[i] = this.cluster.caveats;
      changes(i, drainedNodesRead(pod, this.cluster));
      const nominated = this.cluster.nodeInfo(pod.status?.nominatedNodeName ?? '');
      if (nominated && !this.drainedNodes.has(nominated.name)) {
        const state = preFilter(info, this.cluster);
        if (!state.rejection && runFilters(info, nominated, state) === null) {
          this.commit(info, nominated, state);
          pods[i] = { info, placed: { at: nominated.position, state } };
          changes(i, [nominated]);
          continue;
        }
      }
      const attempt = this.attempt(info);
      if (attempt.placedOn) this.commit(info, attempt.placedOn, attempt.state);
      pods[i] = { info, placed: attempt.placedOn && { at: attempt.placedOn.position, state: attempt.state } };
      if (attempt.placedOn) changes(i, attempt.feasible);
    }
    nextStart[pending.length] = this.nextStart;
    caveats[pending.length] = this.cluster.caveats;
    return { pods, nextStart, caveats, firstChanged };
  }

  /**
   * Takes the pending pods' schedule of the simulation of this cluster state that drains no node as
   * this simulation's, up to the first pod whose placement a node drained here may change; returns how
   * many pods it took. A drained node differs only by its cordon, which adds refusals and nothing else
   * those pods' filters and scores read (see drainedNodesRead): a pod placed meets the same nodes
   * passing, in the same order, so long as no drained node passed for it (or took it as its nominated
   * node), and then the same node is picked, the same room taken; a pod placed nowhere was refused by
   * every node, and is here too. That schedule is worked out once per state, at its second simulation:
   * the audit and the pool plan run hundreds of them, `plan` one, which pays nothing for it.
   */
  private replayPending(pending: readonly V1Pod[]): number {
    const shared = this.cluster.stateMemo('pending-schedule', () => ({
      simulations: 0,
      schedule: null as PendingSchedule | null,
    }));
    if (++shared.simulations === 2) shared.schedule = new SchedulingSimulation(this.index, new Set()).pendingSchedule;
    const schedule = shared.schedule;
    if (!schedule) return 0;
    let from = pending.length;
    for (const node of this.cluster.drainedNodeInfos) from = Math.min(from, schedule.firstChanged[node.position]!);
    for (const { info, placed } of schedule.pods.slice(0, from)) {
      if (placed) this.commit(info, this.cluster.nodeInfos[placed.at]!, placed.state);
    }
    for (const caveat of schedule.caveats[from]!) this.cluster.caveat(caveat);
    this.nextStart = schedule.nextStart[from]!;
    return from;
  }

  /** Approximations met so far (namespaceSelector…), for the plan's caveats. */
  get caveats(): readonly string[] {
    return this.cluster.caveats;
  }

  /** One round's evicted pods in the order kube-scheduler meets their replacements (replacementQueue). */
  queueOrder(pods: readonly V1Pod[]): V1Pod[] {
    return replacementQueue(pods, this.index.snapshot);
  }

  /** The pod is being evicted: from now on it is terminating (not counted by topology spread; still holds its room on its node). */
  evict(pod: V1Pod): void {
    if (this.roundOpen) this.nextRound();
    this.round.push({ pod });
    this.cluster.evict(pod);
  }

  private nextRound(): void {
    [this.round, this.roundPlaced, this.movable, this.roundOpen, this.ordered] = [[], [], [], false, null];
    for (const [key, n] of this.budgetsSpending) this.budgetsSpent.set(key, (this.budgetsSpent.get(key) ?? 0) + n);
    this.budgetsSpending.clear();
  }

  /**
   * Tries to place a replacement copy of `pod` (no nodeName, fresh uid, same labels/spec) on nodes outside
   * the drained set; on success the replacement is committed (counted on its node for resources, ports,
   * affinity and spread) so later placements compete for the same room. One that fits nowhere may preempt
   * lower-priority pods (DefaultPreemption): they are deleted, and their own replacements are placed by
   * `placePreempted`. One that finds no node is tried again when a preemption frees room (see retryUnplaced).
   */
  place(pod: V1Pod): ReplacementPlan {
    const mate = this.round.length > 1 ? this.round.find((r) => r.pod === pod) : undefined;
    if (!this.roundOpen) this.roundFrom = this.cluster.placedCount;
    if (!this.roundOpen && this.round.length > 1) this.placeFirst();
    if (!this.roundOpen && this.holdsBothKinds()) this.ordered = { before: this.fork(), placed: [] };
    this.roundOpen = true;
    const plan = this.placeOnce(pod) as MutablePlan;
    if (mate) this.ordered?.placed.push({ pod, plan, node: plan.placedOn });
    if (mate) this.checkRace(mate, plan);
    if (mate) this.checkAffinityRace(pod, plan);
    if (mate) this.checkRoom(pod, plan, mate.first);
    // One whose room another's placement decides is tried again too: room a preemption frees settles it.
    if (!plan.schedulable && (plan.unknown === undefined || plan.unknown === ROOM_CHOICE_UNKNOWN)) {
      this.unplaced.push({ pod, plan });
    }
    return plan;
  }

  /**
   * Before any of a round's replacements is placed: what becomes of each as the round's first, the
   * round's other evictions not seen yet. The drain sends a round's evictions at once, and the scheduler
   * keeps up with them: any of the replacements may be the first it meets, while the others' pods still
   * run. Nothing committed; asked only of a pod whose topology spread counts another pod of its round,
   * or of a round of several workloads (they compete for room).
   */
  private placeFirst(): void {
    const start = this.nextStart;
    const owners = new Set(this.round.map((r) => controllerRef(r.pod)?.uid));
    for (const mate of this.round) {
      mate.spreadsWithMates = this.spreadCountsMate(mate);
      if (!mate.spreadsWithMates && owners.size < 2) continue;
      const others = new Set(this.round.filter((r) => r !== mate).map((r) => r.pod.metadata?.uid ?? ''));
      const replacement = podInfo(this.replacementOf(mate.pod), this.index.snapshot);
      mate.first = this.cluster.withEvictionsUnseen(others, () => {
        const attempt = this.attempt(replacement);
        if (attempt.placedOn) return { fate: 'fits' as const, node: attempt.placedOn.name };
        const run = mate.spreadsWithMates ? this.dryRun(replacement, attempt) : null;
        return run?.chosen
          ? { fate: 'preempts' as const, node: run.chosen.node }
          : { fate: 'none' as const, node: null };
      });
      this.nextStart = start;
    }
  }

  /**
   * Whether the order in which the scheduler meets a round's evictions and replacements decides what
   * becomes of this replacement (it fits, preempts, or finds no node): as the round's first, it would
   * fare otherwise than in the plan's order, because
   * - its DoNotSchedule topology spread counts another pod of the round, running or terminating as the
   *   race goes (terminating pods do not count); or
   * - a replacement of another workload, made at the same time (a StatefulSet's comes once its pod is
   *   gone, after the others), took in the plan's order the node it would fit on first; or
   * - it fits either way, but placed first it would take room on another node that such replacements,
   *   placed before it in the plan's order, need there (takesRoomFirst).
   * Then its plan says unknown (and so do those of the replacements it competes with), and the message
   * says what becomes of it as the round's first. Where it finds no node (or preempts) in the plan's order
   * but fits met first, the replacements placed before it on nodes it is refused only for the room they
   * took are unknown too: met before them, it may take that room (refusedOnlyForRoomOf).
   */
  private checkRace(mate: RoundPod, plan: MutablePlan): void {
    const first = mate.first;
    if (!first || plan.unknown !== undefined) return;
    const fate = fateOf(plan);
    // With the node it took: a later check may call its fate unknown and name none, but it took that room.
    if (fate === 'fits') this.roundPlaced.push({ pod: mate.pod, plan, node: plan.placedOn });
    const takesRoom = this.takesRoomFirst(mate.pod, plan, first);
    if (fate === first.fate && !takesRoom) return;
    const owner = controllerRef(mate.pod)?.uid;
    // A StatefulSet's replacement, made once its pod is gone, comes after the others' (replacementQueue).
    const late = isLateReplacement(mate.pod);
    const competitors =
      first.fate !== 'fits'
        ? []
        : this.roundPlaced.filter(
            (r) => r.node === first.node && controllerRef(r.pod)?.uid !== owner && isLateReplacement(r.pod) === late,
          );
    // Placed earlier on another node, which it finds too full only for the room they took there: met
    // before them (the round's replacements are made at about the same time), it may take that node.
    const rivals =
      first.fate !== 'fits' || fate === 'fits'
        ? []
        : this.roundPlaced.filter(
            (r) =>
              r.node !== first.node &&
              controllerRef(r.pod)?.uid !== owner &&
              isLateReplacement(r.pod) === late &&
              this.refusedOnlyForRoomOf(mate.pod, plan, r),
          );
    if (competitors.length === 0 && rivals.length === 0 && (takesRoom || !mate.spreadsWithMates)) return;
    const alone =
      first.fate === 'fits'
        ? `placed first, it would go to ${first.node}`
        : first.fate === 'preempts'
          ? `placed first, it would preempt on ${first.node}`
          : 'placed first, it would find no node';
    const takes = `the replacement of ${mate.pod.metadata?.name ?? ''}, placed first, would take ${first.node}`;
    const rival = (node: string | null) =>
      `the replacement of ${mate.pod.metadata?.name ?? ''}, met before it, could take ${node}`;
    const flagged = [
      { plan, why: alone },
      ...competitors.map((r) => ({ plan: r.plan, why: takes })),
      ...rivals.map((r) => ({ plan: r.plan, why: rival(r.node) })),
    ];
    for (const { plan: p, why } of flagged) {
      p.message = `${p.message} Where the scheduler meets it in its wave matters: ${why}.`;
      markUnknown(p, EVICTION_RACE_UNKNOWN);
    }
  }

  /**
   * Whether the replacement of `pod`, refused on the node an earlier replacement of its round took
   * (`placed`), is refused there only for room (resources, pod slots) and would fit without that one.
   */
  private refusedOnlyForRoomOf(
    pod: V1Pod,
    plan: ReplacementPlan,
    placed: { readonly pod: V1Pod; readonly node: string | null },
  ): boolean {
    const reasons = plan.rejected.find((r) => r.node === placed.node)?.reasons;
    const node = placed.node === null ? undefined : this.cluster.nodeInfo(placed.node);
    if (!node || !reasons?.every(isRoomReason)) return false;
    const without = NodeInfo.viewOf(node, false);
    without.removePod(podInfo(placed.pod, this.index.snapshot));
    return nodeResourcesFit(nodeResourcesFitPreFilter(podInfo(pod, this.index.snapshot)), without) === null;
  }

  /**
   * Whether this replacement, placed first, would take room that the round's replacements placed before
   * it in the plan's order need: it fits either way, but as the round's first it goes to another node,
   * which the earlier ones have left too small for it. The scheduler may meet it first (the round's
   * controllers make their replacements at once), and then one of those goes elsewhere, preempts, or
   * finds no node. Room only (resources and pod slots), as checkRoom.
   */
  private takesRoomFirst(pod: V1Pod, plan: MutablePlan, first: NonNullable<RoundPod['first']>): boolean {
    if (first.fate !== 'fits' || fateOf(plan) !== 'fits' || first.node === null || first.node === plan.placedOn)
      return false;
    const node = this.cluster.nodeInfo(first.node);
    if (!node) return false;
    return nodeResourcesFit(nodeResourcesFitPreFilter(podInfo(pod, this.index.snapshot)), node) !== null;
  }

  /**
   * Whether the room this replacement finds depends on where an earlier replacement of its round went,
   * when that one could as well have gone elsewhere (nodes that scored alike, among which kube-scheduler
   * picks at random; or the node it would take met first, see placeFirst):
   * - this one fits on a single node, and the earlier one, had it gone there, would have left too little
   *   room for both; or
   * - this one finds no node (or preempts), and on the earlier one's node it is refused only for room
   *   that node would have had without the earlier one.
   * Then both plans say unknown. Asked of the replacements of a round of several evictions. Room only
   * (resources and pod slots): what the earlier one's move does to spread and affinity counts is not
   * weighed. Then records this one, placed with other nodes as good, for the round's later replacements.
   */
  private checkRoom(pod: V1Pod, plan: MutablePlan, first: RoundPod['first']): void {
    if (plan.unknown !== undefined) return;
    const info = podInfo(pod, this.index.snapshot);
    const fate = fateOf(plan);
    const single = fate === 'fits' && plan.nodes.length === 1 ? this.cluster.nodeInfo(plan.nodes[0]!) : undefined;
    let movedBy: Movable[] = [];
    if (single) {
      // The replacement is counted on its node already: the earlier one would have had to fit beside it.
      movedBy = this.movable.filter(
        (m) =>
          m.elsewhere.includes(single.name) && nodeResourcesFit(nodeResourcesFitPreFilter(m.info), single) !== null,
      );
    } else if (fate !== 'fits') {
      movedBy = this.movable.filter((m) => this.refusedOnlyForRoomOf(pod, plan, m));
    }
    if (movedBy.length > 0) {
      const name = pod.metadata?.name ?? '';
      const where = movedBy.map((m) => `the replacement of ${m.pod.metadata?.name ?? ''} (${nodesOf(m)})`);
      plan.message = `${plan.message} Whether it finds room depends on where ${where.join(' and ')} goes.`;
      markUnknown(plan, ROOM_CHOICE_UNKNOWN);
      for (const m of movedBy) {
        if (m.plan.unknown !== undefined) continue;
        m.plan.message = `${m.plan.message} Where it goes (${nodesOf(m)}) decides whether the replacement of ${name} finds room.`;
        markUnknown(m.plan, ROOM_CHOICE_UNKNOWN);
      }
      return;
    }
    if (fate !== 'fits' || !plan.placedOn) return;
    const elsewhere = new Set(plan.tiedWith ?? []);
    if (first?.fate === 'fits' && first.node !== null && first.node !== plan.placedOn) elsewhere.add(first.node);
    if (elsewhere.size > 0) this.movable.push({ pod, plan, info, node: plan.placedOn, elsewhere: [...elsewhere] });
  }

  /**
   * Whether the order in which kube-scheduler meets this replacement and the pods of its round being
   * replaced that its required pod affinity selects decides what becomes of it. The plan counts them as
   * it places this one: their old pods terminating, or their replacements placed before it.
   * InterPodAffinity counts a terminating pod (not a deleted one), and a replacement from the moment the
   * scheduler picks its node (its cache assumes it before the binding); in between, they count nowhere.
   * Met then, it may fit elsewhere, preempt, or find no node. Where that differs from the plan, its plan
   * says unknown, with what becomes of it met then; except where it would find no node and the scheduler
   * tries it again once their replacements are bound: InterPodAffinity's queueing hint requeues a pod
   * whose affinity terms select an assigned pod that is added, but in v1.37 that hint does not read a
   * term's namespaceSelector, so a pod with a term that selects them only through one waits for the
   * periodic flush of unschedulable pods (5 minutes). Room only as the plan has it.
   */
  private checkAffinityRace(pod: V1Pod, plan: MutablePlan): void {
    if (plan.unknown !== undefined) return;
    if (!pod.spec?.affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.length) return;
    const replacement = podInfo(this.replacementOf(pod), this.index.snapshot);
    const terms = replacement.requiredAffinityTerms;
    const selected = (namespace: string, labels: Readonly<Record<string, string>>) =>
      terms.every((t) => termMatches(t, namespace, labels));
    const self = (namespace: string, name: string) => name === replacement.name && namespace === replacement.namespace;
    const mates = [
      ...this.round
        .map(({ pod: { metadata: m } }) => ({
          uid: m?.uid ?? '',
          name: m?.name ?? '',
          namespace: m?.namespace ?? 'default',
          labels: m?.labels ?? {},
        }))
        .filter((p) => !self(p.namespace, p.name) && selected(p.namespace, p.labels)),
      ...this.cluster
        .placedSince(this.roundFrom)
        .map((p) => p.pod)
        .filter((p) => !self(p.namespace, p.name) && selected(p.namespace, p.labels)),
    ];
    if (mates.length === 0) return;
    const start = this.nextStart;
    const between = this.cluster.withoutPods(new Set(mates.map((p) => p.uid)), () => {
      const attempt = this.attempt(replacement);
      if (attempt.placedOn) return { fate: 'fits' as const, node: attempt.placedOn.name };
      const run = this.dryRun(replacement, attempt);
      return run.chosen ? { fate: 'preempts' as const, node: run.chosen.node } : { fate: 'none' as const, node: null };
    });
    this.nextStart = start;
    if (between.fate === fateOf(plan)) return;
    const requeued = mates.some((p) => !this.selectsOnlyByNamespaceSelector(pod, p.namespace));
    if (between.fate === 'none' && requeued) return;
    const names = [...new Set(mates.map((p) => p.name))].join(', ');
    const fares =
      between.fate === 'fits'
        ? `it would go to ${between.node}`
        : between.fate === 'preempts'
          ? `it would preempt on ${between.node}`
          : 'it would find no node, and kube-scheduler tries it again only when it flushes its unschedulable pods (its affinity term has a namespaceSelector, which the queueing hint for an added pod does not read)';
    plan.message = `${plan.message} Where the scheduler meets it in its wave matters: its required pod affinity selects pods of its wave being replaced (${names}); met once their old pods are gone and before their replacements are placed, ${fares}.`;
    markUnknown(plan, AFFINITY_RACE_UNKNOWN);
  }

  /**
   * Whether a required affinity term of the pod selects pods of `namespace` only through a namespaceSelector
   * with requirements (not among its listed namespaces).
   */
  private selectsOnlyByNamespaceSelector(pod: V1Pod, namespace: string): boolean {
    const terms = pod.spec?.affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
    return terms.some(
      (t) =>
        t.namespaceSelector != null &&
        !isEmptySelector(t.namespaceSelector) &&
        !(t.namespaces ?? []).includes(namespace),
    );
  }

  /** Whether the round's evictions make both StatefulSet replacements and others (see checkOrder). */
  private holdsBothKinds(): boolean {
    const late = this.round.filter((r) => isLateReplacement(r.pod)).length;
    return late > 0 && late < this.round.length;
  }

  /**
   * A copy of the simulation to place the round's replacements again in another order; nothing it does
   * reaches this one. Only the placements' state is copied: the round's checks are not run there.
   */
  private fork(): SchedulingSimulation {
    const copy = Object.create(SchedulingSimulation.prototype) as SchedulingSimulation;
    return Object.assign(copy, this, {
      cluster: this.cluster.fork(),
      preempted: [],
      budgetsSpent: new Map(this.budgetsSpent),
      budgetsSpending: new Map(this.budgetsSpending),
      unplaced: [],
      round: [],
      roundPlaced: [],
      movable: [],
      ordered: null,
    });
  }

  /**
   * Whether the order in which the scheduler meets the round's StatefulSet replacements and its other
   * ones decides what becomes of a replacement. The plan meets a ReplicaSet's or Job's replacement first
   * (made as its pod starts terminating) and a StatefulSet's once its pod is gone (replacementQueue); but
   * a wave's evictions end at about the same time, and the scheduler may meet the StatefulSet's
   * replacement before the others are created or queued. The round is placed again from where it began,
   * its StatefulSet replacements first, then each other one on the node the plan gave it where it still
   * fits there (only those that do not are searched again: the cost is about one placement per
   * StatefulSet replacement): each replacement whose outcome differs there (see sameOutcome) is unknown,
   * and its message says what becomes of it in that order. Asked only of a round that holds both kinds.
   */
  private checkOrder(): void {
    const ordered = this.ordered;
    this.ordered = null;
    if (!ordered || ordered.placed.length < 2) return;
    const queue = this.queueOrder(ordered.placed.map((r) => r.pod));
    const late = queue.filter(isLateReplacement);
    if (late.length === 0 || late.length === queue.length) return;
    const before = ordered.before;
    const placed = new Map(ordered.placed.map((r) => [r.pod, r]));
    const other = new Map<V1Pod, ReplacementPlan | null>();
    for (const pod of late) other.set(pod, before.placeOnce(pod));
    for (const pod of queue.filter((p) => !isLateReplacement(p))) {
      // One that still fits on the node the plan gave it comes to the same there (null; a node it might
      // score higher is a score). Only the others are placed again: the search is the expensive part.
      const { plan, node } = placed.get(pod)!;
      const same = plan.schedulable && !plan.preemption && node !== null && before.fitsOn(pod, node);
      other.set(pod, same ? null : before.placeOnce(pod));
    }
    const names = late.map((p) => p.metadata?.name ?? '').join(', ');
    for (const { pod, plan } of ordered.placed) {
      const there = other.get(pod);
      if (plan.unknown !== undefined || !there || sameOutcome(plan, there)) continue;
      const when = isLateReplacement(pod)
        ? "met before the wave's other replacements"
        : `met after the replacement of ${names}`;
      plan.message = `${plan.message} Which of its wave's replacements the scheduler meets first matters: ${when}, it would ${outcomeText(there)}.`;
      markUnknown(plan, REPLACEMENT_ORDER_UNKNOWN);
    }
  }

  /** Commits the replacement of `pod` on that node if it passes the filters there (see checkOrder). */
  private fitsOn(pod: V1Pod, name: string): boolean {
    const replacement = podInfo(this.replacementOf(pod), this.index.snapshot);
    const node = this.cluster.nodeInfo(name);
    const state = preFilter(replacement, this.cluster);
    if (!node || state.rejection || runFilters(replacement, node, state) !== null) return false;
    this.commit(replacement, node, state);
    return true;
  }

  /** Whether a DoNotSchedule topology spread constraint of the pod selects another pod of its round. */
  private spreadCountsMate(mate: RoundPod): boolean {
    const info = podInfo(mate.pod, this.index.snapshot);
    const namespace = info.namespace;
    return spreadConstraints(info).some(
      (c) =>
        c.selector !== null &&
        this.round.some(
          (r) =>
            r !== mate &&
            (r.pod.metadata?.namespace ?? 'default') === namespace &&
            matchesLabelSelector(r.pod.metadata?.labels ?? {}, c.selector!),
        ),
    );
  }

  private placeOnce(pod: V1Pod): ReplacementPlan {
    const replacement = podInfo(this.replacementOf(pod), this.index.snapshot);
    const gates = this.templateGates(pod);
    const now = this.attempt(replacement);
    const first = now.placedOn ? null : this.dryRun(replacement, now);
    if (now.placedOn || first?.chosen || !this.cluster.hasEvicted) return this.report(replacement, now, gates, first);
    // The scheduler retries when the evicted pods are deleted: their required anti-affinity (and the
    // affinity they satisfied) no longer counts then. A replacement that fits only then waits, it is not stuck.
    const later = this.cluster.withEvictedGone(() => this.attempt(replacement));
    const second = later.placedOn ? null : this.cluster.withEvictedGone(() => this.dryRun(replacement, later));
    const plan = this.report(replacement, later, gates, second);
    if (!later.placedOn && !second?.chosen) return plan;
    const total = this.cluster.nodeInfos.length;
    const before = failedSchedulingMessage(total, now.rejected, first && !first.chosen ? first.message : '');
    return { ...plan, waitsForTermination: true, message: `${before} Once the evicted pods are gone: ${plan.message}` };
  }

  /**
   * Places the replacements of the pods preemption deleted since the last call, higher priority first (the
   * queue's order), each of which may preempt in turn; fills in each victim's `replacement`.
   */
  placePreempted(): void {
    // The round's own replacements are all placed: the order they were met in is judged before the
    // victims' replacements are placed.
    this.checkOrder();
    // The victims' replacements are placed in the same round, without the race check of its evicted pods'.
    [this.round, this.roundOpen, this.ordered] = [[], true, null];
    while (this.preempted.length > 0 || this.roomFreed) {
      const batch = this.preempted.splice(0).sort((a, b) => b.victim.priority - a.victim.priority);
      for (const { victim, plan } of batch) plan.replacement = this.place(victim.pod);
      if (this.preempted.length === 0) this.retryUnplaced();
    }
  }

  /**
   * The scheduler moves the pods it could not place back to its active queue when a pod is deleted (the
   * queueing hints of NodeResourcesFit, InterPodAffinity, PodTopologySpread…): once a preemption has
   * deleted its victims, every replacement still without a node is tried again, higher priority first.
   * One that now finds a node (or preempts) is reported as such: its plan is rewritten in place, wherever
   * the plan holds it (a drained pod's replacement, a victim's).
   */
  private retryUnplaced(): void {
    if (!this.roomFreed) return;
    this.roomFreed = false;
    const priority = (pod: V1Pod) => podInfo(pod, this.index.snapshot).priority;
    const waiting = this.unplaced.splice(0).sort((a, b) => priority(b.pod) - priority(a.pod));
    for (const entry of waiting) {
      const again = this.placeOnce(entry.pod);
      if (!again.schedulable) {
        this.unplaced.push(entry);
        continue;
      }
      for (const key of Object.keys(entry.plan)) delete entry.plan[key as keyof MutablePlan];
      Object.assign(entry.plan, again);
    }
  }

  /** DefaultPreemption's dry run for a failed attempt (see dryRunPreemption). */
  private dryRun(pod: PodInfo, attempt: Attempt): DryRun {
    const budgets = this.preemptionBudgets();
    return dryRunPreemption(pod, attempt.state, attempt.rejected, this.cluster, budgets, this.drainedNodes);
  }

  /** The drain's budgets as the current round of evictions left them (see ReplacementPlacer.budgetsAllow). */
  budgetsAllow(allowed: ReadonlyMap<BudgetKey, number>): void {
    this.drainBudgetsAllow = allowed;
  }

  /**
   * The budgets as preemption counts them: disruptionsAllowed (for the drain's own budgets, what its
   * evictions left), less what the preemptions of earlier rounds deleted (see budgetsSpending); with
   * `thisRound`, less this round's too: what the deletions really leave of each budget.
   */
  private preemptionBudgets(thisRound = false): PreemptionBudget[] {
    return this.index.snapshot.pdbs.map((pdb) => {
      const key = budgetKey(pdb.metadata?.namespace ?? 'default', pdb.metadata?.name ?? '');
      const allowed = this.drainBudgetsAllow.get(key) ?? pdb.status?.disruptionsAllowed ?? 0;
      const spent = (this.budgetsSpent.get(key) ?? 0) + (thisRound ? (this.budgetsSpending.get(key) ?? 0) : 0);
      return { key, pdb, allowed: allowed - spent };
    });
  }

  /** Deletes the chosen victims, nominates the pod to their node, and describes it. */
  private preempt(pod: PodInfo, state: CycleState, run: ChosenPreemption): PreemptionPlan {
    const node = this.cluster.nodeInfo(run.chosen.node)!;
    const broken = new Set<BudgetKey>();
    const budgets = this.preemptionBudgets();
    // The scheduler chose the victims without this round's earlier deletions; the budgets they break are
    // counted with them.
    const breaking = splitByBudgetViolation(run.chosen.victims, this.preemptionBudgets(true)).broken;
    const victims = run.chosen.victims.map((v): MutableVictim => {
      for (const b of budgets.filter((b) => counts(b, v))) {
        this.budgetsSpending.set(b.key, (this.budgetsSpending.get(b.key) ?? 0) + 1);
      }
      const breaks = breaking.get(v) ?? [];
      for (const key of breaks) broken.add(key);
      const controller = controllerOf(v.pod, this.index);
      const plan: MutableVictim = {
        namespace: v.namespace,
        name: v.name,
        node: node.name,
        priority: v.priority,
        budgetsBroken: breaks,
        controller: controller ? { kind: controller.kind, name: controller.name } : null,
        replacement: null,
      };
      if (controller?.recreates) this.preempted.push({ victim: v, plan });
      return plan;
    });
    this.cluster.preempt(node, run.chosen.victims);
    this.roomFreed = true;
    this.commit(pod, node, state);
    return { node: node.name, victims, budgetsBroken: [...broken].sort(), tiedWith: run.tiedWith };
  }

  /**
   * Runs the filters on the nodes, from `nextStart` round the list, until enough pass or every node has
   * been checked, and picks a node among those that pass; commits nothing.
   */
  private attempt(pod: PodInfo): Attempt {
    const state = preFilter(pod, this.cluster);
    const nodes = this.cluster.nodeInfos;
    const preFilterRejection = state.rejection;
    if (preFilterRejection) {
      const rejected = nodes.map((node) => ({ node, rejection: preFilterRejection }));
      const preFilterMessage = preFilterRejection.reasons.join(', ');
      return { state, feasible: [], rejected, placedOn: null, tiedWith: [], checked: nodes.length, preFilterMessage };
    }
    const nodeVerdicts = this.cluster.stateMemo(
      `node-object-filters\u0000${nodeObjectFiltersKey(pod)}`,
      (): NodeVerdicts => new Array<Rejection | null | undefined>(nodes.length),
    );
    const fit = this.stateFitVerdicts(state);
    const wanted = feasibleNodesToFind(nodes.length);
    const feasible: NodeInfo[] = [];
    const rejected: NodeRejected[] = [];
    let checked = 0;
    const stateNodes = this.cluster.stateNodeInfos;
    for (; checked < nodes.length && feasible.length < wanted; checked++) {
      const at = (this.nextStart + checked) % nodes.length;
      const node = nodes[at]!;
      let rejection: Rejection | null;
      if (node.node === stateNodes[at]!.node) {
        // Not cordoned by this drain: NODE_OBJECT_FILTERS' verdict is the state's, kept for every pod
        // with the same tolerations and node selector/affinity; on a node unchanged by this simulation,
        // so is NodeResourcesFit's for the same requests (stateFitVerdicts); the other filters of pods
        // run every time.
        let verdict = nodeVerdicts[at];
        if (verdict === undefined) verdict = nodeVerdicts[at] = runFilters(pod, node, state, NODE_OBJECT_FILTERS);
        if (verdict || !fit || node !== stateNodes[at]) rejection = verdict ?? runPodFilters(pod, node, state);
        else {
          let fits = fit.verdicts[at];
          if (fits === undefined) fits = fit.verdicts[at] = nodeResourcesFit(fit.requests, node);
          rejection = fits ?? runPodFilters(pod, node, state, 1);
        }
      } else {
        rejection = this.filterDrained(pod, node, state);
      }
      if (rejection) rejected.push({ node, rejection });
      else feasible.push(node);
    }
    if (nodes.length > 0) this.nextStart = (this.nextStart + checked) % nodes.length;
    const { node: placedOn, tiedWith } = pickNode(pod, feasible, state, this.cluster);
    return { state, feasible, rejected, placedOn, tiedWith, checked };
  }

  /**
   * When NodeResourcesFit is the cycle's first pod filter: its verdicts on the state's nodes for these
   * requests, kept for every simulation of the state. On a node no simulation has changed it reads only
   * that node's sums and the requests, and the pods of a cluster share few distinct requests.
   */
  private stateFitVerdicts(state: CycleState): { requests: readonly ResourceRequest[]; verdicts: NodeVerdicts } | null {
    const first = state.podFilters[0];
    if (first?.plugin !== nodeResourcesFitPlugin) return null;
    const requests = first.state as readonly ResourceRequest[];
    const verdicts = this.cluster.stateMemo(
      `node-resources-fit\u0000${JSON.stringify(requests)}`,
      (nodes): NodeVerdicts => new Array<Rejection | null | undefined>(nodes.length),
    );
    return { requests, verdicts };
  }

  /**
   * The scheduling gates of the pod template the controller recreates the pod from: the evicted pod's own
   * were removed before it was scheduled, its replacement starts with the template's.
   */
  private templateGates(pod: V1Pod): string[] {
    const ref = controllerRef(pod);
    if (!ref) return [];
    const owner = this.index.owner(ref.kind, pod.metadata?.namespace ?? 'default', ref.name);
    const spec = owner?.spec as { template?: { spec?: V1Pod['spec'] } } | undefined;
    return schedulingGatesOf(spec?.template?.spec);
  }

  /** Commits a successful attempt (or the preemption its dry run chose) and describes it. */
  private report(pod: PodInfo, attempt: Attempt, gates: readonly string[], run: DryRun | null): ReplacementPlan {
    const { feasible, rejected, checked } = attempt;
    const total = this.cluster.nodeInfos.length;
    const rejections = rejected.map((r) => ({ node: r.node.name, reasons: r.rejection.reasons }));
    if (run?.chosen) {
      const preemption = this.preempt(pod, attempt.state, run);
      const unknown = this.unknownPlacement(attempt.state, this.cluster.nodeInfo(preemption.node)!, gates);
      const fit = failedSchedulingMessage(total, rejected, '', attempt.preFilterMessage).trimEnd();
      return {
        schedulable: true,
        nodes: [],
        placedOn: unknown === null ? preemption.node : null,
        rejected: rejections,
        message: `${fit} ${preemptionText(preemption)}`,
        preemption,
        ...(unknown === null ? {} : { unknown }),
      };
    }
    const placedOn = attempt.placedOn;
    if (placedOn) this.commit(pod, placedOn, attempt.state);
    const stopped = checked < total;
    const available = stopped
      ? `${feasible.length}/${checked} nodes checked are available (on ${total} nodes the scheduler stops looking after ${feasible.length})`
      : `${feasible.length}/${total} nodes are available`;
    const unknown = placedOn ? this.unknownPlacement(attempt.state, placedOn, gates) : null;
    const pinned = placedOn ? [] : this.pinnedTo(attempt.state);
    return {
      schedulable: placedOn !== null,
      nodes: feasible.map((n) => n.name),
      // Where the volumes leave the outcome open, the plan names no node.
      placedOn: unknown === null ? (placedOn?.name ?? null) : null,
      rejected: rejections,
      message: placedOn
        ? unknown === null
          ? `${available}; the replacement would be assigned to ${placedOn.name}.`
          : `${available}; where the replacement runs is unknown: ${unknown}.`
        : failedSchedulingMessage(total, rejected, run && !run.chosen ? run.message : '', attempt.preFilterMessage),
      ...(placedOn && unknown === null && attempt.tiedWith.length > 0
        ? { tiedWith: attempt.tiedWith.map((n) => n.name) }
        : {}),
      ...(stopped ? { nodesChecked: checked } : {}),
      ...(pinned.length > 0 ? { untilNodeReturns: pinned } : {}),
      ...(unknown === null ? {} : { unknown }),
    };
  }

  /**
   * Why the placement's node is not the final answer, null when it is: scheduling gates on the template
   * (the scheduler waits for whoever removes them), then what the plugins say (see unknownAnswer: a
   * namespaceSelector not resolved, the volumes, the resource claims).
   */
  private unknownPlacement(state: CycleState, node: NodeInfo, gates: readonly string[]): string | null {
    if (gates.length > 0) {
      return `its pod template has scheduling gates (${gates.join(', ')}): kube-scheduler does not schedule it until they are removed`;
    }
    return unknownAnswer(state, node);
  }

  /** Commits a placement, with what the plugins' Reserve holds there (the devices of its resource claims). */
  private commit(pod: PodInfo, node: NodeInfo, state: CycleState): void {
    this.cluster.commit(pod, node, reserve(state, node));
  }

  /**
   * The drained nodes a replacement that found no node is held to by its own objects: its volumes (a
   * local PV on the drained node; a zonal disk whose zone has no other node with room) or its resource
   * claims (the devices it needs are there and on no other node) narrow the nodes it may use to some
   * that include drained ones. It has no node until one of them returns. Empty when nothing narrows them.
   */
  private pinnedTo(state: CycleState): string[] {
    const nodes = this.cluster.nodeInfos;
    const pinned = new Set<string>();
    for (const allows of narrowings(state)) {
      const allowed = nodes.filter(allows);
      if (allowed.length === nodes.length) continue;
      for (const node of allowed) if (this.drainedNodes.has(node.name)) pinned.add(node.name);
    }
    return [...pinned];
  }

  /** The filters on a node this drain cordoned (or a node changed some other way: every filter runs). */
  private filterDrained(pod: PodInfo, node: NodeInfo, state: CycleState): Rejection | null {
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
}
