import type { V1Pod } from '@kubernetes/client-node';
import { MULTIPLE_BUDGETS_MESSAGE, unhealthyPodBypassesBudget, type BudgetFacts, type BudgetKey } from './budgets.js';
import { isPodReady, isTerminal, isTerminating } from './pod-facts.js';
import type { EvictOutcome, ReplacementPlan } from './types.js';
import { plural } from '../wording.js';

/** The part of the scheduling simulation the waves drive (SchedulingSimulation has this shape). */
export interface ReplacementPlacer {
  evict(pod: V1Pod): void;
  place(pod: V1Pod): ReplacementPlan;
  /**
   * Ends a round once its own replacements are placed: places the replacements of the pods preemption
   * deleted so far, and returns, by evicted pod, a new plan for each of the round's replacements whose
   * fate its checks called unknown after place() returned (SchedulingSimulation.settleRound).
   */
  settleRound?(): ReadonlyMap<V1Pod, ReplacementPlan>;
  /** The order in which one round's replacements meet the scheduler; the plan's order without it. */
  queueOrder?(pods: readonly V1Pod[]): readonly V1Pod[];
  /**
   * What each of the drain's budgets still allows while a round's replacements are placed: the round's
   * evictions spent it (the Eviction API lowers status.disruptionsAllowed at once), and preemption reads it.
   * `spentLate`: the budgets the round spent by an eviction the API server may admit only after the round's
   * replacements are scheduled (EvictionCandidate.admittedLate), each with the pod and why.
   */
  budgetsAllow?(allowed: ReadonlyMap<BudgetKey, number>, spentLate: ReadonlyMap<BudgetKey, string>): void;
}

/** A pod the filters let through (evict or delete), with what the waves need to know about it. */
export interface EvictionCandidate {
  readonly pod: V1Pod;
  /** `namespace/name`. */
  readonly key: string;
  readonly budgets: readonly BudgetFacts[];
  /** A controller puts a replacement back after the eviction. */
  readonly recreates: boolean;
  /**
   * Why the API server may admit its eviction only after the replacements of its round are scheduled: a
   * webhook answers 429 until it has moved the pod, or one whose answer the plan cannot tell decides it.
   */
  readonly admittedLate?: string;
}

export interface ScheduledEviction {
  readonly outcome: EvictOutcome;
  /** 1-based round in which the API admits the eviction; null when never. */
  readonly wave: number | null;
  readonly reason: string;
  readonly replacement: ReplacementPlan | null;
  /**
   * Set when it waits on something other than its budget: a refused node, an earlier eviction-order group,
   * or the admission chain, which denies its eviction.
   */
  readonly heldBy?: 'node' | 'order-group' | 'admission';
  /**
   * Set when whether its budget lets it go is unknown: an earlier wave of the budget left a replacement
   * whose fate the plan cannot tell, and that one decides it (see podsInDoubt). `outcome` and `wave` are
   * then the plan's answer, not a certainty.
   */
  readonly unknown?: string;
  /**
   * Set instead when its budget lets it go either way, but that replacement decides in which wave: `wave`
   * is then the plan's answer, not a certainty (the same text as `unknown` would be).
   */
  readonly waveUnknown?: string;
}

export interface BudgetWaves {
  /** The most of them admitted in one round. */
  readonly perWave: number;
  /** How many rounds admit at least one of them. */
  readonly waves: number;
  /** Set when some of its pods are unknown (ScheduledEviction.unknown or waveUnknown): the same text. */
  readonly unknown?: string;
}

export interface ScheduleOptions {
  /** --disable-eviction: pods are deleted, no budget is asked. */
  readonly deleteInsteadOfEvict: boolean;
  /** False when the snapshot did not load PodDisruptionBudgets: a pod with none may still have one. */
  readonly budgetsKnown: boolean;
}

export interface EvictionSchedule {
  readonly pods: ReadonlyMap<string, ScheduledEviction>;
  readonly budgets: ReadonlyMap<string, BudgetWaves>;
}

