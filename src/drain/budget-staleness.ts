import type { V1LabelSelector, V1Pod, V1PodDisruptionBudget } from '@kubernetes/client-node';
import type { KubeError } from '../kube/errors.js';
import { isPodReady } from '../plan/pod-facts.js';
import type { Clock } from './clock.js';
import { readFailure } from './read-failures.js';

/**
 * A PodDisruptionBudget's status is written by the disruption controller (in kube-controller-manager) and,
 * for each admitted eviction, by the API server. While the controller is down the status stops following
 * the pods: a replacement becomes Ready and the budget still says "has 11, allowed 0". The drain then waits
 * for a status that will not change until the controller is back; showing the stale numbers as facts would
 * mislead the operator. So while pods wait for a budget, the drain counts the budget's pods as the
 * controller does, and when the count and the status disagree for longer than the controller needs to
 * catch up, it says the status is stale.
 */

/** The controller normally follows a pod's change within a second; this much disagreement is not lag. */
export const STALE_AFTER_MS = 10_000;

/**
 * The healthy pods of a budget now, by the disruption controller's rule (countHealthyPods): pods the
 * selector matches, not being deleted, not just evicted (status.disruptedPods), and Ready.
 */
export function healthyPodsNow(pdb: V1PodDisruptionBudget, pods: readonly V1Pod[]): number {
  const disrupted = pdb.status?.disruptedPods ?? {};
  return pods.filter(
    (pod) =>
      !pod.metadata?.deletionTimestamp &&
      !Object.prototype.hasOwnProperty.call(disrupted, pod.metadata?.name ?? '') &&
      isPodReady(pod),
  ).length;
}

/** What the drain knows about one budget's status, from one count to the next. */
export interface StatusTrack {
  /** The status the count was compared with (currentHealthy, disruptionsAllowed, observedGeneration). */
  readonly status: string;
  /** Healthy pods at the last count. */
  readonly healthyPods: number;
  /** Since when the count has disagreed with this same status; null when they agree. */
  readonly disagreeSinceMs: number | null;
}

/** The budget's status stale, with how many pods are healthy now: what a waiting pod shows. */
export interface StaleStatus {
  readonly healthyPods: number;
  readonly sinceMs: number;
}

function statusKey(pdb: V1PodDisruptionBudget): string {
  const status = pdb.status;
  return `${status?.currentHealthy ?? 0}/${status?.disruptionsAllowed ?? 0}/${status?.observedGeneration ?? 0}`;
}

/**
 * Folds one count into the budget's track. The disagreement's clock restarts whenever the status itself
 * changes: a controller that writes, even late, is alive.
 */
export function trackStatus(
  previous: StatusTrack | undefined,
  pdb: V1PodDisruptionBudget,
  healthyPods: number,
  nowMs: number,
): StatusTrack {
  const status = statusKey(pdb);
  const agrees = healthyPods === (pdb.status?.currentHealthy ?? 0);
  const since = previous && previous.status === status ? previous.disagreeSinceMs : null;
  return { status, healthyPods, disagreeSinceMs: agrees ? null : (since ?? nowMs) };
}

/** Stale once the count has disagreed with an unchanged status for STALE_AFTER_MS. */
export function staleStatus(track: StatusTrack | undefined, nowMs: number): StaleStatus | null {
  if (!track || track.disagreeSinceMs === null || nowMs - track.disagreeSinceMs < STALE_AFTER_MS) return null;
  return { healthyPods: track.healthyPods, sinceMs: track.disagreeSinceMs };
}

/** Counting a budget's pods again sooner than this adds nothing: the controller had no time to act. */
const COUNT_EVERY_MS = 2_000;

export type ListBudgetPods = (namespace: string, selector: V1LabelSelector) => Promise<V1Pod[]>;

/**
 * Judges the status of the budgets pods wait for. The budget watches feed `observe`/`forget`; each budget
 * refusal calls `count`, which lists the budget's pods (at most every COUNT_EVERY_MS) and tells `onJudged`
 * whether the status is stale. A count that fails is ridden out (the next refusal counts again) or, for a
 * failure that will not pass by itself, handed to `onCountFailed`.
 */
export class BudgetStatusJudge {
  private readonly budgets = new Map<string, V1PodDisruptionBudget>();
  private readonly tracks = new Map<string, StatusTrack>();
  private readonly lastCountMs = new Map<string, number>();
  private readonly counting = new Set<string>();

  constructor(
    private readonly clock: Clock,
    private readonly listPods: ListBudgetPods,
    private readonly onJudged: (key: string, stale: StaleStatus | null) => void,
    private readonly onCountFailed: (key: string, error: KubeError) => void,
  ) {}

  observe(key: string, pdb: V1PodDisruptionBudget): void {
    this.budgets.set(key, pdb);
  }

  forget(key: string): void {
    this.budgets.delete(key);
    this.tracks.delete(key);
  }

  /** The status as last judged, for a pod that starts waiting for this budget. */
  stale(key: string): StaleStatus | null {
    return staleStatus(this.tracks.get(key), this.clock.now());
  }

  async count(key: string): Promise<void> {
    const pdb = this.budgets.get(key);
    const now = this.clock.now();
    if (!pdb || this.counting.has(key) || now - (this.lastCountMs.get(key) ?? -Infinity) < COUNT_EVERY_MS) return;
    this.counting.add(key);
    this.lastCountMs.set(key, now);
    const namespace = pdb.metadata?.namespace ?? 'default';
    try {
      const pods = await this.listPods(namespace, pdb.spec?.selector ?? {});
      const latest = this.budgets.get(key) ?? pdb; // the status may have moved during the LIST
      const track = trackStatus(this.tracks.get(key), latest, healthyPodsNow(latest, pods), this.clock.now());
      this.tracks.set(key, track);
      this.onJudged(key, staleStatus(track, this.clock.now()));
    } catch (err) {
      const error = readFailure(err, { verb: 'list', resource: 'pods', namespace });
      if (error) this.onCountFailed(key, error);
    } finally {
      this.counting.delete(key);
    }
  }
}
