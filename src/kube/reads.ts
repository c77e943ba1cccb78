import { AutoscalingV2Api, StorageV1Api } from '@kubernetes/client-node';
import { makeApi, resolveCredentials, type KubeClient } from './client.js';
import { KubeError, classifyKubeError, type KubeCall } from './errors.js';

/** The kinds this module can list across the cluster, each with the resource name RBAC knows it by. */
export type ListableKind =
  | 'Node'
  | 'Pod'
  | 'PodDisruptionBudget'
  | 'ReplicaSet'
  | 'Deployment'
  | 'StatefulSet'
  | 'DaemonSet'
  | 'ReplicationController'
  | 'Job'
  | 'Service'
  | 'PersistentVolumeClaim'
  | 'PersistentVolume'
  | 'StorageClass'
  | 'CSINode'
  | 'CSIDriver'
  | 'CSIStorageCapacity'
  | 'HorizontalPodAutoscaler';

/** kubectl's --chunk-size default. */
import { DEFAULT_CHUNK_SIZE } from './defaults.js';

export interface PageRequest {
  readonly limit?: number;
  readonly _continue?: string;
}

export interface ListPage<T> {
  readonly items: T[];
  readonly metadata?:
    { readonly _continue?: string | undefined; readonly remainingItemCount?: number | undefined } | undefined;
}

interface KindReader {
  /** Plural resource with its group, as RBAC and kubectl name it. */
  readonly resource: string;
  readonly list: (client: KubeClient, page: PageRequest) => Promise<ListPage<object>>;
}

const READERS: Readonly<Record<ListableKind, KindReader>> = {
  Node: { resource: 'nodes', list: (c, p) => c.core.listNode(p) },
  Pod: { resource: 'pods', list: (c, p) => c.core.listPodForAllNamespaces(p) },
  PodDisruptionBudget: {
    resource: 'poddisruptionbudgets.policy',
    list: (c, p) => c.policy.listPodDisruptionBudgetForAllNamespaces(p),
  },
  ReplicaSet: { resource: 'replicasets.apps', list: (c, p) => c.apps.listReplicaSetForAllNamespaces(p) },
  Deployment: { resource: 'deployments.apps', list: (c, p) => c.apps.listDeploymentForAllNamespaces(p) },
  StatefulSet: { resource: 'statefulsets.apps', list: (c, p) => c.apps.listStatefulSetForAllNamespaces(p) },
  DaemonSet: { resource: 'daemonsets.apps', list: (c, p) => c.apps.listDaemonSetForAllNamespaces(p) },
  ReplicationController: {
    resource: 'replicationcontrollers',
    list: (c, p) => c.core.listReplicationControllerForAllNamespaces(p),
  },
  Job: { resource: 'jobs.batch', list: (c, p) => c.batch.listJobForAllNamespaces(p) },
  Service: { resource: 'services', list: (c, p) => c.core.listServiceForAllNamespaces(p) },
  PersistentVolumeClaim: {
    resource: 'persistentvolumeclaims',
    list: (c, p) => c.core.listPersistentVolumeClaimForAllNamespaces(p),
  },
  PersistentVolume: { resource: 'persistentvolumes', list: (c, p) => c.core.listPersistentVolume(p) },
  StorageClass: { resource: 'storageclasses.storage.k8s.io', list: (c, p) => storage(c).listStorageClass(p) },
  CSINode: { resource: 'csinodes.storage.k8s.io', list: (c, p) => storage(c).listCSINode(p) },
  CSIDriver: { resource: 'csidrivers.storage.k8s.io', list: (c, p) => storage(c).listCSIDriver(p) },
  CSIStorageCapacity: {
    resource: 'csistoragecapacities.storage.k8s.io',
    list: (c, p) => storage(c).listCSIStorageCapacityForAllNamespaces(p),
  },
  HorizontalPodAutoscaler: {
    resource: 'horizontalpodautoscalers.autoscaling',
    list: (c, p) => makeApi(c.target, AutoscalingV2Api).listHorizontalPodAutoscalerForAllNamespaces(p),
  },
};

/** storage.k8s.io, made per list call like autoscaling/v2: only a plan reads it, once per kind. */
function storage(client: KubeClient): StorageV1Api {
  return makeApi(client.target, StorageV1Api);
}

export interface ReadOptions {
  readonly kinds: readonly ListableKind[];
  /** Kinds whose failure aborts the read; any other kind that is forbidden or not served becomes a warning. */
  readonly required: readonly ListableKind[];
  /** Objects per page; 0 lists in one request. */
  readonly chunkSize?: number | undefined;
  /** Called after each page of each kind, so a caller can show how far the read has got. */
  readonly onProgress?: ((progress: ListProgress) => void) | undefined;
}

