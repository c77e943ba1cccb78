import type { V1Pod } from '@kubernetes/client-node';
import { toEpochSeconds } from '../pod-facts.js';
import { okay, skip, type FilterContext, type PodDeleteStatus } from './status.js';

/**
 * skipDeletedFilter: with --skip-wait-for-delete-timeout=N (N > 0), a pod whose deletionTimestamp is more
 * than N whole seconds old is skipped. Younger terminating pods pass: kubectl evicts them again (the API
 * lets them through without consulting budgets) and waits for them.
 */
export function skipDeletedFilter(pod: V1Pod, { options }: FilterContext): PodDeleteStatus {
  const timeout = options.skipWaitForDeleteTimeoutSeconds;
  const deletedAt = toEpochSeconds(pod.metadata?.deletionTimestamp);
  if (timeout <= 0 || deletedAt === undefined) return okay();
  if (Math.trunc(options.nowEpochSeconds - deletedAt) > timeout) {
    return skip(`has DeletionTimestamp older than ${timeout} seconds, skipping`);
  }
  return okay();
}
