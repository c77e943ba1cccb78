import type { V1Pod } from '@kubernetes/client-node';
import type { ClusterIndex } from '../../snapshot/cluster-index.js';
import { budgetKey, type BudgetKey } from '../budgets.js';
import { controllerOf } from '../controller.js';
import type { PreemptionPlan, PreemptionVictim, ReplacementPlan } from '../types.js';
import { type NodePod, SimulatedCluster } from './cluster-state.js';
import { counts, type PreemptionBudget, splitByBudgetViolation } from './pdb-violation.js';
import { type ChosenPreemption, type DryRun, dryRunPreemption } from './preemption.js';
import { failedSchedulingMessage, type NodeRejected } from './failed-scheduling.js';
import { type CycleState, type PluginState, type Rejection, unresolvable } from './framework.js';
import type { NodeInfo } from './node-info.js';
import { pickNode } from './placement-score.js';
import { type PodInfo, podInfo } from './pod-info.js';
import { pendingPods, replacementQueue, schedulingGatesOf } from './scheduling-queue.js';
import {
  type AloneOutcome,
  type OrderReplay,
  ROOM_CHOICE_UNKNOWN,
  type WaveFinding,
  WaveOrder,
  type WavePlacer,
  withFinding,
} from './wave-order.js';
import { controllerRef } from '../pod-facts.js';
import {
  drainedNodesRead,
  NODE_OBJECT_FILTERS,
  narrowings,
  nodeObjectFiltersKey,
  preFilter,
  reserve,
  runFilters,
  runPodFilters,
  unknownAnswer,
} from './registry.js';

export { UNMODELLED_SCHEDULER_RULES } from './unmodelled.js';
export {
  AFFINITY_RACE_UNKNOWN,
  EVICTION_RACE_UNKNOWN,
  REPLACEMENT_ORDER_UNKNOWN,
  ROOM_CHOICE_UNKNOWN,
} from './wave-order.js';

/**
 * Which replacement plans list the nodes that refused them (ReplacementPlan.rejected): `all`, as `plan`
 * shows them; `unplaced`, only those that find no node or preempt, the only lists the simulation reads
 * back (WaveOrder's refusedOnlyForRoomOf). The audit, which keeps a plan's findings and none of its node
 * lists, plans with `unplaced`: listing the few hundred nodes each placement checked costs it about a tenth
 * of its time a node on a 1,500-node cluster.
 */
export type RejectedNodes = 'all' | 'unplaced';

/** A victim whose replacement is filled in once placed (see settleRound). */
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
 * Why a preempting replacement's victims are unknown when they depend on a budget whose spending by the
 * drain the API server may admit later (see SchedulingSimulation.sparedForALateEviction).
 */
export const PREEMPTION_BUDGET_UNKNOWN =
  "its preemption spares a budget's pods because an eviction of its wave spent that budget, and the API server may admit that eviction only after kube-scheduler preempts: it may then delete one of those pods instead";

/** A plan that a retry rewrites once preemption frees room (see retryUnplaced). */
type MutablePlan = { -readonly [K in keyof ReplacementPlan]: ReplacementPlan[K] };

/**
 * Not the scheduler's wording: a drained node that passes every modelled filter (the pod tolerates the
 * cordon) is still refused, because the question is whether the replacement finds room elsewhere.
 */
export const DRAINED_NODE_REASON = 'node(s) are being drained';