/**
 * Plays the drain out in rounds, the way the API answers kubectl's all-at-once, retry-every-5s evictions:
 * in each round every waiting pod is tried; pods that bypass budgets or whose budget still has room are
 * admitted (a healthy pod spends one disruption), then their replacements are placed. Before the next
 * round the disruption controller recounts: replacements that found a node are taken as Ready and give
 * the disruption back. Pods still waiting when a round changes nothing are blocked, not slow. A pod whose
 * admission hangs on a replacement of unknown fate is marked unknown, or its wave unknown when it goes
 * either way (see podsInDoubt).
 *
 * `candidates` must be in the plan's order (node, namespace, name): within a round, earlier pods win
 * the budget's room (in reality a race).
 */
export function scheduleEvictions(
  candidates: readonly EvictionCandidate[],
  placer: ReplacementPlacer,
  options: ScheduleOptions,
): EvictionSchedule {
  const play = playRounds(candidates, placer, options);
  const doubts = podsInDoubt(candidates, play, options);
  for (const [key, doubt] of racedPods(candidates, play))
    if (!doubts.get(key) || doubts.get(key)!.waveOnly) doubts.set(key, doubt);
  const pods = new Map(
    [...play.pods].map(([key, e]) => {
      const doubt = doubts.get(key);
      if (doubt === undefined) return [key, e] as const;
      const { why, waveOnly } = doubt;
      return [
        key,
        waveOnly
          ? { ...e, reason: `${e.reason}; it goes either way, but in which wave is unknown: ${why}`, waveUnknown: why }
          : { ...e, reason: `${e.reason}; whether it goes is unknown: ${why}`, unknown: why },
      ] as const;
    }),
  );
  // A budget's waves are unknown with its first pod in doubt, for the same reason.
  const doubted = new Map<BudgetKey, string>();
  for (const c of candidates) {
    const why = doubts.get(c.key)?.why;
    if (why !== undefined && !doubted.has(c.budgets[0]!.key)) doubted.set(c.budgets[0]!.key, why);
  }
  return { pods, budgets: new Map([...play.budgets].map(([key, state]) => [key, state.waves(doubted.get(key))])) };
}

/** One play of the rounds. */
interface Play {
  readonly pods: ReadonlyMap<string, ScheduledEviction>;
  readonly budgets: ReadonlyMap<BudgetKey, BudgetState>;
  /**
   * Each placed replacement: `plan`, its latest plan, and `asCounted`, a copy of the plan the budgets
   * counted. The round's checks may call its fate unknown after it was counted (settleRound gives the new
   * plan), and the placer rewrites a plan it places again once preemption frees room (see
   * SchedulingSimulation.retryUnplaced), so a plan's fate is read from `plan` once the rounds are over.
   */
  readonly counted: ReadonlyMap<V1Pod, { readonly plan: ReplacementPlan; readonly asCounted: ReplacementPlan }>;
  /** Budgets whose round's evictions race a preemption of the same round (see preemptionRaces), by budget. */
  readonly raced: ReadonlyMap<BudgetKey, PreemptionRace>;
}

