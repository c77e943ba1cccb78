import type { KubeClient } from '../kube/client.js';
import { readCluster, type ListProgress } from '../kube/reads.js';
import { assembleSnapshot } from './assemble.js';
import { ON_DEMAND_KINDS, REQUIRED_KINDS, SNAPSHOT_KINDS, type Snapshot } from './types.js';

/** How far the live read has got, per kind (re-exported so ui/ never imports kube/). */
export type { ListProgress } from '../kube/reads.js';

export interface LiveSnapshotOptions {
  /** Objects per list request (kubectl's --chunk-size); 0 = no paging. */
  readonly chunkSize?: number | undefined;
  /** After each page of each kind: how far the read has got (for a spinner; the read never waits on it). */
  readonly onProgress?: ((progress: ListProgress) => void) | undefined;
  /** --surge was given (any value): HorizontalPodAutoscalers are read too. */
  readonly surge?: unknown;
}

/**
 * Reads the cluster into a Snapshot: nodes first, then every other kind in parallel. A kind the user may
 * not list (403) or the server does not serve (404) is left out with a warning, so the plan can say what
 * it could not check; nodes and pods are required.
 */
export async function loadLiveSnapshot(client: KubeClient, options: LiveSnapshotOptions = {}): Promise<Snapshot> {
  const read = await readCluster(client, {
    kinds: options.surge ? SNAPSHOT_KINDS : SNAPSHOT_KINDS.filter((k) => !ON_DEMAND_KINDS.includes(k)),
    required: REQUIRED_KINDS,
    chunkSize: options.chunkSize,
    onProgress: options.onProgress,
  });
  const { context, server } = client.target;
  return assembleSnapshot({ type: 'live', context, server }, read.objects, read.warnings);
}
