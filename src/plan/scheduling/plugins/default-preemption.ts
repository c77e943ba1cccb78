import { splitByBudgetViolation, type PreemptionBudget } from '../pdb-violation.js';
import type { VictimPod } from '../pod-priority.js';
import type { Rejection } from '../framework.js';
import { unresolvable } from '../framework.js';

/**
 * DefaultPreemption, the PostFilter of the default profile (pkg/scheduler/framework/plugins/
 * defaultpreemption and framework/preemption, v1.37): when a pod fits nowhere, the node whose
 * lower-priority pods can make room, and the fewest of them to delete.
 */

export const NO_VICTIMS_REASON = 'No preemption victims found for incoming pod';
export const NOT_HELPFUL_REASON = 'Preemption is not helpful for scheduling';
export const PREEMPT_NEVER_MESSAGE = 'not eligible due to preemptionPolicy=Never.';

/** DefaultPreemptionArgs' defaults: dry-run at least 10 % of the potential nodes, and at least 100. */
const MIN_CANDIDATE_NODES_PERCENTAGE = 10;
const MIN_CANDIDATE_NODES_ABSOLUTE = 100;

/** `util.MoreImportantPod`: higher priority first, then the pod that started earlier. */
export function moreImportant(a: VictimPod, b: VictimPod): boolean {
  if (a.priority !== b.priority) return a.priority > b.priority;
  return a.startTime < b.startTime;
}

/** Sorts by descending importance; equal pods keep their order. */
export function byImportance<T extends VictimPod>(pods: readonly T[]): T[] {
  return [...pods].sort((a, b) => (moreImportant(a, b) ? -1 : moreImportant(b, a) ? 1 : 0));
}

/** `calculateNumCandidates`: how many candidates the dry run looks for before it stops. */
export function numCandidates(potentialNodes: number): number {
  const n = Math.trunc((potentialNodes * MIN_CANDIDATE_NODES_PERCENTAGE) / 100);
  return Math.min(potentialNodes, Math.max(n, MIN_CANDIDATE_NODES_ABSOLUTE));
}

/** The victims on one node, most important first, and how many of them break a budget. */
export interface NodeVictims<T extends VictimPod> {
  readonly victims: readonly T[];
  readonly pdbViolations: number;
}

/**
 * `SelectVictimsOnNode`: remove every pod of lower priority than the preemptor; if the preemptor does not
 * fit even then, the node is no candidate. Otherwise put pods back, most important first — those whose
 * deletion would break a budget before the others — keeping each that still lets the preemptor fit; the
 * rest are the victims. `fitsWithout(removed)` runs the filters with those pods gone from the node.
 */
export function selectVictimsOnNode<T extends VictimPod>(
  preemptorPriority: number,
  podsOnNode: readonly T[],
  budgets: readonly PreemptionBudget[],
  fitsWithout: (removed: readonly T[]) => Rejection | null,
): NodeVictims<T> | Rejection {
  const potential = podsOnNode.filter((p) => p.priority < preemptorPriority);
  if (potential.length === 0) return unresolvable(NO_VICTIMS_REASON);
  const failing = fitsWithout(potential);
  if (failing) return failing;
  const { violating, nonViolating } = splitByBudgetViolation(byImportance(potential), budgets);
  const removed = new Set<T>(potential);
  const victims: T[] = [];
  let pdbViolations = 0;
  const reprieve = (pod: T): boolean => {
    removed.delete(pod);
    if (fitsWithout([...removed]) === null) return true;
    removed.add(pod);
    victims.push(pod);
    return false;
  };
  for (const pod of violating) if (!reprieve(pod)) pdbViolations++;
  for (const pod of nonViolating) reprieve(pod);
  const ordered = violating.length > 0 && nonViolating.length > 0 ? byImportance(victims) : victims;
  return { victims: ordered, pdbViolations };
}

/** A node the dry run found, with its victims. */
export interface Candidate<T extends VictimPod> extends NodeVictims<T> {
  readonly node: string;
}

/**
 * `pickOneNodeForPreemption` with the default score functions, each applied to the nodes still tied:
 * 1. fewest budget violations; 2. lowest highest-priority victim; 3. smallest sum of victim priorities
 * (each shifted by 2^31 so negative ones count); 4. fewest victims; 5. the latest start time of the
 * highest-priority victims (their earliest one). Nodes still tied after that are all returned: upstream
 * takes the first of a Go map's iteration, which is random.
 */
export function pickCandidates<T extends VictimPod>(candidates: readonly Candidate<T>[]): Candidate<T>[] {
  const scores: Array<(c: Candidate<T>) => number> = [
    (c) => -c.pdbViolations,
    (c) => -c.victims[0]!.priority,
    (c) => -c.victims.reduce((sum, v) => sum + v.priority + 2 ** 31, 0),
    (c) => -c.victims.length,
    (c) => earliestStartOfHighestPriority(c.victims),
  ];
  let tied = [...candidates];
  for (const score of scores) {
    if (tied.length <= 1) break;
    const best = Math.max(...tied.map(score));
    tied = tied.filter((c) => score(c) === best);
  }
  return tied;
}

/** `GetEarliestPodStartTime`: among the victims of the highest priority, the earliest start time. */
function earliestStartOfHighestPriority(victims: readonly VictimPod[]): number {
  const top = Math.max(...victims.map((v) => v.priority));
  return Math.min(...victims.filter((v) => v.priority === top).map((v) => v.startTime));
}