/** The rounds (see scheduleEvictions), each pod's replacement placed by `placer` once, when admitted. */
function playRounds(
  candidates: readonly EvictionCandidate[],
  placer: ReplacementPlacer,
  options: ScheduleOptions,
): Play {
  const budgets = new Map<BudgetKey, BudgetState>();
  for (const c of candidates)
    for (const b of c.budgets) if (!budgets.has(b.key)) budgets.set(b.key, new BudgetState(b));
  const pods = new Map<string, ScheduledEviction>();
  const counted = new Map<V1Pod, { plan: ReplacementPlan; asCounted: ReplacementPlan }>();
  const raced = new Map<BudgetKey, PreemptionRace>();

  let waiting = [...candidates];
  for (let round = 1; waiting.length > 0 && round <= candidates.length + 2; round++) {
    const admitted: Array<{ c: EvictionCandidate; reason: string }> = [];
    const stillWaiting: EvictionCandidate[] = [];
    for (const c of waiting) {
      const verdict = decide(c, round, budgets, options);
      if (verdict.kind === 'admit') admitted.push({ c, reason: verdict.reason });
      else if (verdict.kind === 'never') pods.set(c.key, blocked(verdict.reason));
      else stillWaiting.push(c);
    }
    waiting = stillWaiting;
    for (const { c } of admitted) placer.evict(c.pod);
    const evicted = admitted.map(({ c }) => c);
    const late = spentLate(evicted);
    placer.budgetsAllow?.(new Map([...budgets].map(([key, state]) => [key, state.allowed])), late);
    // Placed in the order the scheduler meets them, reported in the plan's.
    const byPod = new Map(admitted.map(({ c }) => [c.pod, c]));
    const queued = placer.queueOrder?.(admitted.map(({ c }) => c.pod)).map((pod) => byPod.get(pod)!);
    const placed = new Map<EvictionCandidate, ReplacementPlan | null>();
    for (const c of queued ?? admitted.map(({ c }) => c))
      placed.set(c, needsReplacement(c) ? placer.place(c.pod) : null);
    for (const { c, reason } of admitted) {
      const replacement = placed.get(c) ?? null;
      pods.set(c.key, { outcome: round === 1 ? 'immediate' : 'waits', wave: round, reason, replacement });
      if (replacement !== null) counted.set(c.pod, { plan: replacement, asCounted: { ...replacement } });
      for (const b of c.budgets) budgets.get(b.key)!.recordEviction(c, round, replacement);
    }
    for (const [pod, plan] of placer.settleRound?.() ?? []) {
      const c = byPod.get(pod);
      if (c === undefined) continue;
      placed.set(c, plan);
      pods.set(c.key, { ...pods.get(c.key)!, replacement: plan });
      counted.set(pod, { plan, asCounted: counted.get(pod)!.asCounted });
      for (const b of c.budgets) budgets.get(b.key)!.replan(c.key, plan);
    }
    for (const race of preemptionRaces(round, evicted, late, placed))
      if (!raced.has(race.budget)) raced.set(race.budget, race);
    let changed = admitted.length > 0;
    for (const state of budgets.values()) changed = state.settle() || changed;
    if (!changed) break;
  }
  for (const c of waiting) pods.set(c.key, blocked(budgets.get(c.budgets[0]!.key)!.whyBlocked()));
  return { pods, budgets, counted, raced };
}

/** The budgets a round's evictions admitted late spent (see ReplacementPlacer.budgetsAllow), each with its first such pod and why. */
function spentLate(admitted: readonly EvictionCandidate[]): Map<BudgetKey, string> {
  const late = new Map<BudgetKey, string>();
  for (const c of admitted) {
    if (c.admittedLate === undefined) continue;
    for (const b of c.budgets) {
      if (!late.has(b.key))
        late.set(
          b.key,
          `the eviction of ${c.key} spent it; the API server may admit that eviction only later: ${c.admittedLate}`,
        );
    }
  }
  return late;
}

/** A budget whose round's evictions race the deletion of one of its pods by a preemption of that round. */
interface PreemptionRace {
  readonly budget: BudgetKey;
  readonly round: number;
  /** The preempting replacement's pod and the victim, as ns/name. */
  readonly preemptor: string;
  readonly victim: string;
  /** The victim is a pod the plan's preemption spares (budgetsSpared): it may be deleted, not it will. */
  readonly spared: boolean;
}

