import type { V1Pod } from '@kubernetes/client-node';
import type { Snapshot } from '../../snapshot/types.js';
import { someNames } from '../completeness.js';
import { controllerRef } from '../pod-facts.js';
import type { PreemptionPlan, ReplacementPlan } from '../types.js';
import { isEmptySelector, termMatches } from './affinity-term.js';
import type { SimulatedCluster } from './cluster-state.js';
import { NodeInfo } from './node-info.js';
import { type PodInfo, podInfo } from './pod-info.js';
import { countsWhileRunning, hasRoom, isRoomReason } from './registry.js';
import { isLateReplacement } from './scheduling-queue.js';

/**
 * Which of a wave's replacements have a fate that the order kube-scheduler meets the wave in decides: the
 * drain sends a wave's evictions at once, the controllers make the replacements at about the same time,
 * and the plan places them in one order of many. Each rule below places a replacement again in another
 * order the cluster may take (met first, met between its mates' old pods and their replacements, its
 * StatefulSet mates first) or weighs where an earlier one could as well have gone; where the answer
 * differs, it returns a finding: the evicted pod whose replacement's fate is unknown, why, and the
 * sentence its plan's message gains (withFinding builds that plan). No plan is changed: a pod found
 * unknown is remembered here, for the later rules of its round. Each rule says the fidelity seed that
 * taught it (docs/fidelity.md tells what the lab did there).
 */

/** The evicted pod whose replacement's fate is unknown: why (one of the reasons below), and what its message gains. */
export interface WaveFinding {
  readonly pod: V1Pod;
  readonly unknown: string;
  readonly note: string;
}

/**
 * The plan a finding leaves: its message gains the note, it names no node (nor nodes tied with one), and
 * its fate is unknown for the finding's reason, or the one it was unknown for already.
 */
export function withFinding(plan: ReplacementPlan, finding: WaveFinding): ReplacementPlan {
  const { tiedWith: _tied, ...rest } = plan;
  return {
    ...rest,
    message: `${plan.message} ${finding.note}`,
    placedOn: null,
    unknown: plan.unknown ?? finding.unknown,
  };
}

/** What becomes of a replacement placed alone under some condition (nothing committed). */
export interface AloneOutcome {
  readonly fate: Fate;
  readonly node: string | null;
}

/** A copy of the simulation from where the round began, to place its replacements again in another order. */
export interface OrderReplay {
  placeOnce(pod: V1Pod): ReplacementPlan;
  /** Commits the replacement of `pod` on that node if it passes the filters there. */
  fitsOn(pod: V1Pod, node: string): boolean;
  /**
   * WavePlacer.tryAlone there, these evictions not seen yet; the approximations it meets reach the
   * simulation's caveats, nothing else does.
   */
  tryAloneUnseen(replacement: PodInfo, unseen: ReadonlySet<string>, preempts: boolean): AloneOutcome;
  /** A copy of this copy as it is now; nothing it does reaches this one. */
  fork(): OrderReplay;
}

/** What the rules ask of the simulation. */
export interface WavePlacer {
  readonly cluster: SimulatedCluster;
  readonly snapshot: Snapshot;
  /** The pod as its controller would recreate it (same spec and labels, not bound, a new uid). */
  replacementOf(pod: V1Pod): V1Pod;
  /** The placement of the replacement now, nothing committed; a failed one's preemption dry run only if `preempts`. */
  tryAlone(replacement: PodInfo, preempts: boolean): AloneOutcome;
  /** The order kube-scheduler meets the replacements of these pods in (replacementQueue). */
  queueOrder(pods: readonly V1Pod[]): V1Pod[];
  /** A copy of the simulation as it is now; nothing it does reaches the simulation. */
  fork(): OrderReplay;
  /** Whether the replacement passes every filter on that node now (not drained), nothing committed. */
  passesOn(replacement: PodInfo, node: string): boolean;
}

/**
 * Why a replacement's fate is unknown when the order of the drain's concurrent evictions decides it (see
 * WaveOrder.checkRace).
 */
export const EVICTION_RACE_UNKNOWN =
  "the drain evicts a wave's pods at once, and whether kube-scheduler meets this replacement before or after the wave's other evictions and replacements decides whether it finds a node, and which";

/**
 * Why a replacement's fate is unknown when where another replacement of its wave goes decides it (see
 * WaveOrder.checkRoom).
 */
export const ROOM_CHOICE_UNKNOWN =
  "one of the wave's replacements could go to either of several nodes (they score alike and kube-scheduler picks one at random, or the order in which it meets the wave's replacements decides), and which it takes decides whether another finds room";

/**
 * Why a replacement's fate is unknown when its required pod affinity selects pods of its wave being
 * replaced (see WaveOrder.checkAffinityRace).
 */
export const AFFINITY_RACE_UNKNOWN =
  'its required pod affinity selects pods of its wave being replaced, and whether kube-scheduler meets it while their old pods or their replacements count, or in between, decides whether it finds a node, and which';

