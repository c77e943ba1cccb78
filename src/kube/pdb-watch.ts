import type { V1PodDisruptionBudget } from '@kubernetes/client-node';
import type { DrainClient } from './drain-client.js';
import { listWatch, type RunningWatch, type WatchHandlers } from './list-watch.js';

/**
 * Watches the PodDisruptionBudgets of one namespace: a pod refused for its budget is retried as soon as
 * the disruption controller writes a status that allows a disruption, instead of on a fixed timer.
 */
export function watchPdbsInNamespace(
  client: DrainClient,
  namespace: string,
  handlers: WatchHandlers<V1PodDisruptionBudget>,
): RunningWatch {
  return listWatch(
    client,
    `/apis/policy/v1/namespaces/${encodeURIComponent(namespace)}/poddisruptionbudgets`,
    () => client.policy.listNamespacedPodDisruptionBudget({ namespace }),
    undefined,
    handlers,
  );
}

/**
 * The PodDisruptionBudgets of one namespace, read now: when the API refuses a pod for having several, the
 * drain names them from the cluster, not only from what its watch has seen so far.
 */
export async function listPdbsInNamespace(client: DrainClient, namespace: string): Promise<V1PodDisruptionBudget[]> {
  return (await client.policy.listNamespacedPodDisruptionBudget({ namespace })).items;
}
