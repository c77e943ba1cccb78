import { ClusterCache, type ListProgress } from './cluster-cache.js';
import type { Freshness } from './informer.js';
import type { ListableKind } from './kinds.js';

export type { ListableKind } from './kinds.js';
export type { ListProgress } from './cluster-cache.js';
export { stripUnusedFields } from './strip-fields.js';

export interface ReadOptions {
  readonly kinds: readonly ListableKind[];
  /** Kinds whose failure aborts the read; any other kind that is forbidden becomes a warning, or not served `notServed`. */
  readonly required: readonly ListableKind[];
  /** Objects per page where a read is paged; 0 lists in one request (kube/cluster-cache.ts). */
  readonly chunkSize?: number | undefined;
  /** Called as each kind is read, so a caller can show how far the read has got. */
  readonly onProgress?: ((progress: ListProgress) => void) | undefined;
  /** 'cache' unless the caller writes on the strength of the read (docs/reads.md). */
  readonly freshness?: Freshness | undefined;
  /** A collection path other than KIND_PATHS' for a kind: another version the server serves it in. */
  readonly paths?: Partial<Record<ListableKind, string>> | undefined;
  /** The server answers a consistent LIST from its watch cache (kube/cluster-cache.ts). */
  readonly consistentListFromCache?: boolean | undefined;
}

export interface ClusterRead {
  /** Only the kinds that were read; a kind that could not be read is absent (and explained in warnings). */
  readonly objects: ReadonlyMap<ListableKind, readonly object[]>;
  readonly warnings: readonly string[];
  /** The kinds the server does not serve: there are none of them (not a kind that could not be read). */
  readonly notServed: readonly ListableKind[];
}

/**
 * Reads the requested kinds across all namespaces once (kube/cluster-cache.ts without its watches). By
 * default from the API server's watch cache as it is (resourceVersion=0: at most a moment behind etcd),
 * which a plan, a picture of the cluster either way, can take; 'consistent' for a drain that acts on it.
 */
export async function readCluster(
  client: Parameters<typeof ClusterCache.open>[0],
  options: ReadOptions,
): Promise<ClusterRead> {
  const cache = await ClusterCache.open(client, { ...options, watch: false, freshness: options.freshness ?? 'cache' });
  cache.stop();
  return { objects: cache.objects(), warnings: cache.warnings, notServed: cache.notServed };
}