/**
 * Why a replacement's fate is unknown when the order in which kube-scheduler meets a wave's StatefulSet
 * replacements and its other ones decides it (see WaveOrder.checkOrder).
 */
export const REPLACEMENT_ORDER_UNKNOWN =
  "a StatefulSet's replacement is made once its pod is gone, and kube-scheduler may still meet it before the replacements the wave's other controllers made at once; which of them it meets first decides whether this replacement finds a node, and which";

/**
 * A replacement of the current round placed on a node where it could as well have gone elsewhere: nodes
 * that scored alike (tiedWith), or the one it would take met first (see WaveOrder.placeFirst).
 */
interface Movable {
  readonly pod: V1Pod;
  readonly plan: ReplacementPlan;
  readonly info: PodInfo;
  readonly node: string;
  /** The other nodes it could have taken, none if empty: worked out when a rule first asks (see RoundPod.first). */
  readonly elsewhere: () => readonly string[];
}

/** What becomes of a replacement: it fits on a node, it preempts, it finds no node. */
export type Fate = 'fits' | 'preempts' | 'none';

/** A replacement of the current round, its plan, and the node the plan placed it on before any check. */
interface RoundPlan {
  readonly pod: V1Pod;
  readonly plan: ReplacementPlan;
  readonly node: string | null;
}

/** One pod of the current round of evictions, and what its replacement would meet as the round's first. */
export interface RoundPod {
  readonly pod: V1Pod;
  /**
   * Its replacement placed before any other of the round, the round's other evictions not seen yet: in
   * the simulation as the round began, placed when a rule first asks (see placeFirst).
   */
  first?: () => AloneOutcome;
  /**
   * A filter counts another pod of its round for it only while that one runs (a DoNotSchedule topology
   * spread constraint selects it).
   */
  countsMatesRunning?: boolean;
}

/** `fn`, called once at most: its answer kept for the next calls. */
function once<T>(fn: () => T): () => T {
  let kept: { readonly value: T } | undefined;
  return () => (kept ??= { value: fn() }).value;
}

function fateOf(plan: ReplacementPlan): Fate {
  return plan.preemption ? 'preempts' : plan.schedulable ? 'fits' : 'none';
}