/** How far the listing of one kind has got. */
export interface ListProgress {
  readonly kind: ListableKind;
  /** The plural resource, as kubectl names it ("pods"). */
  readonly resource: string;
  readonly read: number;
  /** read + the server's remainingItemCount; null when the server does not say (or after the last page). */
  readonly total: number | null;
  readonly done: boolean;
}

export interface ClusterRead {
  /** Only the kinds that were read; a kind that could not be read is absent (and explained in warnings). */
  readonly objects: ReadonlyMap<ListableKind, readonly object[]>;
  readonly warnings: readonly string[];
}

/**
 * Lists the requested kinds across all namespaces. Credentials are resolved once and nodes are read
 * first, so a cluster that is down, or credentials that are wrong, fail with one error rather than ten;
 * the other kinds are then read in parallel.
 */
export async function readCluster(client: KubeClient, options: ReadOptions): Promise<ClusterRead> {
  await resolveCredentials(client.target);
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const objects = new Map<ListableKind, readonly object[]>();
  const warnings: string[] = [];
  const readOne = async (kind: ListableKind) => {
    try {
      objects.set(kind, await listKind(client, kind, chunkSize, options.onProgress));
    } catch (err) {
      const error = err instanceof KubeError ? err : classifyKubeError(err, client.target);
      const optional = !options.required.includes(kind);
      if (!optional || (error.kind !== 'forbidden' && error.kind !== 'not-found')) throw error;
      warnings.push(`${error.message} (${kind} objects not loaded)`);
    }
  };
  const [first, ...rest] = options.kinds;
  if (first) await readOne(first);
  await Promise.all(rest.map(readOne));
  const ordered = new Map(options.kinds.filter((k) => objects.has(k)).map((k) => [k, objects.get(k)!] as const));
  return { objects: ordered, warnings };
}

/** Every object of one kind, page by page, with the fields the plan never reads stripped as they arrive. */
export async function listKind(
  client: KubeClient,
  kind: ListableKind,
  chunkSize = DEFAULT_CHUNK_SIZE,
  onProgress?: (progress: ListProgress) => void,
): Promise<object[]> {
  const reader = READERS[kind];
  const call: KubeCall = { verb: 'list', resource: reader.resource };
  const resource = reader.resource.split('.')[0] ?? reader.resource;
  const report = onProgress
    ? (read: number, remaining: number | undefined, done: boolean) =>
        onProgress({
          kind,
          resource,
          read,
          total: done ? read : remaining === undefined ? null : read + remaining,
          done,
        })
    : undefined;
  report?.(0, undefined, false);
  try {
    const items = await listAllPages((page) => reader.list(client, page), chunkSize, stripUnusedFields, report);
    report?.(items.length, 0, true);
    return items;
  } catch (err) {
    throw classifyKubeError(err, client.target, call);
  }
}

/**
 * Follows `continue` tokens until the list is complete. When a token expires mid-way (410), starts over
 * with one unpaginated request, as client-go's pager does (FullListIfExpired).
 */
export async function listAllPages<T>(
  fetchPage: (page: PageRequest) => Promise<ListPage<T>>,
  chunkSize: number,
  each: (item: T) => T = (item) => item,
  /** After each page but the last: items so far and the server's remainingItemCount. */
  onPage?: (read: number, remaining: number | undefined, done: boolean) => void,
): Promise<T[]> {
  const items: T[] = [];
  let token: string | undefined;
  do {
    let page: ListPage<T>;
    try {
      page = await fetchPage(chunkSize > 0 ? { limit: chunkSize, ...(token ? { _continue: token } : {}) } : {});
    } catch (err) {
      if (token === undefined || classifyKubeError(err, undefined).kind !== 'expired') throw err;
      const full = await fetchPage({});
      return full.items.map(each);
    }
    for (const item of page.items) items.push(each(item));
    token = chunkSize > 0 ? page.metadata?._continue || undefined : undefined;
    if (token) onPage?.(items.length, page.metadata?.remainingItemCount, false);
  } while (token);
  return items;
}

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * managedFields and kubectl's last-applied annotation are often most of an object's size and nothing
 * in the plan reads them (kubectl get hides managedFields too).
 */
export function stripUnusedFields<T>(object: T): T {
  const metadata = (object as { metadata?: { managedFields?: unknown; annotations?: Record<string, string> } })
    .metadata;
  if (metadata) {
    delete metadata.managedFields;
    if (metadata.annotations && LAST_APPLIED in metadata.annotations) delete metadata.annotations[LAST_APPLIED];
  }
  return object;
}