/**
 * The budgets whose pods this round both admits, two or more of them, and loses to a preemption by one
 * of the round's replacements (a victim's deletion breaks the budget: the plan counted the round's
 * evictions first), or may lose: a preemption that spares a lower-priority pod of the budget only because
 * the round's evictions spent it (budgetsSpared) meets the budget with room while those evictions are not
 * all admitted, and may then delete that pod instead. Taught by seed 8093
 * (test/fixtures/fidelity/seed-8093.json). The drain sends the round's evictions at once, but the API server admits one of a
 * budget's at once and tries the others again after their update of the budget's status conflicted
 * (every 500 ms, EvictionsRetry), while kube-scheduler preempts as soon as it meets the replacement; once
 * the disruption controller has counted the victim gone, the budget refuses the evictions still waiting.
 * Which comes first is timing: whether the budget lets the round's pods go, and when the rest go, is
 * unknown. Victims of a replacement whose own fate is unknown count (it may preempt). A spared budget one
 * of whose round's evictions is admitted late (`late`: see spentLate and EvictionCandidate.admittedLate) races
 * however many the round admits: its preemption may meet the budget before that eviction does.
 */
function preemptionRaces(
  round: number,
  admitted: readonly EvictionCandidate[],
  late: ReadonlyMap<BudgetKey, string>,
  placed: ReadonlyMap<EvictionCandidate, ReplacementPlan | null>,
): PreemptionRace[] {
  const admissions = new Map<BudgetKey, number>();
  for (const c of admitted)
    if (c.budgets.length === 1) admissions.set(c.budgets[0]!.key, (admissions.get(c.budgets[0]!.key) ?? 0) + 1);
  const races: PreemptionRace[] = [];
  for (const [c, replacement] of placed) {
    const preemption = replacement?.preemption;
    if (!preemption) continue;
    const preemptor = `${c.pod.metadata?.namespace ?? 'default'}/${c.pod.metadata?.name ?? ''}`;
    for (const victim of preemption.victims) {
      for (const budget of victim.budgetsBroken) {
        if ((admissions.get(budget) ?? 0) < 2) continue;
        races.push({ budget, round, preemptor, victim: `${victim.namespace}/${victim.name}`, spared: false });
      }
    }
    for (const budget of preemption.budgetsSpared ?? []) {
      // A budget one of whose round's evictions the API server may admit only later races a preemption
      // that spares it, however many it admits (seed 10149, test/fixtures/fidelity/seed-10149.json).
      if ((admissions.get(budget) ?? 0) < 2 && !late.has(budget)) continue;
      races.push({ budget, round, preemptor, victim: `a pod of that budget on ${preemption.node}`, spared: true });
    }
  }
  return races;
}

/** Why whether the budget lets a pod go is unknown: a preemption of its wave may take the budget's room first. */
export const budgetRacesPreemption = (race: PreemptionRace) =>
  `the API server admits one of budget ${race.budget}'s evictions of a wave at once and the others after a conflict, 500 ms later, while the replacement of ${race.preemptor} ${race.spared ? 'may preempt' : 'preempts'} ${race.victim} in that wave: once that pod is deleted, the budget refuses the evictions it has not admitted, and which comes first is timing`;

/**
 * The pods whose admission hangs on a replacement whose fate is unknown, with why (budgetWaitsOnUnknown).
 * A budget frees up for its next wave only once earlier replacements are Ready, but not every later wave
 * needs the unknown one: room the budget has to spare, or other replacements known to find a node, may
 * give back the disruptions it needs. So the rounds are played twice more on the budgets' arithmetic
 * alone (the placer is not asked again: each pod's replacement is placed once, by the plan's play), the
 * unknown replacements taken once as Ready and once as never Ready, as one that finds no node. A
 * replacement is unknown as its plan says once the rounds are over, though the budgets counted it before
 * the placer had judged its round's order (see Play.counted). The plan's own play took each of them one
 * way or the other; a pod both replays admit in the plan's wave, or both block, is not in doubt. A pod
 * one of them blocks (or admits where the plan's play blocks it) may never go. A pod both admit, but not
 * both in the plan's wave, goes either way, only its wave is in doubt (`waveOnly`): when its budget lets
 * it go hangs on that replacement, and with it when its own replacement comes and what that gives back.
 */
