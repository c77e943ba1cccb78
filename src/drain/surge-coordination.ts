import type { StoppedBy } from './drain-stop.js';
import type { PodDrainState } from './events.js';
import { isSettled } from './pod-machine.js';
import type { SurgeRequest, SurgeWork } from './surge.js';

// How --surge meets the pods' evictions (surge.ts does the Deployments' writes): which surge a pod's first
// eviction waits for, when a Deployment may go back, and what its going back says.

/** Pod uid → the surge its first eviction waits for. Nothing is surged in a dry run: no pod waits. */
export function surgesByPod(
  request: SurgeRequest | undefined,
  dryRun: 'none' | 'client' | 'server',
): ReadonlyMap<string, SurgeWork> {
  const byPod = new Map<string, SurgeWork>();
  if (dryRun !== 'none') return byPod;
  for (const work of request?.deployments ?? []) for (const uid of work.pods) byPod.set(uid, work);
  return byPod;
}

/**
 * Whether the Deployment of `work` goes back to its own count: every surged pod of it is settled (gone,
 * failed, skipped). A pod the drain does not hold is not waited for.
 */
export function surgeSettled(work: SurgeWork, stateOf: (uid: string) => PodDrainState | undefined): boolean {
  return work.pods.every((uid) => {
    const state = stateOf(uid);
    return !state || isSettled(state);
  });
}

/** Why the Deployments still surged when the drain returns go back, as their `restored` event says. */
export function surgeEndReason(stoppedBy: StoppedBy | null): string {
  return stoppedBy ? `the drain stopped (${stoppedBy})` : 'the drain ended';
}
