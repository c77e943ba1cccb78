import type { PodDrainState } from './events.js';

/**
 * The time a running drain has left: one estimate, the plan's (plan/eta.ts), followed as the drain goes.
 * Pure: "now" is the time of the event that changed something.
 *
 * The plan says when each wave of evictions starts and when the last pod is gone, counting the pods
 * --escalate-after deletes. Live, the expected end is the latest of what the cluster shows:
 * - the plan's rest, counted from when the last wave was admitted: waves are counted as the plan counts
 *   them, by how many of its pods the API admitted (a budget lets any of its pods go, not the one the plan
 *   named for the wave), so wave w is admitted once as many pods as waves 1…w hold are, and the plan's
 *   rest from then is its total less wave w's start (a wave admitted later than planned moves the end by
 *   as much);
 * - each terminating pod's grace deadline;
 * - each refused pod --escalate-after will delete: its first refusal + the bound + its grace period.
 * All three count at once, whatever phase the pods are in: an estimate that switched from one to another as
 * pods moved on (the wave's rest while a pod waits, then a grace deadline once it is admitted) would make
 * the countdown jump back and forth. So it moves later only for a fact the plan did not know (a wave
 * admitted late, a longer grace period) and earlier only when work is done sooner.
 */

/** What the plan says about the drain's time. */
export interface PlannedTimes {
  /** Seconds from the first eviction until the last pod is gone. */
  readonly totalSeconds: number;
  /** Pod uid → its 1-based wave. */
  readonly podWave: ReadonlyMap<string, number>;
  /** Wave → seconds after the first eviction when it is admitted. */
  readonly waveStartsAfterSeconds: ReadonlyMap<number, number>;
  /** Pod uid → terminationGracePeriodSeconds, for the pods --escalate-after may delete. */
  readonly graceSeconds?: ReadonlyMap<string, number>;
  /** --escalate-after / --escalate-namespace, as the drain was asked. */
  readonly escalation?: { readonly afterMs: number; readonly namespaces: readonly string[] } | undefined;
}

/** A pod as the drain last showed it. */
export interface PodNow {
  readonly uid: string;
  /** namespace/name */
  readonly key: string;
  readonly namespace: string;
  readonly state: PodDrainState;
}

export interface TimeLeft {
  /** When the last pod is expected gone (epoch ms). */
  readonly endMs: number;
  /**
   * How many of the plan's waves the API has admitted (0: none yet) and since when: when the last of them
   * was, or the first event while none is. The plan's rest counts from there.
   */
  readonly admitted: { readonly waves: number; readonly sinceMs: number };
  /** The pods --escalate-after will delete (namespace/name) and when (epoch ms), soonest first. */
  readonly escalations: ReadonlyArray<{ readonly pod: string; readonly atMs: number }>;
}

const NOT_ADMITTED: ReadonlySet<PodDrainState['phase']> = new Set([
  'queued',
  'evicting',
  'retrying',
  'waiting-for-budget',
]);

/** The estimate after an event at `atMs`, from the one before it; null when the plan has none to give. */
export function followTimeLeft(
  previous: TimeLeft | null,
  pods: readonly PodNow[],
  atMs: number,
  planned: PlannedTimes,
): TimeLeft | null {
  const pending = pods.filter((p) => NOT_ADMITTED.has(p.state.phase));
  const waves = wavesAdmitted(pods, planned);
  const admitted = previous?.admitted.waves === waves ? previous.admitted : { waves, sinceMs: atMs };
  // The plan's rest from the last wave admitted (none yet: the plan's whole total, from the start).
  const planEnd =
    planned.podWave.size > 0
      ? admitted.sinceMs + (planned.totalSeconds - (planned.waveStartsAfterSeconds.get(waves) ?? 0)) * 1000
      : null;
  const deletions = dueDeletions(pending, planned, previous);
  const ends = [
    ...(planEnd === null ? [] : [planEnd]),
    ...deletions.map((d) => d.goneMs),
    ...pods.flatMap((p) =>
      p.state.phase === 'terminating' && p.state.deadlineMs !== null ? [p.state.deadlineMs] : [],
    ),
  ];
  if (ends.length === 0) return previous && { ...previous, admitted, escalations: [] };
  const endMs = Math.max(...ends);
  const escalations = deletions.map(({ pod, atMs }) => ({ pod, atMs })).sort((a, b) => a.atMs - b.atMs);
  return { endMs, admitted, escalations };
}