function podsInDoubt(
  candidates: readonly EvictionCandidate[],
  play: Play,
  options: ScheduleOptions,
): Map<string, Doubt> {
  const doubts = new Map<string, Doubt>();
  if (![...play.budgets.values()].some((state) => state.waitsOnUnknown() !== null)) return doubts;
  const replays = [true, false].map((ready) => playRounds(candidates, countedPlacer(play.counted, ready), options));
  for (const c of candidates) {
    // A pod with several budgets is blocked whatever happens (the API answers 500); with none, it goes at once.
    const why = c.budgets.length === 1 ? play.budgets.get(c.budgets[0]!.key)!.waitsOnUnknown() : null;
    const wave = play.pods.get(c.key)!.wave;
    const waves = replays.map((replay) => replay.pods.get(c.key)!.wave);
    // A blocked pod has no wave: admitted in another wave or not at all, either way it is in doubt.
    if (why === null || waves.every((w) => w === wave)) continue;
    doubts.set(c.key, { why, waveOnly: [wave, ...waves].every((w) => w !== null) });
  }
  return doubts;
}

/**
 * The pods of a budget that races a preemption (see preemptionRaces) admitted in that round or later, or
 * never: whether and when the budget lets each go is unknown.
 */
function racedPods(candidates: readonly EvictionCandidate[], play: Play): Map<string, Doubt> {
  const doubts = new Map<string, Doubt>();
  if (play.raced.size === 0) return doubts;
  for (const c of candidates) {
    const race = c.budgets.length === 1 ? play.raced.get(c.budgets[0]!.key) : undefined;
    const wave = play.pods.get(c.key)!.wave;
    if (race !== undefined && (wave === null || wave >= race.round))
      doubts.set(c.key, { why: budgetRacesPreemption(race), waveOnly: false });
  }
  return doubts;
}

/** Why a pod is in doubt (budgetWaitsOnUnknown, budgetRacesPreemption), and whether it goes either way, only its wave unknown. */
interface Doubt {
  readonly why: string;
  readonly waveOnly: boolean;
}

/**
 * Answers each replacement as the plan's play counted it, and one whose fate is unknown once the rounds
 * are over (or that the plan's play never placed: its pod was blocked there) as finding a node or not, as
 * `ready` says. It places nothing: the replays it serves are the budgets' arithmetic.
 */
function countedPlacer(counted: Play['counted'], ready: boolean): ReplacementPlacer {
  const assumed: ReplacementPlan = { schedulable: ready, nodes: [], placedOn: null, rejected: [], message: '' };
  return {
    evict: () => undefined,
    place: (pod) => {
      const entry = counted.get(pod);
      return entry === undefined || entry.plan.unknown !== undefined ? assumed : entry.asCounted;
    },
  };
}

/**
 * Why whether the budget lets a pod go is unknown: it waits for the replacement of `pod` to become
 * Ready, and whether that one finds a node is unknown.
 */
export const budgetWaitsOnUnknown = (budget: string, pod: string) =>
  `budget ${budget} frees up only once the replacement of ${pod} is Ready, and whether that replacement finds a node is unknown`;

type Decision = { kind: 'admit'; reason: string } | { kind: 'wait' } | { kind: 'never'; reason: string };

/** One eviction attempt against the API's rules (eviction.go): bypasses first, then the single budget. */
function decide(
  c: EvictionCandidate,
  round: number,
  budgets: ReadonlyMap<string, BudgetState>,
  options: ScheduleOptions,
): Decision {
  const bypass = budgetBypass(c.pod, options.deleteInsteadOfEvict);
  if (bypass) return { kind: 'admit', reason: bypass };
  if (c.budgets.length === 0) {
    const reason = options.budgetsKnown
      ? 'no PodDisruptionBudget selects it'
      : 'PodDisruptionBudgets were not loaded: taken as having none';
    return { kind: 'admit', reason };
  }
  if (c.budgets.length > 1) {
    const names = c.budgets.map((b) => b.key).join(', ');
    return { kind: 'never', reason: `the API answers 500 "${MULTIPLE_BUDGETS_MESSAGE}" (${names})` };
  }
  return budgets.get(c.budgets[0]!.key)!.tryEvict(c.pod, round);
}