/** The nodes a movable replacement may take, the plan's first; a long list cut short. */
function nodesOf(m: Movable): string {
  return someNames([m.node, ...m.elsewhere()]);
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

/**
 * A replacement placed again as the plan placed it: committed on its node where it still fits there (null:
 * it comes to the same; a node it might score higher is a score), else searched again (the expensive part).
 */
function replaceAsPlanned(replay: OrderReplay, { pod, plan, node }: RoundPlan): ReplacementPlan | null {
  const same = plan.schedulable && !plan.preemption && node !== null && replay.fitsOn(pod, node);
  return same ? null : replay.placeOnce(pod);
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

/** One simulation's rounds of evictions, as the wave-order rules see them. */
export class WaveOrder {
  private readonly placer: WavePlacer;
  /** The pods of the current round of evictions. */
  private round: RoundPod[] = [];
  /** The round's replacements placed so far, each with the node it took (see checkRace). */
  private roundPlaced: RoundPlan[] = [];
  /** The round's replacements placed where other nodes were as good (see checkRoom). */
  private movable: Movable[] = [];
  /** The simulation's copy from where a round holding both kinds began, and the round's plans (see checkOrder). */
  private ordered: { readonly before: OrderReplay; readonly placed: RoundPlan[] } | null = null;
  /** The simulation's placedCount when the round's first replacement was placed. */
  private roundFrom = 0;
  /** The round's replacements that found no node, each with the placedCount then (see checkMetAfter). */
  private roundUnplaced: Array<{ readonly pod: V1Pod; readonly plan: ReplacementPlan; readonly at: number }> = [];
  /**
   * The round's replacements that fit on a single node, that node, and the placedCount once it was placed
   * (see checkRoomAtEnd, checkMetAfter).
   */
  private roundSingles: Array<{
    readonly pod: V1Pod;
    readonly plan: ReplacementPlan;
    readonly node: string;
    readonly at: number;
  }> = [];
  /** The round's pods the rules have found unknown so far (their plans, as placed, do not say it). */
  private found = new Set<V1Pod>();
  /** The round's replacements that fit on several nodes (see checkRoomAtEnd). */
  private roundChoices: Array<Omit<Movable, 'elsewhere'>> = [];
  /** The round's replacements that preempt, each with the node it is nominated to (see checkNominationsTaken). */
  private roundPreempting: Array<{ readonly pod: V1Pod; readonly plan: ReplacementPlan; readonly node: string }> = [];

  constructor(placer: WavePlacer) {
    this.placer = placer;
  }

  /** The pod is evicted in the current round. */
  evicted(pod: V1Pod): void {
    this.round.push({ pod });
  }

  /** A new round of evictions begins. */
  nextRound(): void {
    [this.round, this.roundPlaced, this.movable, this.ordered] = [[], [], [], null];
    [this.roundUnplaced, this.roundSingles, this.roundChoices, this.found] = [[], [], [], new Set()];
    this.roundPreempting = [];
  }

  /** The round's preemption victims' replacements are placed next: no race check for them. */
  victimsNext(): void {
    [this.round, this.ordered, this.roundUnplaced, this.roundSingles, this.roundChoices] = [[], null, [], [], []];
    this.roundPreempting = [];
  }

  /** The round's pod of which this is the replacement, in a round of several. */
  mateOf(pod: V1Pod): RoundPod | undefined {
    return this.round.length > 1 ? this.round.find((r) => r.pod === pod) : undefined;
  }

  /** Before the round's first replacement is placed (`placedCount`: the simulation's count of placements). */
  open(placedCount: number): void {
    this.roundFrom = placedCount;
    if (this.round.length > 1) this.placeFirst();
    if (this.holdsBothKinds()) this.ordered = { before: this.placer.fork(), placed: [] };
  }

  /**
   * The findings on a replacement of the round just placed (and on the round's earlier ones it competes
   * with): the eviction race, then the preemption met first, then the affinity race, then the room choice;
   * a plan one finds unknown is not judged by the next.
   */
  judge(mate: RoundPod, pod: V1Pod, plan: ReplacementPlan): WaveFinding[] {
    this.ordered?.placed.push({ pod, plan, node: plan.placedOn });
    if (fateOf(plan) === 'none') this.roundUnplaced.push({ pod, plan, at: this.placer.cluster.placedCount });
    if (plan.preemption) this.roundPreempting.push({ pod, plan, node: plan.preemption.node });
    const findings = this.checkRace(mate, plan);
    const flagged = new Set(findings.map((f) => f.pod));
    findings.push(...this.checkPreemptsMetFirst(pod, plan, flagged));
    for (const f of findings) flagged.add(f.pod);
    findings.push(...this.checkAffinityRace(pod, plan, flagged));
    for (const f of findings) flagged.add(f.pod);
    findings.push(...this.checkRoom(pod, plan, mate, flagged));
    return this.remember(findings);
  }

  /** Whether the replacement's fate is unknown: its plan says so, or a rule of its round found it. */
  private isUnknown(pod: V1Pod, plan: ReplacementPlan): boolean {
    return plan.unknown !== undefined || this.found.has(pod);
  }

  /** The findings, their pods remembered as unknown for the round's later rules. */
  private remember(findings: WaveFinding[]): WaveFinding[] {
    for (const f of findings) this.found.add(f.pod);
    return findings;
  }

  /**
   * Before any of a round's replacements is placed: what becomes of each as the round's first, the
   * round's other evictions not seen yet. The drain sends a round's evictions at once, and the scheduler
   * keeps up with them: any of the replacements may be the first it meets, while the others' pods still
   * run. Nothing committed; asked only of a pod a filter of which counts another pod of its round while
   * it runs (its topology spread), or of a round of several workloads (they compete for room). One that
   * counts its mates running is placed at once (its race is judged whatever it meets); another only when
   * a rule asks (see mayRace), in a copy of the simulation as the round began.
   * Taught by the fidelity seeds 141, 185 and 403 (test/fixtures/fidelity/seed-{141,185,403}.json).
   */
  private placeFirst(): void {
    const owners = new Set(this.round.map((r) => controllerRef(r.pod)?.uid));
    let roundStart: OrderReplay | undefined;
    for (const mate of this.round) {
      mate.countsMatesRunning = this.countsMateWhileRunning(mate);
      if (!mate.countsMatesRunning && owners.size < 2) continue;
      const others = new Set(this.round.filter((r) => r !== mate).map((r) => r.pod.metadata?.uid ?? ''));
      // Made now: a replacement's uid counts the placements before it.
      const replacement = podInfo(this.placer.replacementOf(mate.pod), this.placer.snapshot);
      if (mate.countsMatesRunning) {
        const first = this.placer.cluster.withEvictionsUnseen(others, () => this.placer.tryAlone(replacement, true));
        mate.first = () => first;
      } else {
        const start = (roundStart ??= this.placer.fork());
        mate.first = once(() => start.tryAloneUnseen(replacement, others, false));
      }
    }
  }

  /**
   * Whether checkRace could find this replacement's fate unknown, asked before it is placed as the round's
   * first. One that does not count its mates running is found only beside a competitor or a rival: a
   * replacement of its round placed before it, of another workload, made at the same time. Where this one
   * fits, that competitor must sit on a node that has no room left for it (placed first, it took room
   * there that the competitor needed: see takesRoomFirst).
   */
  private mayRace(mate: RoundPod, plan: ReplacementPlan): boolean {
    if (mate.countsMatesRunning) return true;
    const owner = controllerRef(mate.pod)?.uid;
    const late = isLateReplacement(mate.pod);
    const others = this.roundPlaced.filter(
      (r) => controllerRef(r.pod)?.uid !== owner && isLateReplacement(r.pod) === late,
    );
    if (fateOf(plan) !== 'fits') return others.length > 0;
    const info = podInfo(mate.pod, this.placer.snapshot);
    return others.some((r) => {
      const node = r.node === null ? undefined : this.placer.cluster.nodeInfo(r.node);
      return node !== undefined && !hasRoom(info, node, this.placer.cluster);
    });
  }

  /**
   * Whether the order in which the scheduler meets a round's evictions and replacements decides what
   * becomes of this replacement (it fits, preempts, or finds no node): as the round's first, it would
   * fare otherwise than in the plan's order, because
   * - a filter counts another pod of the round for it only while that one runs (its DoNotSchedule
   *   topology spread), and that pod runs or terminates as the race goes; or
   * - a replacement of another workload, made at the same time (a StatefulSet's comes once its pod is
   *   gone, after the others), took in the plan's order the node it would fit on first; or
   * - it fits either way, but placed first it would take room on another node that such replacements,
   *   placed before it in the plan's order, need there (takesRoomFirst).
   * Then its plan says unknown (and so do those of the replacements it competes with), and the message
   * says what becomes of it as the round's first. Where it finds no node (or preempts) in the plan's order
   * but fits met first, the replacements placed before it on nodes it is refused only for the room they
   * took are unknown too: met before them, it may take that room (refusedOnlyForRoomOf).
   * Taught by seeds 141, 185 and 403 (the race), 7423 and 7329 (a replacement flagged still holds the
   * node it took) and 7406 (refusedOnlyForRoomOf), in test/fixtures/fidelity/.
   */
  private checkRace(mate: RoundPod, plan: ReplacementPlan): WaveFinding[] {
    if (!mate.first || this.isUnknown(mate.pod, plan)) return [];
    const fate = fateOf(plan);
    // With the node it took: a later check may call its fate unknown and name none, but it took that room.
    if (fate === 'fits') this.roundPlaced.push({ pod: mate.pod, plan, node: plan.placedOn });
    if (!this.mayRace(mate, plan)) return [];
    const first = mate.first();
    const takesRoom = this.takesRoomFirst(mate.pod, plan, first);
    if (fate === first.fate && !takesRoom) return [];
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
    if (competitors.length === 0 && rivals.length === 0 && (takesRoom || !mate.countsMatesRunning)) return [];
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
      { pod: mate.pod, why: alone },
      ...competitors.map((r) => ({ pod: r.pod, why: takes })),
      ...rivals.map((r) => ({ pod: r.pod, why: rival(r.node) })),
    ];
    return flagged.map(({ pod, why }) => ({
      pod,
      unknown: EVICTION_RACE_UNKNOWN,
      note: `Where the scheduler meets it in its wave matters: ${why}.`,
    }));
  }

  /**
   * Whether this replacement, which finds no node in the plan's order, would fit or preempt had the
   * scheduler met it before the replacements of its round placed ahead of it that it cannot preempt (of
   * another workload, at its priority or above). The plan meets a round's replacements in the scheduler's
   * queue order (priority first), but the controllers make them as the evictions land: a lower-priority
   * replacement made first is scheduled before a higher one exists, and may then preempt on a node the
   * higher one fills in the plan's order (a nomination holds no room against a higher-priority pod, so
   * the higher one still goes there, and the victims are gone either way). Then its plan says unknown, and
   * so do those of the replacements it was placed behind at its own priority (met after it, they may
   * find less room), those that preempted on the node it would take among them.
   * Taught by seeds 8057 and 9639 (test/fixtures/fidelity/seed-{8057,9639}.json).
   */
  private checkPreemptsMetFirst(pod: V1Pod, plan: ReplacementPlan, flagged: ReadonlySet<V1Pod>): WaveFinding[] {
    if (this.isUnknown(pod, plan) || flagged.has(pod) || fateOf(plan) !== 'none') return [];
    const replacement = podInfo(this.placer.replacementOf(pod), this.placer.snapshot);
    if (replacement.preemptionPolicy === 'Never') return [];
    const owner = controllerRef(pod)?.uid;
    const late = isLateReplacement(pod);
    const ahead = this.placer.cluster
      .placedSince(this.roundFrom)
      .filter(
        (p) =>
          p.pod.priority >= replacement.priority &&
          controllerRef(p.pod.pod)?.uid !== owner &&
          isLateReplacement(p.pod.pod) === late,
      );
    if (ahead.length === 0) return [];
    const before = this.placer.cluster.withoutPlaced(ahead, () => this.placer.tryAlone(replacement, true));
    if (before.fate === 'none') return [];
    const names = [...new Set(ahead.map((p) => p.pod.name))].join(', ');
    const fares = before.fate === 'fits' ? `go to ${before.node}` : `preempt on ${before.node}`;
    const note = `Where the scheduler meets it in its wave matters: met before the replacements placed ahead of it (${names}), it would ${fares}.`;
    const findings: WaveFinding[] = [{ pod, unknown: EVICTION_RACE_UNKNOWN, note }];
    const peers = this.roundPlaced.filter(
      (r) =>
        !this.isUnknown(r.pod, r.plan) &&
        !flagged.has(r.pod) &&
        ahead.some((p) => p.node.name === r.node && p.pod.priority === replacement.priority),
    );
    // A replacement at its priority that preempted on the node it would take: met after it, that one
    // finds less room there (checkRace records only those that fit).
    const preempting = this.round
      .map((r) => r.pod)
      .filter(
        (r) =>
          !this.found.has(r) &&
          !flagged.has(r) &&
          !peers.some((q) => q.pod === r) &&
          ahead.some(
            (p) =>
              p.node.name === before.node &&
              p.pod.priority === replacement.priority &&
              p.pod.name === r.metadata?.name &&
              p.pod.namespace === (r.metadata?.namespace ?? 'default'),
          ),
      );
    for (const r of [...peers.map((q) => q.pod), ...preempting]) {
      const peerNote = `Where the scheduler meets it in its wave matters: the replacement of ${pod.metadata?.name ?? ''}, met before it, could ${fares}.`;
      findings.push({ pod: r, unknown: EVICTION_RACE_UNKNOWN, note: peerNote });
    }
    return findings;
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
    const node = placed.node === null ? undefined : this.placer.cluster.nodeInfo(placed.node);
    if (!node || !reasons?.every(isRoomReason)) return false;
    const without = NodeInfo.viewOf(node, false);
    without.removePod(podInfo(placed.pod, this.placer.snapshot));
    return hasRoom(podInfo(pod, this.placer.snapshot), without, this.placer.cluster);
  }

  /**
   * Whether this replacement, placed first, would take room that the round's replacements placed before
   * it in the plan's order need: it fits either way, but as the round's first it goes to another node,
   * which the earlier ones have left too small for it. The scheduler may meet it first (the round's
   * controllers make their replacements at once), and then one of those goes elsewhere, preempts, or
   * finds no node. Room only (resources and pod slots), as checkRoom.
   * Taught by seed 403 (test/fixtures/fidelity/seed-403.json).
   */
  private takesRoomFirst(pod: V1Pod, plan: ReplacementPlan, first: AloneOutcome): boolean {
    if (first.fate !== 'fits' || fateOf(plan) !== 'fits' || first.node === null || first.node === plan.placedOn)
      return false;
    const node = this.placer.cluster.nodeInfo(first.node);
    if (!node) return false;
    return !hasRoom(podInfo(pod, this.placer.snapshot), node, this.placer.cluster);
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
   * Taught by seed 229 (test/fixtures/fidelity/seed-229.json).
   */
  private checkRoom(pod: V1Pod, plan: ReplacementPlan, mate: RoundPod, flagged: Set<V1Pod>): WaveFinding[] {
    if (this.isUnknown(pod, plan) || flagged.has(pod)) return [];
    const info = podInfo(pod, this.placer.snapshot);
    const fate = fateOf(plan);
    const single =
      fate === 'fits' && plan.nodes.length === 1 ? this.placer.cluster.nodeInfo(plan.nodes[0]!) : undefined;
    let movedBy: Movable[] = [];
    if (single) {
      // The replacement is counted on its node already: the earlier one would have had to fit beside it.
      movedBy = this.movable.filter(
        (m) => !hasRoom(m.info, single, this.placer.cluster) && m.elsewhere().includes(single.name),
      );
    } else if (fate !== 'fits') {
      movedBy = this.movable.filter((m) => this.refusedOnlyForRoomOf(pod, plan, m) && m.elsewhere().length > 0);
    }
    if (movedBy.length > 0) return this.roomFindings(pod, movedBy, flagged);
    if (single) this.roundSingles.push({ pod, plan, node: single.name, at: this.placer.cluster.placedCount });
    if (fate !== 'fits' || !plan.placedOn) return [];
    if (plan.nodes.length > 1) this.roundChoices.push({ pod, plan, info, node: plan.placedOn });
    const placedOn = plan.placedOn;
    const elsewhere = once(() => {
      const nodes = new Set(plan.tiedWith ?? []);
      const first = mate.first?.();
      if (first?.fate === 'fits' && first.node !== null && first.node !== placedOn) nodes.add(first.node);
      return [...nodes];
    });
    this.movable.push({ pod, plan, info, node: placedOn, elsewhere });
    return [];
  }

  /** The replacement and the movable ones whose choice of node decides its room: unknown, each saying why. */
  private roomFindings(pod: V1Pod, movedBy: readonly Movable[], flagged: Set<V1Pod>) {
    const name = pod.metadata?.name ?? '';
    const where = movedBy.map((m) => `the replacement of ${m.pod.metadata?.name ?? ''} (${nodesOf(m)})`);
    const findings: WaveFinding[] = [
      {
        pod,
        unknown: ROOM_CHOICE_UNKNOWN,
        note: `Whether it finds room depends on where ${where.join(' and ')} goes.`,
      },
    ];
    flagged.add(pod);
    for (const m of movedBy) {
      if (this.isUnknown(m.pod, m.plan) || flagged.has(m.pod)) continue;
      flagged.add(m.pod);
      const note = `Where it goes (${nodesOf(m)}) decides whether the replacement of ${name} finds room.`;
      findings.push({ pod: m.pod, unknown: ROOM_CHOICE_UNKNOWN, note });
    }
    return findings;
  }

  /**
   * checkRoom's question for a replacement that fits on a single node, asked again once the round's
   * replacements are all placed, of every replacement of the round (of another workload) that could have
   * gone to that node among others: had it gone there, would the node's room still hold them all, those
   * placed after this one in the plan's order included? Which of its feasible nodes such a replacement
   * scores highest depends on what the wave placed before it, and the scheduler may meet the wave's
   * replacements in any order (they are made as the evictions land, whatever their priority). Where the
   * node would be too small, both plans say unknown. Asked before the victims' replacements are placed.
   * Taught by seed 9280 (test/fixtures/fidelity/seed-9280.json): a filler's replacement, placed by the plan
   * on another node, took in the lab the room on the single node zone spread left web-2's replacement.
   */
  checkRoomAtEnd(): WaveFinding[] {
    const findings: WaveFinding[] = [];
    const flagged = new Set<V1Pod>();
    for (const { pod, plan, node: name } of this.roundSingles) {
      const node = this.placer.cluster.nodeInfo(name);
      if (!node || this.isUnknown(pod, plan) || flagged.has(pod)) continue;
      const owner = controllerRef(pod)?.uid;
      const couldTake = this.roundChoices
        .filter((c) => c.node !== name && c.plan.nodes.includes(name))
        .map((c) => ({ ...c, elsewhere: () => [name] }));
      const movedBy = [...couldTake, ...this.movable]
        .filter(
          (m) =>
            m.pod !== pod &&
            controllerRef(m.pod)?.uid !== owner &&
            !hasRoom(m.info, node, this.placer.cluster) &&
            m.elsewhere().includes(name),
        )
        .filter((m, i, all) => all.findIndex((o) => o.pod === m.pod) === i);
      if (movedBy.length > 0) findings.push(...this.roomFindings(pod, movedBy, flagged));
    }
    this.roundSingles = [];
    return this.remember(findings);
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
   * Taught by seed 43 (test/fixtures/fidelity/seed-43.json).
   */
  private checkAffinityRace(pod: V1Pod, plan: ReplacementPlan, flagged: ReadonlySet<V1Pod>): WaveFinding[] {
    if (this.isUnknown(pod, plan) || flagged.has(pod)) return [];
    if (!pod.spec?.affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.length) return [];
    const replacement = podInfo(this.placer.replacementOf(pod), this.placer.snapshot);
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
      ...this.placer.cluster
        .placedSince(this.roundFrom)
        .map((p) => p.pod)
        .filter((p) => !self(p.namespace, p.name) && selected(p.namespace, p.labels)),
    ];
    if (mates.length === 0) return [];
    const between = this.placer.cluster.withoutPods(new Set(mates.map((p) => p.uid)), () =>
      this.placer.tryAlone(replacement, true),
    );
    if (between.fate === fateOf(plan)) return [];
    const requeued = mates.some((p) => !this.selectsOnlyByNamespaceSelector(pod, p.namespace));
    if (between.fate === 'none' && requeued) return [];
    const names = [...new Set(mates.map((p) => p.name))].join(', ');
    const fares =
      between.fate === 'fits'
        ? `it would go to ${between.node}`
        : between.fate === 'preempts'
          ? `it would preempt on ${between.node}`
          : 'it would find no node, and kube-scheduler tries it again only when it flushes its unschedulable pods (its affinity term has a namespaceSelector, which the queueing hint for an added pod does not read)';
    const note = `Where the scheduler meets it in its wave matters: its required pod affinity selects pods of its wave being replaced (${names}); met once their old pods are gone and before their replacements are placed, ${fares}.`;
    return [{ pod, unknown: AFFINITY_RACE_UNKNOWN, note }];
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

  /**
   * Whether a replacement of the round that found no node would fit, or preempt, had the scheduler met it
   * after the round's replacements placed behind it in the plan's order (of lower priority, or made
   * later): the controllers make a wave's replacements as its evictions land, so a lower-priority one may
   * be made, and bound, before a higher one exists, and what it adds (a pod its required affinity
   * selects) may be what the higher one needed. Met before it, the higher one waits for the scheduler to
   * try it again, which for an affinity term with a namespaceSelector is its periodic flush (see
   * checkAffinityRace). Then its plan says unknown. Asked once the round's replacements are all placed,
   * before the victims' replacements; only what those placed behind it add is weighed (room a preemption
   * frees is retryUnplaced's). The same of one that fit on a single node: met after them, off the node
   * the plan gave it, where it would go to another node (what they add, a pod its required affinity
   * selects, made that one feasible). Only another node is asked after: what the plugins hold in their own
   * stores for it (its claims' devices) stays on its node, which may then refuse it.
   * Taught by seeds 9253 and 9518 (test/fixtures/fidelity/seed-{9253,9518}.json).
   */
  checkMetAfter(): WaveFinding[] {
    const findings = this.checkSingleMetAfter();
    for (const { pod, plan, at } of this.roundUnplaced) {
      if (this.isUnknown(pod, plan) || fateOf(plan) !== 'none') continue;
      const behind = this.placer.cluster.placedSince(at);
      if (behind.length === 0) continue;
      const replacement = podInfo(this.placer.replacementOf(pod), this.placer.snapshot);
      const after = this.placer.tryAlone(replacement, replacement.preemptionPolicy !== 'Never');
      if (after.fate === 'none') continue;
      const before = this.placer.cluster.withoutPlaced(behind, () => this.placer.tryAlone(replacement, false));
      if (before.fate !== 'none') continue;
      const names = [...new Set(behind.map((p) => p.pod.name))].join(', ');
      const fares = after.fate === 'fits' ? `go to ${after.node}` : `preempt on ${after.node}`;
      const note = `Where the scheduler meets it in its wave matters: met after the replacements placed behind it (${names}), it would ${fares}.`;
      findings.push({ pod, unknown: EVICTION_RACE_UNKNOWN, note });
    }
    this.roundUnplaced = [];
    return this.remember(findings);
  }

  /**
   * Whether a replacement of the round that preempts on a node may lose that node to one of its round that
   * finds no node in the plan's order, at the same priority and of another workload: the controllers make a
   * wave's replacements at about the same time, and met before the preempting one, that one passes every
   * filter there without it (its victims gone) and takes the node. The preempting one then finds less room,
   * and its plan says unknown. A nomination holds room only against pods of lower priority, so only a peer
   * is asked (checkPreemptsMetFirst weighs those of higher priority). Asked once the round's replacements
   * are all placed, before checkMetAfter, whatever the plan says of the one that finds no node.
   * Taught by seed 10059 (test/fixtures/fidelity/seed-10059.json).
   */
  checkNominationsTaken(): WaveFinding[] {
    const findings: WaveFinding[] = [];
    for (const { pod } of this.roundUnplaced) {
      const taker = podInfo(this.placer.replacementOf(pod), this.placer.snapshot);
      const owner = controllerRef(pod)?.uid;
      const late = isLateReplacement(pod);
      for (const nominated of this.roundPreempting) {
        if (this.isUnknown(nominated.pod, nominated.plan) || findings.some((f) => f.pod === nominated.pod)) continue;
        if (controllerRef(nominated.pod)?.uid === owner || isLateReplacement(nominated.pod) !== late) continue;
        const name = nominated.pod.metadata?.name ?? '';
        const namespace = nominated.pod.metadata?.namespace ?? 'default';
        const placed = this.placer.cluster
          .placedSince(this.roundFrom)
          .find((p) => p.node.name === nominated.node && p.pod.name === name && p.pod.namespace === namespace);
        if (!placed || placed.pod.priority !== taker.priority) continue;
        if (!this.placer.cluster.withoutPlaced([placed], () => this.placer.passesOn(taker, nominated.node))) continue;
        const note = `Where the scheduler meets it in its wave matters: the replacement of ${pod.metadata?.name ?? ''}, met before it, could take ${nominated.node}.`;
        findings.push({ pod: nominated.pod, unknown: EVICTION_RACE_UNKNOWN, note });
      }
    }
    return this.remember(findings);
  }

  /** checkMetAfter's question of the round's replacements placed on a single feasible node. */
  private checkSingleMetAfter(): WaveFinding[] {
    const findings: WaveFinding[] = [];
    for (const { pod, plan, node, at } of this.roundSingles) {
      if (this.isUnknown(pod, plan)) continue;
      const behind = this.placer.cluster.placedSince(at);
      const replacement = podInfo(this.placer.replacementOf(pod), this.placer.snapshot);
      const self = this.placer.cluster
        .placedSince(at - 1)
        .find(
          (p) => p.node.name === node && p.pod.name === replacement.name && p.pod.namespace === replacement.namespace,
        );
      if (behind.length === 0 || !self) continue;
      const after = this.placer.cluster.withoutPlaced([self], () => this.placer.tryAlone(replacement, false));
      if (after.fate !== 'fits' || after.node === node) continue;
      const names = [...new Set(behind.map((p) => p.pod.name))].join(', ');
      const note = `Where the scheduler meets it in its wave matters: met after the replacements placed behind it (${names}), it would go to ${after.node} instead.`;
      findings.push({ pod, unknown: EVICTION_RACE_UNKNOWN, note });
    }
    return findings;
  }

  /** Whether the round's evictions make both StatefulSet replacements and others (see checkOrder). */
  private holdsBothKinds(): boolean {
    const late = this.round.filter((r) => isLateReplacement(r.pod)).length;
    return late > 0 && late < this.round.length;
  }

  /**
   * Whether the order in which the scheduler meets the round's StatefulSet replacements and its other
   * ones decides what becomes of a replacement. The plan meets a ReplicaSet's or Job's replacement first
   * (made as its pod starts terminating) and a StatefulSet's once its pod is gone (replacementQueue); but
   * a wave's evictions end at about the same time, and the scheduler may meet the StatefulSet's
   * replacements before the others, or between them (they are made at once and met one by one). The
   * round is placed again from where it began, its StatefulSet replacements first, then each other one on
   * the node the plan gave it where it still fits there (only those that do not are searched again: the
   * cost is about one placement per StatefulSet replacement). Where that changes what becomes of a
   * StatefulSet replacement, the round is placed again with them met after each of the plan's first
   * others in turn (those placed as the plan placed them). Each replacement whose outcome differs in one
   * of those orders (see sameOutcome) is unknown, and its message says what becomes of it in the first such
   * order. Asked only of a round that holds both kinds.
   * Taught by seeds 46 and 10169 (test/fixtures/fidelity/seed-{46,10169}.json): in the latter, met between
   * two fillers' replacements, a StatefulSet's replacement took the room on the node where the plan had
   * the second one preempt.
   */
  checkOrder(): WaveFinding[] {
    const ordered = this.ordered;
    this.ordered = null;
    if (!ordered || ordered.placed.length < 2) return [];
    const queue = this.placer.queueOrder(ordered.placed.map((r) => r.pod));
    const late = queue.filter(isLateReplacement);
    if (late.length === 0 || late.length === queue.length) return [];
    const others = queue.filter((p) => !isLateReplacement(p));
    const placed = new Map(ordered.placed.map((r) => [r.pod, r]));
    const walker = ordered.before;
    const differs = new Map<V1Pod, { readonly there: ReplacementPlan; readonly after: number }>();
    const record = (outcomes: ReadonlyMap<V1Pod, ReplacementPlan | null>, after: number) => {
      for (const [pod, there] of outcomes) {
        if (there && !differs.has(pod) && !sameOutcome(placed.get(pod)!.plan, there))
          differs.set(pod, { there, after });
      }
    };
    record(this.lateAfter(walker.fork(), late, others, placed), 0);
    if (late.some((pod) => differs.has(pod))) {
      for (let after = 1; after < others.length; after++) {
        replaceAsPlanned(walker, placed.get(others[after - 1]!)!);
        record(this.lateAfter(walker.fork(), late, others.slice(after), placed), after);
      }
    }
    const names = late.map((p) => p.metadata?.name ?? '').join(', ');
    const findings: WaveFinding[] = [];
    const flagged = new Set<V1Pod>();
    for (const { pod, plan } of ordered.placed) {
      const found = differs.get(pod);
      if (this.isUnknown(pod, plan) || flagged.has(pod) || !found) continue;
      flagged.add(pod);
      const when = !isLateReplacement(pod)
        ? `met after the replacement of ${names}`
        : found.after === 0
          ? "met before the wave's other replacements"
          : `met after the replacement of ${someNames(
              others.slice(0, found.after).map((p) => p.metadata?.name ?? ''),
              3,
            )} and before the wave's other ones`;
      const note = `Which of its wave's replacements the scheduler meets first matters: ${when}, it would ${outcomeText(found.there)}.`;
      findings.push({ pod, unknown: REPLACEMENT_ORDER_UNKNOWN, note });
    }
    return this.remember(findings);
  }

  /**
   * The round's StatefulSet replacements placed in `replay`, then `others` (the rest of the round's other
   * ones, in the plan's order) as the plan placed them where they still fit: what becomes of each, null
   * for one that still fits on its node.
   */
  private lateAfter(
    replay: OrderReplay,
    late: readonly V1Pod[],
    others: readonly V1Pod[],
    placed: ReadonlyMap<V1Pod, RoundPlan>,
  ): Map<V1Pod, ReplacementPlan | null> {
    const outcomes = new Map<V1Pod, ReplacementPlan | null>();
    for (const pod of late) outcomes.set(pod, replay.placeOnce(pod));
    for (const pod of others) outcomes.set(pod, replaceAsPlanned(replay, placed.get(pod)!));
    return outcomes;
  }

  /**
   * Whether a filter counts another pod of the round for this one only while it runs (PodTopologySpread's
   * DoNotSchedule constraints: see FilterPlugin.countsWhileRunning).
   */
  private countsMateWhileRunning(mate: RoundPod): boolean {
    const counts = countsWhileRunning(podInfo(mate.pod, this.placer.snapshot));
    return this.round.some(
      (r) => r !== mate && counts(r.pod.metadata?.namespace ?? 'default', r.pod.metadata?.labels ?? {}),
    );
  }
}
