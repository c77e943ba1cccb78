import type { DrainEvent, PodDrainState, PodRef } from '../drain/events.js';
import type { FinishedEvent } from '../drain/summary.js';
import { followTimeLeft, secondsLeft, wavesLeft, type PlannedTimes, type TimeLeft } from '../drain/time-left.js';
import type { DrainPlan, Verdict } from '../plan/types.js';
import { escalationText, groupStartText, latePodsText, surgeText } from './drain-pod-text.js';
import { qualified, qualifiedPdb } from './format.js';
import { wayOutText } from './plan-advice.js';
import { blockedWords, type BlockedWords } from './plan-sections.js';

/**
 * Everything the drain views show, as a pure fold over the engine's events: `reduceDrainEvents(state, e)`.
 * Views (Ink, text lines, summary) are functions of this value and of "now"; nothing here reads a clock.
 */

type Finished = Extract<PodDrainState, { phase: 'gone' | 'skipped' | 'failed' | 'dry-run' }>;

export interface PodProgress {
  readonly pod: PodRef;
  readonly state: PodDrainState;
  /** When the pod entered its current phase (epoch ms); for a budget wait, when the wait began. */
  readonly phaseSinceMs: number;
  /** The budget this pod last waited for (namespace/name), kept after the wait ends, for the wave estimate. */
  readonly pdb: string | null;
  /**
   * A pod the drain removes (announced by `started`); false for the pods it leaves alone (DaemonSet,
   * mirror), which are listed but not counted in the progress.
   */
  readonly counted: boolean;
  /** What the plan predicted holds this pod's budget (a replacement it found no node for), if anything. */
  readonly planBlocker?: string | undefined;
  /** The plan says this pod's budget never allows an eviction: waiting for it cannot end by itself. */
  readonly budgetNeverAllows?: boolean;
}

/** Lines for the log above the live area; append-only, so Ink's <Static> prints each exactly once. */
export type DrainLogEntry =
  | {
      readonly id: string;
      readonly kind: 'cordoned';
      readonly atMs: number;
      readonly node: string;
      readonly already: boolean;
      readonly dryRun: boolean;
    }
  | { readonly id: string; readonly kind: 'pod'; readonly atMs: number; readonly pod: PodRef; readonly state: Finished }
  | { readonly id: string; readonly kind: 'warning'; readonly atMs: number; readonly message: string }
  /** A step of the drain worth a line, e.g. an eviction-order group starting. */
  | { readonly id: string; readonly kind: 'note'; readonly atMs: number; readonly message: string };

export interface BudgetProgress {
  /** namespace/name */
  readonly pdb: string;
  readonly disruptionsAllowed: number;
  readonly currentHealthy: number;
  readonly desiredHealthy: number;
  /** The most disruptions this budget was seen to allow: an estimate of how many pods leave per wave. */
  readonly maxAllowedSeen: number;
}

/** Progress over the pods the drain removes only: `total` is fixed by `started` and never changes. */
export interface DrainCounts {
  readonly total: number;
  readonly queued: number;
  /** Eviction requested or being retried after an error. */
  readonly evicting: number;
  readonly waiting: number;
  readonly terminating: number;
  readonly gone: number;
  readonly skipped: number;
  readonly failed: number;
  /** Dry runs: judged by the API server (or, client side, assumed) and left in place. */
  readonly dryRun: number;
  /** gone + skipped + failed + dryRun: pods the drain is done with. */
  readonly done: number;
}