/** Seconds left as of `nowMs`: negative once past the estimate. */
export function secondsLeft(timeLeft: TimeLeft, nowMs: number): number {
  return (timeLeft.endMs - nowMs) / 1000;
}

/**
 * The plan's waves the API has admitted, counted as the plan counts them: the most waves w such that waves
 * 1…w together have no more pods than the API admitted so far.
 */
function wavesAdmitted(pods: readonly PodNow[], planned: PlannedTimes): number {
  const admitted = pods.filter((p) => planned.podWave.has(p.uid) && !NOT_ADMITTED.has(p.state.phase)).length;
  const sizes = new Map<number, number>();
  for (const wave of planned.podWave.values()) sizes.set(wave, (sizes.get(wave) ?? 0) + 1);
  let upTo = 0;
  let done = 0;
  for (const [wave, size] of [...sizes].sort(([x], [y]) => x - y)) {
    upTo += size;
    if (upTo > admitted) break;
    done = wave;
  }
  return done;
}

/** The refused pods --escalate-after deletes: when (the first refusal + the bound), and gone within their grace. */
function dueDeletions(
  pending: readonly PodNow[],
  planned: PlannedTimes,
  previous: TimeLeft | null,
): Array<{ readonly pod: string; readonly atMs: number; readonly goneMs: number }> {
  const escalation = planned.escalation;
  if (!escalation) return [];
  const graceMs = (p: PodNow) => (planned.graceSeconds?.get(p.uid) ?? DEFAULT_GRACE_SECONDS) * 1000;
  return pending.flatMap((p) => {
    if (!escalation.namespaces.includes(p.namespace)) return [];
    if (p.state.phase === 'waiting-for-budget') {
      const atMs = p.state.sinceMs + escalation.afterMs;
      return [{ pod: p.key, atMs, goneMs: atMs + graceMs(p) }];
    }
    // Between two refusals the pod is being evicted again: its deadline holds (counted from the first refusal).
    const kept = previous?.escalations.find((e) => e.pod === p.key);
    return kept ? [{ pod: p.key, atMs: kept.atMs, goneMs: kept.atMs + graceMs(p) }] : [];
  });
}

/** The API's default terminationGracePeriodSeconds, for a pod the plan gave none. */
const DEFAULT_GRACE_SECONDS = 30;

/** A pod as the waves estimate needs it: its phase and the budget it waits for, if known. */
export interface PodBudgetNow {
  readonly state: PodDrainState;
  /** namespace/name of its budget: the one it last waited for, else the plan's; null under none. */
  readonly budget: string | null;
}

/**
 * Waves left, for a drain without the plan's times: for each budget, the pods still to be evicted that wait
 * on it, divided by how many it lets go at once (the plan's wave size, else the most it was seen to allow,
 * at least one); pods under no known budget go in one wave. The largest of these, since budgets drain in
 * parallel. Terminating pods are already on their way and do not count.
 */
export function wavesLeft(pods: readonly PodBudgetNow[], perWave: (budget: string) => number): number {
  const pending = pods.filter((p) => NOT_ADMITTED.has(p.state.phase));
  let waves = pending.some((p) => p.budget === null) ? 1 : 0;
  const byBudget = Map.groupBy(
    pending.filter((p) => p.budget !== null),
    (p) => p.budget ?? '',
  );
  for (const [budget, waiting] of byBudget)
    waves = Math.max(waves, Math.ceil(waiting.length / Math.max(1, perWave(budget))));
  return waves;
}
