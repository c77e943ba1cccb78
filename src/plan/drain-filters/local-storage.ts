import type { V1Pod } from '@kubernetes/client-node';
import { isTerminal } from '../pod-facts.js';
import { error, okay, warning, type FilterContext, type PodDeleteStatus } from './status.js';

export const LOCAL_STORAGE_FATAL = 'Pods with local storage (use --delete-emptydir-data to override)';
export const LOCAL_STORAGE_WARNING = 'deleting Pods with local storage';

/**
 * localStorageFilter: a running pod with an emptyDir volume (any medium; hostPath and local PVs do not
 * count) loses its data when evicted, so it stops the node unless --delete-emptydir-data. kubectl's
 * warning for the allowed case is overwritten by the next filter, so it is never printed.
 */
export function localStorageFilter(pod: V1Pod, { options }: FilterContext): PodDeleteStatus {
  const hasEmptyDir = (pod.spec?.volumes ?? []).some((v) => v.emptyDir != null);
  if (!hasEmptyDir || isTerminal(pod)) return okay();
  return options.deleteEmptyDirData
    ? warning(true, LOCAL_STORAGE_WARNING)
    : error(LOCAL_STORAGE_FATAL, '--delete-emptydir-data');
}
