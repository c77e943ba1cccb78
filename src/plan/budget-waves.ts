import type { V1Pod } from '@kubernetes/client-node';
import { MULTIPLE_BUDGETS_MESSAGE, unhealthyPodBypassesBudget, type BudgetFacts, type BudgetKey } from './budgets.js';
import { isPodReady, isTerminal, isTerminating } from './pod-facts.js';
import type { EvictOutcome, ReplacementPlan } from './types.js';
import { plural } from '../wording.js';

/** The part of the scheduling simulation the waves drive (SchedulingSimulation has this shape). */
export interface ReplacementPlacer {
  evict(pod: V1Pod): void;
  place(pod: V1Pod): ReplacementPlan;
  /** Places the replacements of the pods preemption deleted so far (after the wave's own replacements). */
  placePreempted?(): void;
  /** The order in which one round's replacements meet the scheduler; the plan's order without it. */
  queueOrder?(pods: readonly V1Pod[]): readonly V1Pod[];
  /**
   * What each of the drain's budgets still allows while a round's replacements are placed: the round's
   * evictions spent it (the Eviction API lowers status.disruptionsAllowed at once), and preemption reads it.
   */
  budgetsAllow?(allowed: ReadonlyMap<BudgetKey, number>): void;
}

/** A pod the filters let through (evict or delete), with what the waves need to know about it. */
export interface EvictionCandidate {
  readonly pod: V1Pod;
  /** `namespace/name`. */
  readonly key: string;
  readonly budgets: readonly BudgetFacts[];
  /** A controller puts a replacement back after the eviction. */
  readonly recreates: boolean;
}

export interface ScheduledEviction {
  readonly outcome: EvictOutcome;
  /** 1-based round in which the API admits the eviction; null when never. */
  readonly wave: number | null;
  readonly reason: string;
  readonly replacement: ReplacementPlan | null;
  /** Set when it waits on something other than its budget: a refused node, an earlier eviction-order group. */
  readonly heldBy?: 'node' | 'order-group';
  /**
   * Set when whether (and when) its budget lets it go is unknown: an earlier wave of the budget left a
   * replacement whose fate the plan cannot tell, and the budget frees up only once that one is Ready.
   * `outcome` and `wave` are then the plan's answer should that replacement run, not a certainty.
   */
  readonly unknown?: string;
}

export interface BudgetWaves {
  /** The most of them admitted in one round. */
  readonly perWave: number;
  /** How many rounds admit at least one of them. */
  readonly waves: number;
  /** Set when its later waves wait for a replacement whose fate is unknown (see ScheduledEviction.unknown). */
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
 * the disruption back. Pods still waiting when a round changes nothing are blocked, not slow.
 *
 * `candidates` must be in the plan's order (node, namespace, name): within a round, earlier pods win
 * the budget's room (in reality a race).
 */
export function scheduleEvictions(
  candidates: readonly EvictionCandidate[],
  placer: ReplacementPlacer,
  options: ScheduleOptions,
): EvictionSchedule {
  const budgets = new Map<BudgetKey, BudgetState>();
  for (const c of candidates)
    for (const b of c.budgets) if (!budgets.has(b.key)) budgets.set(b.key, new BudgetState(b));
  const pods = new Map<string, ScheduledEviction>();

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
    placer.budgetsAllow?.(new Map([...budgets].map(([key, state]) => [key, state.allowed])));
    // Placed in the order the scheduler meets them, reported in the plan's.
    const byPod = new Map(admitted.map(({ c }) => [c.pod, c]));
    const queued = placer.queueOrder?.(admitted.map(({ c }) => c.pod)).map((pod) => byPod.get(pod)!);
    const placed = new Map<EvictionCandidate, ReplacementPlan | null>();
    for (const c of queued ?? admitted.map(({ c }) => c))
      placed.set(c, needsReplacement(c) ? placer.place(c.pod) : null);
    for (const { c, reason } of admitted) {
      const replacement = placed.get(c) ?? null;
      pods.set(c.key, { outcome: round === 1 ? 'immediate' : 'waits', wave: round, reason, replacement });
      for (const b of c.budgets) budgets.get(b.key)!.recordEviction(c, round, replacement);
    }
    placer.placePreempted?.();
    let changed = admitted.length > 0;
    for (const state of budgets.values()) changed = state.settle() || changed;
    if (!changed) break;
  }
  for (const c of waiting) pods.set(c.key, blocked(budgets.get(c.budgets[0]!.key)!.whyBlocked()));
  for (const c of candidates) {
    const unknown = c.budgets.length === 1 ? budgets.get(c.budgets[0]!.key)!.unknownFor(pods.get(c.key)!) : null;
    const e = pods.get(c.key)!;
    if (unknown !== null)
      pods.set(c.key, { ...e, reason: `${e.reason}; whether it goes is unknown: ${unknown}`, unknown });
  }

  return { pods, budgets: new Map([...budgets].map(([key, state]) => [key, state.waves()])) };
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
  const plans = replaced.map((c) => [c.key, placer.place(c.pod)] as const);
  // Copied once the round is over: its checks may still mark a plan unknown (see placePreempted).
  placer.placePreempted?.();
  for (const [key, plan] of plans) placed.set(key, { ...plan, whenUnblocked: true });
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
  /** The first evicted pod whose replacement's fate is unknown, and its round: what the budget frees after it waits on that. */
  private uncertain: { pod: string; round: number } | null = null;

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
    if (replacement?.unknown !== undefined && needsReplacement(c) && this.uncertain === null)
      this.uncertain = { pod: c.key, round };
    if (replacement?.schedulable) this.readyNextRound += 1;
    else if (needsReplacement(c)) this.lost.push(`the replacement of ${c.key} cannot be scheduled`);
    else if (!c.recreates) this.lost.push(`${c.key} is not recreated`);
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
   * Why an eviction this budget decided is unknown: one it admits after, or blocks behind, the round
   * that left a replacement of unknown fate. Null when known.
   */
  unknownFor(eviction: ScheduledEviction): string | null {
    if (this.uncertain === null) return null;
    const after = eviction.wave === null ? eviction.outcome === 'blocked' : eviction.wave > this.uncertain.round;
    return after ? budgetWaitsOnUnknown(this.facts.key, this.uncertain.pod) : null;
  }

  waves(): BudgetWaves {
    const counts = [...this.admittedByRound.values()];
    const later = [...this.admittedByRound.keys()].some((r) => this.uncertain !== null && r > this.uncertain.round);
    const unknown =
      this.uncertain !== null && (later || this.lost.length > 0)
        ? budgetWaitsOnUnknown(this.facts.key, this.uncertain.pod)
        : null;
    return {
      perWave: Math.max(0, ...counts),
      waves: counts.length,
      ...(unknown !== null ? { unknown } : {}),
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