export interface DrainProgress {
  readonly nodes: readonly string[];
  readonly dryRun: 'none' | 'client' | 'server';
  readonly startedAtMs: number | null;
  readonly lastEventAtMs: number | null;
  /** Time from `started` to the latest event. Views that tick use `elapsedAt(progress, now)`. */
  readonly elapsedMs: number;
  /** Every pod, in the order the engine announced them. */
  readonly pods: readonly PodProgress[];
  readonly counts: DrainCounts;
  readonly log: readonly DrainLogEntry[];
  readonly budgets: readonly BudgetProgress[];
  /**
   * Estimated rounds of evictions still to come (0 once nothing is pending, the drain finished, or the
   * wait is known to be blocked: no estimate is honest then).
   */
  readonly wavesLeft: number;
  /** Why the drain cannot go on by itself, once the cluster says so (a replacement the scheduler cannot place). */
  readonly blockedBy: string | null;
  /** From the plan's estimate, when the hints carry one; null otherwise and once finished. */
  readonly timeLeft?: TimeLeft | null;
  /**
   * The pods not yet admitted whose time the estimate cannot count (namespace/name): the plan's
   * (eta.uncounted), and any an admission webhook answers 429 while its operator moves it. The time left
   * is then at least what it says.
   */
  readonly uncounted?: readonly string[];
  /** The plan's verdict and its first reason, when the hints carry them: a client dry run's answer is the plan's. */
  readonly plan?: PlanVerdict;
  readonly finished: FinishedEvent | null;
}

/** What the plan knows that the event stream does not: which budget guards each pod, and its wave size. */
export interface WaveHints {
  /** namespace/name of a budget → BudgetPlan.perWave. */
  readonly perWave: ReadonlyMap<string, number>;
  /** Pod uid → namespace/name of its budget. */
  readonly podBudget: ReadonlyMap<string, string>;
  /** namespace/name of a budget → why the plan expects it not to free up (a replacement with no node). */
  readonly budgetBlocker?: ReadonlyMap<string, string>;
  /** namespace/name of the budgets the plan says never allow an eviction of a pod the drain waits for. */
  readonly budgetNever?: ReadonlySet<string>;
  /** The plan's estimate (plan.eta) and --escalate-after, for the one "about N s left" (drain/time-left.ts). */
  readonly eta?: PlannedTimes;
  /** The pods (namespace/name) whose time the plan's estimate cannot count (plan.eta.uncounted). */
  readonly uncounted?: ReadonlySet<string>;
  readonly plan?: PlanVerdict;
}

/** The plan's verdict, and why in one line. */
export interface PlanVerdict {
  readonly verdict: Verdict;
  readonly reason: string;
  /** Of a blocked plan: whether a pod certainly holds the drain back, or only pods whose outcome is unknown. */
  readonly blockedWords?: BlockedWords;
}

export interface DrainProgressOptions {
  /**
   * From `waveHintsFromPlan`. Without them, a pod is tied to a budget once it waits for it, and a wave is
   * assumed to be the most disruptions the budget was seen to allow, at least one.
   */
  readonly hints?: WaveHints;
}

/** `escalation`: --escalate-after and --escalate-namespace as the drain was asked, for their deadlines. */
export function waveHintsFromPlan(plan: DrainPlan, escalation?: PlannedTimes['escalation']): WaveHints {
  const total = plan.eta?.totalSeconds;
  const unplaced = plan.pods.filter((p) => p.replacement?.schedulable === false);
  // The budgets that hold a pod for good (not taken out by --surge or --escalate-*: those are not blocked).
  const blocked = new Set(plan.pods.filter((p) => p.outcome === 'blocked').flatMap((p) => p.pdbs.map(qualified)));
  const never = plan.budgets.filter((b) => b.neverAllows !== null && blocked.has(qualified(b)));
  const way = wayOutText(plan) ?? 'no flag lets it finish';
  return {
    plan: {
      verdict: plan.verdict,
      reason: plan.verdictReasons[0] ?? plan.verdict,
      ...(plan.verdict === 'blocked' ? { blockedWords: blockedWords(plan) } : {}),
    },
    perWave: new Map(plan.budgets.map((b) => [qualified(b), b.perWave])),
    podBudget: new Map(plan.pods.flatMap((p) => (p.pdbs[0] ? [[p.uid, qualified(p.pdbs[0])] as const] : []))),
    budgetBlocker: new Map([
      ...unplaced.flatMap((p) =>
        p.pdbs.map(
          (b) => [qualified(b), `no node for the replacement of ${qualified(p)}: ${p.replacement!.message}`] as const,
        ),
      ),
      // A budget that never allows an eviction: said in the pod's row with the way out, not "asked again".
      ...never.map((b) => [qualified(b), `it never allows an eviction (${b.neverAllows}); ${way}`] as const),
    ]),
    budgetNever: new Set(never.map(qualified)),
    ...(plan.eta?.uncounted ? { uncounted: new Set(plan.eta.uncounted.pods) } : {}),
    ...(plan.eta && total != null
      ? {
          eta: {
            totalSeconds: total,
            podWave: new Map(plan.pods.flatMap((p) => (p.wave !== null ? [[p.uid, p.wave] as const] : []))),
            waveStartsAfterSeconds: new Map(plan.eta.waves.map((w) => [w.wave, w.startsAfterSeconds])),
            graceSeconds: new Map(plan.pods.flatMap((p) => (p.eta ? [[p.uid, p.eta.graceSeconds] as const] : []))),
            escalation,
          },
        }
      : {}),
  };
}

