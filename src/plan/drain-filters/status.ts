import type { ClusterIndex } from '../../snapshot/cluster-index.js';
import type { DrainFilterOptions } from './chain.js';

/**
 * kubectl's PodDeleteStatus (pkg/drain/filters.go): whether the pod is deleted, and why. `okay` with an
 * empty message is the plain case; `skip` leaves the pod alone silently, `warning` is printed, `error`
 * stops the whole node from being drained.
 */
export interface PodDeleteStatus {
  readonly delete: boolean;
  readonly kind: 'okay' | 'skip' | 'warning' | 'error';
  readonly message: string;
  /** For an error: the flag that lets kubectl drain the pod anyway (the one its message names), if any. */
  readonly override?: string | undefined;
}

export const okay = (): PodDeleteStatus => ({ delete: true, kind: 'okay', message: '' });
export const skip = (message: string): PodDeleteStatus => ({ delete: false, kind: 'skip', message });
export const warning = (deleted: boolean, message: string): PodDeleteStatus => ({
  delete: deleted,
  kind: 'warning',
  message,
});
export const error = (message: string, override?: string): PodDeleteStatus => ({
  delete: false,
  kind: 'error',
  message,
  override,
});

/** What the filters read besides the pod: the drain flags, "now", and the snapshot (for DaemonSet lookups). */
export interface FilterContext {
  readonly options: DrainFilterOptions & { readonly nowEpochSeconds: number };
  readonly index: ClusterIndex;
}