/** canIgnorePDB, plus --disable-eviction: pods deleted without asking any budget. */
function budgetBypass(pod: V1Pod, deleteInsteadOfEvict: boolean): string | null {
  const phase = pod.status?.phase;
  if (deleteInsteadOfEvict) return 'deleted (--disable-eviction): budgets are not consulted';
  if (isTerminal(pod)) return `finished (${phase}): the API deletes it without consulting budgets`;
  if (isTerminating(pod)) return 'already terminating: the API deletes it without consulting budgets';
  if (phase === 'Pending') return 'Pending: the API deletes it without consulting budgets';
  return null;
}

/**
 * Where the replacements of pods whose eviction is blocked would go once the block is lifted (the budget
 * fixed, the refused pod dealt with): each is evicted in the simulation after every admitted eviction and
 * placed, in plan order, so they compete for the room the admitted replacements left. The operator learns
 * whether lifting the block would be enough. A pod nothing recreates (or already finished or terminating)
 * keeps no replacement.
 */
export function placeBlockedReplacements(
  blocked: readonly EvictionCandidate[],
  placer: ReplacementPlacer,
): Map<string, ReplacementPlan> {
  const placed = new Map<string, ReplacementPlan>();
  const replaced = blocked.filter(needsReplacement);
  for (const c of replaced) placer.evict(c.pod);
  const plans = replaced.map((c) => [c, placer.place(c.pod)] as const);
  // Once the round is over: its checks may still call a replacement's fate unknown (see settleRound).
  const settled = placer.settleRound?.() ?? new Map<V1Pod, ReplacementPlan>();
  for (const [c, plan] of plans) placed.set(c.key, { ...(settled.get(c.pod) ?? plan), whenUnblocked: true });
  return placed;
}

/** Finished pods are not replaced; a terminating pod's replacement already exists. */
function needsReplacement(c: EvictionCandidate): boolean {
  return c.recreates && !isTerminal(c.pod) && !isTerminating(c.pod);
}

const blocked = (reason: string): ScheduledEviction => ({ outcome: 'blocked', wave: null, reason, replacement: null });

/** One budget as the rounds go: healthy pods, the disruptions it allows, and what it admitted. */
class BudgetState {
  private current: number;
  private allowance: number;
  private stale: boolean;
  private readyNextRound = 0;
  private readonly admittedByRound = new Map<number, number>();
  /** Evicted pods that give nothing back: no replacement, or one that cannot be scheduled. */
  private readonly lost: string[] = [];
  /**
   * The evicted pods it counted a replacement for, in the order it admitted them, with that replacement's
   * latest plan: the placer may call its fate unknown after the count (see Play.counted), so it is read after.
   */
  private readonly replaced: Array<{ readonly pod: string; readonly plan: ReplacementPlan }> = [];

  constructor(private readonly facts: BudgetFacts) {
    this.current = facts.currentHealthy;
    this.allowance = facts.disruptionsAllowed;
    this.stale = facts.stale;
  }

  /** The disruptions it allows now, this round's evictions spent. */
  get allowed(): number {
    return this.allowance;
  }

  tryEvict(pod: V1Pod, round: number): Decision {
    const { facts } = this;
    const ready = isPodReady(pod);
    if (!ready && unhealthyPodBypassesBudget(facts.unhealthyPodEvictionPolicy, this.current, facts.desiredHealthy)) {
      return { kind: 'admit', reason: this.unhealthyReason() };
    }
    if (facts.syncFailed !== null || facts.neverAllows !== null || this.stale || this.allowance <= 0) {
      return { kind: 'wait' };
    }
    this.allowance -= 1;
    if (ready) this.current -= 1;
    return { kind: 'admit', reason: this.admittedReason(round) };
  }