/** Seconds left as of `nowMs` (negative once past the estimate); null without an estimate and once finished. */
export function secondsLeftAt(progress: DrainProgress, nowMs: number): number | null {
  const left = progress.timeLeft;
  if (!left || progress.finished) return null;
  return secondsLeft(left, nowMs);
}

/** The time left after an event: drain/time-left.ts, over the pods as they are now. */
function estimateTimeLeft(
  pods: readonly PodProgress[],
  previous: TimeLeft | null | undefined,
  atMs: number,
  eta: WaveHints['eta'],
): TimeLeft | null {
  if (!eta) return null;
  const now = pods.map((p) => ({ uid: p.pod.uid, key: qualified(p.pod), namespace: p.pod.namespace, state: p.state }));
  return followTimeLeft(previous ?? null, now, atMs, eta);
}

export function initialDrainProgress(): DrainProgress {
  return {
    nodes: [],
    dryRun: 'none',
    startedAtMs: null,
    lastEventAtMs: null,
    elapsedMs: 0,
    pods: [],
    counts: countPods([]),
    log: [],
    budgets: [],
    wavesLeft: 0,
    blockedBy: null,
    finished: null,
  };
}

export function reduceDrainEvents(
  state: DrainProgress,
  event: DrainEvent,
  options: DrainProgressOptions = {},
): DrainProgress {
  const applied = applyEvent(state, event);
  const next = { ...applied, pods: withPlanBlockers(applied.pods, options.hints) };
  const startedAtMs = next.startedAtMs ?? event.atMs;
  const blockedBy = next.finished ? null : knownBlock(next.pods);
  return {
    ...next,
    ...(options.hints?.plan ? { plan: options.hints.plan } : {}),
    startedAtMs,
    lastEventAtMs: event.atMs,
    elapsedMs: Math.max(0, event.atMs - startedAtMs),
    counts: countPods(next.pods.filter((p) => p.counted)),
    wavesLeft: next.finished || blockedBy ? 0 : estimateWavesLeft(next.pods, next.budgets, options.hints),
    blockedBy,
    timeLeft:
      next.finished || blockedBy ? null : estimateTimeLeft(next.pods, state.timeLeft, event.atMs, options.hints?.eta),
    uncounted: next.finished ? [] : uncountedLeft(next.pods, options.hints?.uncounted),
  };
}

// How the API server words a webhook's refusal (apiserver webhook/errors ToStatusErr).
const WEBHOOK_REFUSAL = /^admission webhook "[^"]+" denied the request/;
const ADMITTED: ReadonlySet<PodDrainState['phase']> = new Set(['terminating', 'gone', 'skipped', 'failed', 'dry-run']);