interface Attempt {
  readonly state: CycleState;
  readonly feasible: readonly NodeInfo[];
  /** The nodes checked that refused the pod, with why (empty where the attempt was not asked to list them). */
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
 * Per position in the cluster's node list, a verdict kept for every simulation of the cluster state once
 * known (NODE_OBJECT_FILTERS', or NodeResourcesFit's for some requests, see attempt), and on a node of the
 * state it rejects, the entry of the attempt's rejected nodes that says so: made once, not by every
 * placement that meets the node (hundreds per placement, dozens of placements per node's plan).
 */
interface NodeVerdicts {
  readonly verdicts: Array<Rejection | null | undefined>;
  readonly entries: Array<NodeRejected | undefined>;
  /**
   * NODE_OBJECT_FILTERS' (these verdicts) and then NodeResourcesFit's (the key's verdicts, see
   * stateFitVerdicts) on a node of the state, by position: the entry of the first that rejects, null when
   * both pass. One array read per node for a placement's walk over the state's nodes.
   */
  readonly withFit: Map<NodeVerdicts, Array<NodeRejected | null | undefined>>;
}

function nodeVerdicts(length: number): NodeVerdicts {
  return {
    verdicts: new Array<Rejection | null | undefined>(length),
    entries: new Array<NodeRejected | undefined>(length),
    withFit: new Map(),
  };
}

/** The kept verdicts of both, by position (see NodeVerdicts.withFit), made on first use. */
function withFitVerdicts(objects: NodeVerdicts, fit: NodeVerdicts, length: number) {
  let kept = objects.withFit.get(fit);
  if (!kept) objects.withFit.set(fit, (kept = new Array<NodeRejected | null | undefined>(length)));
  return kept;
}

/** NODE_OBJECT_FILTERS' verdict on the state's node at `at`, kept in `objectVerdicts` on first use. */
function objectVerdictAt(
  pod: PodInfo,
  node: NodeInfo,
  state: CycleState,
  at: number,
  objectVerdicts: NodeVerdicts,
): Rejection | null {
  let verdict = objectVerdicts.verdicts[at];
  if (verdict === undefined) verdict = objectVerdicts.verdicts[at] = runFilters(pod, node, state, NODE_OBJECT_FILTERS);
  return verdict;
}

/** The rejected entry of a state node whose kept verdict rejects the pod, with the plan's listing of it. */
function keptEntry(kept: NodeVerdicts, at: number, node: NodeInfo, rejection: Rejection): NodeRejected {
  return (kept.entries[at] ??= { node, rejection, listed: { node: node.name, reasons: rejection.reasons } });
}

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
  /** Victims whose controllers recreate them, waiting for `settleRound`. */
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
  /** The budgets the round spent by an eviction admitted late, with why (see ReplacementPlacer.budgetsAllow). */
  private budgetsSpentLate: ReadonlyMap<BudgetKey, string> = new Map();
  /** Pods whose replacements found no node so far (their plans are rewritten if a retry places them). */
  private readonly unplaced: V1Pod[] = [];
  /**
   * The plan of each replacement placed, as the wave-order findings have left it: a finding makes a new
   * plan (withFinding), and the one place() returned stays as it was.
   */
  private readonly plans = new Map<V1Pod, ReplacementPlan>();
  /** The pods whose plans a finding made anew since the round's last settleRound. */
  private readonly found = new Set<V1Pod>();
  /** A preemption deleted pods since the last retry of the unplaced replacements. */
  private roomFreed = false;
  /** Whether the current round's placements have started: the next eviction starts a new round. */
  private roundOpen = false;
  /** The wave-order rules' view of the current round (see wave-order.ts). */
  private wave: WaveOrder;
  /** The pending pods' schedule (see schedulePending), null when none is pending. */
  private readonly pendingSchedule: PendingSchedule | null;
  /** 1 at the position of each node this simulation drains (cordoned), by position in `nodeInfos`. */
  private readonly drainedPositions: Uint8Array;
  /** Which plans list the nodes that refused their replacement (see RejectedNodes). */
  private readonly rejectedNodes: RejectedNodes;

  constructor(index: ClusterIndex, drainedNodes: ReadonlySet<string>, rejectedNodes: RejectedNodes = 'all') {
    this.cluster = new SimulatedCluster(index, drainedNodes);
    this.index = index;
    this.drainedNodes = drainedNodes;
    this.rejectedNodes = rejectedNodes;
    this.drainedPositions = new Uint8Array(this.cluster.nodeInfos.length);
    for (const node of this.cluster.drainedNodeInfos) this.drainedPositions[node.position] = 1;
    this.wave = new WaveOrder(this.wavePlacer());
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
      changes(i, drainedNodesRead(info, this.cluster));
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
    this.wave.evicted(pod);
    this.cluster.evict(pod);
  }

  private nextRound(): void {
    this.wave.nextRound();
    this.roundOpen = false;
    for (const [key, n] of this.budgetsSpending) this.budgetsSpent.set(key, (this.budgetsSpent.get(key) ?? 0) + n);
    this.budgetsSpending.clear();
    // A late eviction races its own round's preemptions only; by the next round it is admitted or not.
    this.budgetsSpentLate = new Map();
  }

  /**
   * Tries to place a replacement copy of `pod` (no nodeName, fresh uid, same labels/spec) on nodes outside
   * the drained set; on success the replacement is committed (counted on its node for resources, ports,
   * affinity and spread) so later placements compete for the same room. One that fits nowhere may preempt
   * lower-priority pods (DefaultPreemption): they are deleted, and their own replacements are placed by
   * `settleRound`. One that finds no node is tried again when a preemption frees room (see retryUnplaced).
   */
  place(pod: V1Pod): ReplacementPlan {
    const mate = this.wave.mateOf(pod);
    if (!this.roundOpen) this.wave.open(this.cluster.placedCount);
    this.roundOpen = true;
    this.plans.set(pod, this.placeOnce(pod));
    if (mate) this.apply(this.wave.judge(mate, pod, this.plans.get(pod)!));
    // Returned with the findings on it: not one to hand back again.
    this.found.delete(pod);
    const plan = this.plans.get(pod)!;
    // One whose room another's placement decides is tried again too: room a preemption frees settles it.
    if (!plan.schedulable && (plan.unknown === undefined || plan.unknown === ROOM_CHOICE_UNKNOWN)) {
      this.unplaced.push(pod);
    }
    return plan;
  }

  /** Each finding's pod gets a new plan that says why its fate is unknown (see withFinding). */
  private apply(findings: readonly WaveFinding[]): void {
    for (const finding of findings) {
      this.plans.set(finding.pod, withFinding(this.plans.get(finding.pod)!, finding));
      this.found.add(finding.pod);
    }
  }

  /** What the wave-order rules ask of this simulation (see WavePlacer). */
  private wavePlacer(): WavePlacer {
    return {
      cluster: this.cluster,
      snapshot: this.index.snapshot,
      replacementOf: (pod) => this.replacementOf(pod),
      tryAlone: (replacement, preempts) => this.tryAlone(replacement, preempts),
      queueOrder: (pods) => this.queueOrder(pods),
      passesOn: (replacement, name) => {
        const node = this.cluster.nodeInfo(name);
        if (!node || this.drainedNodes.has(name)) return false;
        const state = preFilter(replacement, this.cluster);
        return state.rejection === null && runFilters(replacement, node, state) === null;
      },
      fork: () => this.replayOf(this.fork()),
    };
  }

  /** A copy of this simulation as the wave-order rules use it (OrderReplay), and the copies made from it. */
  private replayOf(copy: SchedulingSimulation): OrderReplay {
    return {
      placeOnce: (pod) => copy.placeOnce(pod),
      fitsOn: (pod, node) => copy.fitsOn(pod, node),
      tryAloneUnseen: (replacement, unseen, preempts) => {
        const outcome = copy.cluster.withEvictionsUnseen(unseen, () => copy.tryAlone(replacement, preempts));
        for (const caveat of copy.cluster.caveats) this.cluster.caveat(caveat);
        return outcome;
      },
      fork: () => this.replayOf(copy.fork()),
    };
  }

  /** The placement of the replacement now, nothing committed (see WavePlacer.tryAlone). */
  private tryAlone(replacement: PodInfo, preempts: boolean): AloneOutcome {
    const start = this.nextStart;
    try {
      // The nodes' reasons are read only by a preemption's dry run.
      const attempt = this.attempt(replacement, preempts);
      if (attempt.placedOn) return { fate: 'fits', node: attempt.placedOn.name };
      const run = preempts ? this.dryRun(replacement, attempt) : null;
      return run?.chosen ? { fate: 'preempts', node: run.chosen.node } : { fate: 'none', node: null };
    } finally {
      this.nextStart = start;
    }
  }

  /**
   * A copy of the simulation to place the round's replacements again in another order; nothing it does
   * reaches this one. Only the placements' state is copied: the round's checks are not run there.
   */
  private fork(): SchedulingSimulation {
    const copy = Object.create(SchedulingSimulation.prototype) as SchedulingSimulation;
    Object.assign(copy, this, {
      cluster: this.cluster.fork(),
      preempted: [],
      budgetsSpent: new Map(this.budgetsSpent),
      budgetsSpending: new Map(this.budgetsSpending),
      unplaced: [],
      plans: new Map(),
      found: new Set(),
    });
    copy.wave = new WaveOrder(copy.wavePlacer());
    return copy;
  }

  /** Commits the replacement of `pod` on that node if it passes the filters there (see WaveOrder.checkOrder). */
  private fitsOn(pod: V1Pod, name: string): boolean {
    const replacement = podInfo(this.replacementOf(pod), this.index.snapshot);
    const node = this.cluster.nodeInfo(name);
    const state = preFilter(replacement, this.cluster);
    if (!node || state.rejection || runFilters(replacement, node, state) !== null) return false;
    this.commit(replacement, node, state);
    return true;
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
   * Ends the round's placements: judges the order its own replacements were met in (see
   * WaveOrder.checkOrder, checkMetAfter, checkRoomAtEnd), then places the replacements of the pods
   * preemption deleted since the last call, higher priority first (the queue's order), each of which may
   * preempt in turn, and fills in each victim's `replacement`. Returns, by evicted pod, the new plan of
   * each replacement whose fate the round's findings called unknown after place() returned its plan: the
   * plan returned is not changed.
   */
  settleRound(): ReadonlyMap<V1Pod, ReplacementPlan> {
    // The round's own replacements are all placed: the order they were met in is judged before the
    // victims' replacements are placed.
    this.apply(this.wave.checkOrder());
    this.apply(this.wave.checkNominationsTaken());
    this.apply(this.wave.checkMetAfter());
    this.apply(this.wave.checkRoomAtEnd());
    // The victims' replacements are placed in the same round, without the race check of its evicted pods'.
    this.wave.victimsNext();
    this.roundOpen = true;
    while (this.preempted.length > 0 || this.roomFreed) {
      const batch = this.preempted.splice(0).sort((a, b) => b.victim.priority - a.victim.priority);
      for (const { victim, plan } of batch) plan.replacement = this.place(victim.pod);
      if (this.preempted.length === 0) this.retryUnplaced();
    }
    const settled = new Map([...this.found].map((pod) => [pod, this.plans.get(pod)!]));
    this.found.clear();
    return settled;
  }

  /**
   * The scheduler moves the pods it could not place back to its active queue when a pod is deleted (the
   * queueing hints of NodeResourcesFit, InterPodAffinity, PodTopologySpread…): once a preemption has
   * deleted its victims, every replacement still without a node is tried again, higher priority first.
   * One that now finds a node (or preempts) is reported as such: its latest plan (see settleRound) is
   * rewritten in place, wherever the plan holds it (a drained pod's replacement, a victim's), in this
   * round or an earlier one.
   */
  private retryUnplaced(): void {
    if (!this.roomFreed) return;
    this.roomFreed = false;
    const priority = (pod: V1Pod) => podInfo(pod, this.index.snapshot).priority;
    const waiting = this.unplaced.splice(0).sort((a, b) => priority(b) - priority(a));
    for (const pod of waiting) {
      const again = this.placeOnce(pod);
      if (!again.schedulable) {
        this.unplaced.push(pod);
        continue;
      }
      const plan = this.plans.get(pod) as MutablePlan;
      for (const key of Object.keys(plan)) delete plan[key as keyof MutablePlan];
      Object.assign(plan, again);
    }
  }

  /** DefaultPreemption's dry run for a failed attempt (see dryRunPreemption). */
  private dryRun(pod: PodInfo, attempt: Attempt): DryRun {
    const budgets = this.preemptionBudgets();
    return dryRunPreemption(pod, attempt.state, attempt.rejected, this.cluster, budgets, this.drainedNodes);
  }

  /** The drain's budgets as the current round of evictions left them (see ReplacementPlacer.budgetsAllow). */
  budgetsAllow(allowed: ReadonlyMap<BudgetKey, number>, spentLate: ReadonlyMap<BudgetKey, string> = new Map()): void {
    this.drainBudgetsAllow = allowed;
    this.budgetsSpentLate = spentLate;
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
    const spared = this.budgetsSpared(pod, node, run.chosen.victims, budgets);
    this.cluster.preempt(node, run.chosen.victims);
    this.roomFreed = true;
    this.commit(pod, node, state);
    return {
      node: node.name,
      victims,
      budgetsBroken: [...broken].sort(),
      tiedWith: run.tiedWith,
      ...(spared.length > 0 ? { budgetsSpared: spared } : {}),
    };
  }

  /**
   * What its message says of a preemption that spares a budget's pods only because an eviction of its
   * round spent that budget, when the API server may admit that eviction only after kube-scheduler has
   * preempted (ReplacementPlacer.budgetsAllow's `spentLate`): then the preemption meets the budget with
   * room and may delete one of those pods instead (PREEMPTION_BUDGET_UNKNOWN); null otherwise. Taught by
   * seed 9934 (test/fixtures/fidelity/seed-9934.json).
   */
  private sparedForALateEviction(preemption: PreemptionPlan): string | null {
    const budget = preemption.budgetsSpared?.find((key) => this.budgetsSpentLate.has(key));
    if (budget === undefined) return null;
    return `Which pods it preempts is not known: it spares the pods of budget ${budget} on ${preemption.node} because ${this.budgetsSpentLate.get(budget)!}.`;
  }

  /**
   * The budgets of the node's lower-priority pods that the preemption leaves although it could delete
   * them, because their deletion would break the budget as the drain's evictions left it (see
   * PreemptionPlan.budgetsSpared).
   */
  private budgetsSpared(
    pod: PodInfo,
    node: NodeInfo,
    victims: readonly NodePod[],
    budgets: readonly PreemptionBudget[],
  ): BudgetKey[] {
    const chosen = new Set(victims.map((v) => v.uid));
    const spared = new Set<BudgetKey>();
    for (const other of this.cluster.podsOn(node)) {
      if (other.priority >= pod.priority || chosen.has(other.uid)) continue;
      for (const b of budgets) if (b.allowed <= 0 && counts(b, other)) spared.add(b.key);
    }
    return [...spared].sort();
  }

  /**
   * Runs the filters on the nodes, from `nextStart` round the list, until enough pass or every node has
   * been checked, and picks a node among those that pass; commits nothing. Without `rejections`, the
   * rejected nodes are not listed (`rejected` is empty): for a caller that reads only where the pod goes.
   */
  private attempt(pod: PodInfo, rejections = true): Attempt {
    const state = preFilter(pod, this.cluster);
    const nodes = this.cluster.nodeInfos;
    const preFilterRejection = state.rejection;
    if (preFilterRejection) {
      const rejected = nodes.map((node) => ({ node, rejection: preFilterRejection }));
      const preFilterMessage = preFilterRejection.reasons.join(', ');
      return { state, feasible: [], rejected, placedOn: null, tiedWith: [], checked: nodes.length, preFilterMessage };
    }
    const objectVerdicts = this.cluster.stateMemo(`node-object-filters\u0000${nodeObjectFiltersKey(pod)}`, () =>
      nodeVerdicts(nodes.length),
    );
    const fit = this.stateFitVerdicts(state);
    const withFit = fit && withFitVerdicts(objectVerdicts, fit.kept, nodes.length);
    const wanted = feasibleNodesToFind(nodes.length);
    const feasible: NodeInfo[] = [];
    const rejected: NodeRejected[] = [];
    let checked = 0;
    const stateNodes = this.cluster.stateNodeInfos;
    const drained = this.drainedPositions;
    // Round the list from nextStart; `at` wraps by a comparison, not a division per node.
    for (let at = this.nextStart; checked < nodes.length && feasible.length < wanted; checked++, at++) {
      if (at === nodes.length) at = 0;
      const node = nodes[at]!;
      // Whether this simulation has its own view of the node: only the positions are compared, so that a
      // node a cached verdict rejects is not read at all.
      const unchanged = node === stateNodes[at];
      if (unchanged && withFit) {
        // A node of the state: NODE_OBJECT_FILTERS' verdict, kept for every pod with the same tolerations
        // and node selector/affinity, and NodeResourcesFit's, kept for the same requests
        // (stateFitVerdicts), read at once; the other filters of pods run every time.
        let entry = withFit[at];
        if (entry === undefined) entry = withFit[at] = this.keptVerdicts(pod, node, state, at, objectVerdicts, fit!);
        if (entry !== null) {
          if (rejections) rejected.push(entry);
          continue;
        }
        const rejection = runPodFilters(pod, node, state, 1);
        if (!rejection) feasible.push(node);
        else if (rejections) rejected.push({ node, rejection });
        continue;
      }
      let rejection: Rejection | null;
      // Where the rejection is a kept verdict on a node of the state: its rejected entry is kept too.
      let kept: NodeVerdicts | null = null;
      if (unchanged || drained[at] === 0) {
        // Not cordoned by this drain: NODE_OBJECT_FILTERS' verdict is the state's; on a node this
        // simulation changed (or with no kept verdict of the first pod filter), every filter of pods runs.
        const verdict = objectVerdictAt(pod, node, state, at, objectVerdicts);
        if (verdict && unchanged) kept = objectVerdicts;
        rejection = verdict ?? runPodFilters(pod, node, state);
      } else {
        rejection = this.filterDrained(pod, node, state);
      }
      if (!rejection) feasible.push(node);
      else if (rejections) rejected.push(kept ? keptEntry(kept, at, node, rejection) : { node, rejection });
    }
    if (nodes.length > 0) this.nextStart = (this.nextStart + checked) % nodes.length;
    const { node: placedOn, tiedWith } = pickNode(pod, feasible, state, this.cluster);
    return { state, feasible, rejected, placedOn, tiedWith, checked };
  }

  /**
   * On a node of the state, the rejected entry of the first of NODE_OBJECT_FILTERS' and the first pod
   * filter's kept verdicts that rejects the pod, each worked out and kept on first use; null when both pass.
   */
  private keptVerdicts(
    pod: PodInfo,
    node: NodeInfo,
    state: CycleState,
    at: number,
    objectVerdicts: NodeVerdicts,
    fit: { first: PluginState; kept: NodeVerdicts },
  ): NodeRejected | null {
    const verdict = objectVerdictAt(pod, node, state, at, objectVerdicts);
    if (verdict) return keptEntry(objectVerdicts, at, node, verdict);
    let fits = fit.kept.verdicts[at];
    if (fits === undefined) fits = fit.kept.verdicts[at] = fit.first.plugin.filter(pod, node, fit.first.state);
    return fits ? keptEntry(fit.kept, at, node, fits) : null;
  }

  /**
   * When the cycle's first pod filter says its verdict on a node is shared (FilterPlugin.sharedVerdictKey,
   * NodeResourcesFit's): its verdicts on the state's nodes for that key, kept for every simulation of the
   * state. On a node no simulation has changed it reads only that node's sums and the key (the requests),
   * and the pods of a cluster share few distinct requests.
   */
  private stateFitVerdicts(state: CycleState): { first: PluginState; kept: NodeVerdicts } | null {
    const first = state.podFilters[0];
    const key = first?.plugin.sharedVerdictKey?.(first.state);
    if (!first || key === undefined) return null;
    const kept = this.cluster.stateMemo(`filter-verdicts\u0000${first.plugin.name}\u0000${key}`, (nodes) =>
      nodeVerdicts(nodes.length),
    );
    return { first, kept };
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
    const rejections =
      attempt.placedOn && this.rejectedNodes === 'unplaced'
        ? []
        : rejected.map((r) => r.listed ?? { node: r.node.name, reasons: r.rejection.reasons });
    if (run?.chosen) {
      const preemption = this.preempt(pod, attempt.state, run);
      const late = this.sparedForALateEviction(preemption);
      const unknown =
        this.unknownPlacement(attempt.state, this.cluster.nodeInfo(preemption.node)!, gates) ??
        (late && PREEMPTION_BUDGET_UNKNOWN);
      const fit = failedSchedulingMessage(total, rejected, '', attempt.preFilterMessage).trimEnd();
      const doubt = late ? ` ${late}` : '';
      return {
        schedulable: true,
        nodes: [],
        placedOn: unknown === null ? preemption.node : null,
        rejected: rejections,
        message: `${fit} ${preemptionText(preemption)}${doubt}`,
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
    reserve(state, node, this.cluster);
    this.cluster.commit(pod, node);
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