  recordEviction(c: EvictionCandidate, round: number, replacement: ReplacementPlan | null): void {
    this.admittedByRound.set(round, (this.admittedByRound.get(round) ?? 0) + 1);
    if (replacement !== null && needsReplacement(c)) this.replaced.push({ pod: c.key, plan: replacement });
    if (replacement?.schedulable) this.readyNextRound += 1;
    else if (needsReplacement(c)) this.lost.push(`the replacement of ${c.key} cannot be scheduled`);
    else if (!c.recreates) this.lost.push(`${c.key} is not recreated`);
  }

  /** The replacement of `pod` has a new plan (see ReplacementPlacer.settleRound). */
  replan(pod: string, plan: ReplacementPlan): void {
    const at = this.replaced.findIndex((r) => r.pod === pod);
    if (at >= 0) this.replaced[at] = { pod, plan };
  }

  /**
   * The disruption controller's next sync: replacements that found a node count as healthy, the status
   * catches up with the spec, and disruptionsAllowed is recomputed. Returns whether anything changed.
   */
  settle(): boolean {
    const before = [this.current, this.allowance, this.stale].join();
    this.current += this.readyNextRound;
    this.readyNextRound = 0;
    this.stale = false;
    this.allowance = this.facts.expectedPods > 0 ? Math.max(0, this.current - this.facts.desiredHealthy) : 0;
    return before !== [this.current, this.allowance, this.stale].join();
  }

  whyBlocked(): string {
    const { facts } = this;
    if (facts.syncFailed !== null) {
      return `budget ${facts.key} cannot be computed by the disruption controller (${facts.syncFailed}): the API answers 429 until that is fixed`;
    }
    if (facts.neverAllows !== null) return `budget ${facts.key} never allows an eviction: ${facts.neverAllows}`;
    if (this.lost.length > 0) return `budget ${facts.key} will not free up: ${this.lost.join('; ')}`;
    return (
      `budget ${facts.key} allows 0 disruptions (needs ${facts.desiredHealthy} healthy pods, has ${this.current}) ` +
      'and the drain frees none: it waits for pods elsewhere to become Ready'
    );
  }

  /**
   * Why whether (or when) it lets a pod go may be unknown: it admitted an eviction whose replacement's
   * fate is unknown, named here (the first such). Null when it admitted none. Asked once the rounds are
   * over, when the placer has said its last on each plan. Which of its pods are in doubt is podsInDoubt's
   * to say.
   */
  waitsOnUnknown(): string | null {
    const uncertain = this.replaced.find((r) => r.plan.unknown !== undefined);
    return uncertain === undefined ? null : budgetWaitsOnUnknown(this.facts.key, uncertain.pod);
  }

  /** `unknown`: why some pod of it is in doubt (podsInDoubt, racedPods), and with it the budget's waves. */
  waves(unknown: string | undefined): BudgetWaves {
    const counts = [...this.admittedByRound.values()];
    return {
      perWave: Math.max(0, ...counts),
      waves: counts.length,
      ...(unknown !== undefined ? { unknown } : {}),
    };
  }

  private unhealthyReason(): string {
    const { facts } = this;
    return facts.unhealthyPodEvictionPolicy === 'AlwaysAllow'
      ? `not Ready, and budget ${facts.key} has unhealthyPodEvictionPolicy AlwaysAllow: it goes without spending a disruption`
      : `not Ready, and budget ${facts.key} is healthy (${this.current} healthy >= ${facts.desiredHealthy} desired): IfHealthyBudget lets it go`;
  }

  private admittedReason(round: number): string {
    const { facts } = this;
    if (round === 1) return `budget ${facts.key} allows ${plural(facts.disruptionsAllowed, 'disruption')} now`;
    const after =
      facts.stale && round === 2
        ? `after the disruption controller catches up (status is stale, observedGeneration ${facts.observedGeneration} < generation ${facts.generation}: the API answers 429 until then)`
        : 'once earlier replacements are Ready';
    return `waits for budget ${facts.key}: admitted in wave ${round}, ${after}`;
  }
}