/** The pods not yet admitted that the plan could not count, or that a webhook's 429 holds now. */
function uncountedLeft(pods: readonly PodProgress[], planned: ReadonlySet<string> | undefined): string[] {
  return pods
    .filter((p) => p.counted && !ADMITTED.has(p.state.phase))
    .filter(
      (p) =>
        planned?.has(qualified(p.pod)) === true ||
        (p.state.phase === 'retrying' && WEBHOOK_REFUSAL.test(p.state.error)),
    )
    .map((p) => qualified(p.pod));
}

/** Each waiting pod with what the plan predicted holds its budget. */
function withPlanBlockers(pods: readonly PodProgress[], hints: WaveHints | undefined): readonly PodProgress[] {
  if (!hints?.budgetBlocker?.size) return pods;
  return pods.map((p) => {
    const planBlocker = p.pdb ? hints.budgetBlocker?.get(p.pdb) : undefined;
    const budgetNeverAllows = p.pdb !== null && hints.budgetNever?.has(p.pdb) === true;
    return planBlocker === p.planBlocker && budgetNeverAllows === (p.budgetNeverAllows ?? false)
      ? p
      : { ...p, planBlocker, budgetNeverAllows };
  });
}

/**
 * A wait the cluster says will not end by itself: a pod of the budget the scheduler cannot place, or a
 * budget the disruption controller cannot compute.
 */
function knownBlock(pods: readonly PodProgress[]): string | null {
  for (const p of pods) {
    if (p.state.phase !== 'waiting-for-budget') continue;
    const stuck = p.state.blockers?.find((b) => b.state === 'unschedulable');
    if (stuck) return `${stuck.pod} cannot be scheduled`;
    if (p.state.controllerError) return `budget ${p.pdb ?? p.state.pdb} cannot be computed`;
    if (p.budgetNeverAllows) return `budget ${p.pdb ?? p.state.pdb} never allows an eviction, as the plan said`;
  }
  return null;
}

/** Elapsed time as of `nowMs` while running, frozen at the `finished` event once done. */
export function elapsedAt(progress: DrainProgress, nowMs: number): number {
  if (progress.startedAtMs === null) return 0;
  const end = progress.finished ? progress.finished.atMs : nowMs;
  return Math.max(0, end - progress.startedAtMs);
}

function applyEvent(state: DrainProgress, event: DrainEvent): DrainProgress {
  switch (event.type) {
    case 'started':
      return {
        ...state,
        nodes: event.nodes,
        dryRun: event.dryRun,
        startedAtMs: event.atMs,
        pods: event.pods.map((pod) => ({
          pod,
          state: { phase: 'queued' },
          phaseSinceMs: event.atMs,
          pdb: null,
          counted: true,
        })),
      };
    case 'cordoned':
      return {
        ...state,
        log: [
          ...state.log,
          {
            id: `${state.log.length}`,
            kind: 'cordoned',
            atMs: event.atMs,
            node: event.node,
            already: event.already,
            dryRun: event.dryRun,
          },
        ],
      };
    case 'warning':
      return {
        ...state,
        log: [...state.log, { id: `${state.log.length}`, kind: 'warning', atMs: event.atMs, message: event.message }],
      };
    case 'group':
      return {
        ...state,
        log: [
          ...state.log,
          { id: `${state.log.length}`, kind: 'note', atMs: event.atMs, message: groupStartText(event) },
        ],
      };
    case 'late-pods': {
      const known = new Set(state.pods.map((p) => p.pod.uid));
      const joining = event.pods
        .filter((pod) => !known.has(pod.uid))
        .map((pod): PodProgress => ({
          pod,
          state: { phase: 'queued' },
          phaseSinceMs: event.atMs,
          pdb: null,
          counted: true,
        }));
      return {
        ...state,
        pods: [...state.pods, ...joining],
        log: [
          ...state.log,
          { id: `${state.log.length}`, kind: 'warning', atMs: event.atMs, message: latePodsText(event) },
        ],
      };
    }
    case 'escalating':
      return {
        ...state,
        log: [
          ...state.log,
          { id: `${state.log.length}`, kind: 'warning', atMs: event.atMs, message: escalationText(event) },
        ],
      };
    case 'surge': {
      const kind = event.step === 'failed' || event.step === 'not-surged' ? 'warning' : 'note';
      return {
        ...state,
        log: [...state.log, { id: `${state.log.length}`, kind, atMs: event.atMs, message: surgeText(event) }],
      };
    }
    case 'pod':
      return applyPodState(state, event.pod, event.state, event.atMs);
    case 'finished':
      return { ...state, finished: event };
  }
}

