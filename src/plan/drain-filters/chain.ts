import type { V1Pod } from '@kubernetes/client-node';
import type { DrainAction } from '../types.js';
import { daemonSetFilter } from './daemon-set.js';
import { localStorageFilter } from './local-storage.js';
import { mirrorPodFilter } from './mirror-pod.js';
import { skipDeletedFilter } from './skip-deleted.js';
import { okay, type FilterContext, type PodDeleteStatus } from './status.js';
import { unreplicatedFilter } from './unreplicated.js';

/**
 * kubectl drain's pod-handling flags, as the chain and the plan read them: the one spelling from the flag
 * (`src/cli/drain-flags.ts` maps them once) to the filter; a run records them as they are and plans each
 * batch with them. A new one is optional, absent meaning kubectl's default, so runs recorded without it
 * and option literals elsewhere read as before.
 */
export interface DrainFilterOptions {
  /** --ignore-daemonsets */
  readonly ignoreDaemonSets: boolean;
  /** --delete-emptydir-data */
  readonly deleteEmptyDirData: boolean;
  /** --force */
  readonly force: boolean;
  /** --pod-selector: only pods matching this label selector are drained. */
  readonly podSelector?: string | undefined;
  /** --disable-eviction: pods are deleted, bypassing budgets. */
  readonly disableEviction: boolean;
  /** --skip-wait-for-delete-timeout, seconds (0 = off). */
  readonly skipWaitForDeleteTimeoutSeconds: number;
}

type PodFilter = (pod: V1Pod, ctx: FilterContext) => PodDeleteStatus;

/** kubectl's order (makeFilters). Order is behaviour: the last status wins, earlier warnings are lost. */
const FILTERS: ReadonlyArray<readonly [name: string, filter: PodFilter]> = [
  ['skipDeletedFilter', skipDeletedFilter],
  ['daemonSetFilter', daemonSetFilter],
  ['mirrorPodFilter', mirrorPodFilter],
  ['localStorageFilter', localStorageFilter],
  ['unreplicatedFilter', unreplicatedFilter],
];

/** What kubectl drain does with one pod, and which filter said so. */
export interface FilterVerdict {
  readonly action: DrainAction;
  /** kubectl's message; empty for a plain eviction. */
  readonly reason: string;
  /** The filter whose status is final; empty for a plain eviction. */
  readonly filter: string;
  /** A refusal's override: the flag kubectl names to drain the pod anyway; absent when none does. */
  readonly override?: string | undefined;
}

/**
 * Runs the chain as kubectl's filterPods does: stop at the first filter that keeps the pod, otherwise
 * the last filter's status stands. `disableEviction` turns evictions into deletes (--disable-eviction).
 */
export function filterPod(pod: V1Pod, ctx: FilterContext, disableEviction = false): FilterVerdict {
  let status = okay();
  let decidedBy = '';
  for (const [name, filter] of FILTERS) {
    status = filter(pod, ctx);
    decidedBy = status.kind === 'okay' ? '' : name;
    if (!status.delete) break;
  }
  const action = actionOf(status, disableEviction);
  return {
    action,
    reason: status.message,
    filter: decidedBy,
    ...(action === 'refuse' && status.override ? { override: status.override } : {}),
  };
}

function actionOf(status: PodDeleteStatus, disableEviction: boolean): DrainAction {
  if (status.kind === 'error') return 'refuse';
  if (!status.delete) return 'skip';
  return disableEviction ? 'delete' : 'evict';
}
