import type { V1Pod } from '@kubernetes/client-node';
import { ApiException } from '@kubernetes/client-node';
import type { DrainClient } from './drain-client.js';
import { listWatch, type RunningWatch, type WatchHandlers } from './list-watch.js';

/**
 * Watches every pod bound to a node, in all namespaces (the field selector kubectl drain lists with), so
 * the drain learns at once when a pod is deleted or replaced under the same name.
 */
export function watchPodsOnNode(client: DrainClient, node: string, handlers: WatchHandlers<V1Pod>): RunningWatch {
  const fieldSelector = `spec.nodeName=${node}`;
  return listWatch(
    client,
    '/api/v1/pods',
    () => client.core.listPodForAllNamespaces({ fieldSelector }),
    fieldSelector,
    handlers,
  );
}

/** GET one pod; null when it does not exist. Other errors are thrown. The watch's fallback. */
export async function readPodOrNull(client: DrainClient, namespace: string, name: string): Promise<V1Pod | null> {
  try {
    return await client.core.readNamespacedPod({ namespace, name });
  } catch (err) {
    if (err instanceof ApiException && err.code === 404) return null;
    throw err;
  }
}