function applyPodState(state: DrainProgress, pod: PodRef, podState: PodDrainState, atMs: number): DrainProgress {
  const index = state.pods.findIndex((p) => p.pod.uid === pod.uid);
  const previous = index === -1 ? undefined : state.pods[index];
  const pdb =
    podState.phase === 'waiting-for-budget' ? qualifiedPdb(pod.namespace, podState.pdb) : (previous?.pdb ?? null);
  const phaseSinceMs =
    podState.phase === 'waiting-for-budget'
      ? podState.sinceMs
      : previous && previous.state.phase === podState.phase
        ? previous.phaseSinceMs
        : atMs;
  const updated: PodProgress = { pod, state: podState, phaseSinceMs, pdb, counted: previous?.counted ?? false };
  const pods = index === -1 ? [...state.pods, updated] : state.pods.map((p, i) => (i === index ? updated : p));
  const log =
    isFinished(podState) && !(previous && isFinished(previous.state))
      ? [...state.log, { id: `${state.log.length}`, kind: 'pod' as const, atMs, pod, state: podState }]
      : state.log;
  const budgets =
    podState.phase === 'waiting-for-budget'
      ? updateBudget(state.budgets, pdb ?? podState.pdb, podState)
      : state.budgets;
  return { ...state, pods, log, budgets };
}

export function isFinished(state: PodDrainState): state is Finished {
  return state.phase === 'gone' || state.phase === 'skipped' || state.phase === 'failed' || state.phase === 'dry-run';
}

function updateBudget(
  budgets: readonly BudgetProgress[],
  pdb: string,
  wait: Extract<PodDrainState, { phase: 'waiting-for-budget' }>,
): BudgetProgress[] {
  const previous = budgets.find((b) => b.pdb === pdb);
  const updated: BudgetProgress = {
    pdb,
    disruptionsAllowed: wait.disruptionsAllowed,
    currentHealthy: wait.currentHealthy,
    desiredHealthy: wait.desiredHealthy,
    maxAllowedSeen: Math.max(previous?.maxAllowedSeen ?? 0, wait.disruptionsAllowed),
  };
  return previous ? budgets.map((b) => (b === previous ? updated : b)) : [...budgets, updated];
}

function countPods(pods: readonly PodProgress[]): DrainCounts {
  const count = (...phases: PodDrainState['phase'][]) => pods.filter((p) => phases.includes(p.state.phase)).length;
  const gone = count('gone');
  const skipped = count('skipped');
  const failed = count('failed');
  const dryRun = count('dry-run');
  return {
    total: pods.length,
    queued: count('queued'),
    evicting: count('evicting', 'retrying'),
    waiting: count('waiting-for-budget'),
    terminating: count('terminating'),
    gone,
    skipped,
    failed,
    dryRun,
    done: gone + skipped + failed + dryRun,
  };
}

/** Waves left (drain/time-left.ts), each pod under the budget it waited for or the plan gave it. */
function estimateWavesLeft(
  pods: readonly PodProgress[],
  budgets: readonly BudgetProgress[],
  hints: WaveHints | undefined,
): number {
  return wavesLeft(
    pods.map((p) => ({ state: p.state, budget: p.pdb ?? hints?.podBudget.get(p.pod.uid) ?? null })),
    (budget) => hints?.perWave.get(budget) ?? budgets.find((b) => b.pdb === budget)?.maxAllowedSeen ?? 0,
  );
}
