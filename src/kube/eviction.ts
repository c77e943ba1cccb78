import type { V1DeleteOptions, V1Eviction } from '@kubernetes/client-node';
import { outcomeOf, type ApiOutcome } from './api-outcome.js';
import type { DrainClient } from './drain-client.js';

export interface PodWriteOptions {
  readonly namespace: string;
  readonly name: string;
  /**
   * Sent as a precondition, so that a pod recreated under the same name (a StatefulSet replica) is never
   * evicted in place of the one we meant: the API answers 409 instead (kubectl sends none, see
   * kubernetes/kubernetes#138229).
   */
  readonly uid: string;
  /** Seconds; null leaves it unset so the pod's own terminationGracePeriodSeconds applies (kubectl's -1). */
  readonly gracePeriodSeconds: number | null;
  /** Server dry run: the API server runs every check, budget included, and persists nothing. */
  readonly dryRun: boolean;
}

/** DeleteOptions shared by an eviction and a plain delete. */
export function deleteOptions(options: PodWriteOptions): V1DeleteOptions {
  return {
    preconditions: { uid: options.uid },
    ...(options.gracePeriodSeconds === null ? {} : { gracePeriodSeconds: options.gracePeriodSeconds }),
    ...(options.dryRun ? { dryRun: ['All'] } : {}),
  };
}

/**
 * POST pods/{name}/eviction (policy/v1). The API server checks the pod's PodDisruptionBudget and answers
 * 2xx (admitted, the pod is being deleted), 429 (budget), 500 (more than one budget), 404, 403…; the
 * answer comes back as data for drain/eviction-retry.ts to classify, with the API server's `Warning:`
 * headers (a ValidatingAdmissionPolicy's Warn action, a webhook's warnings) on an answer of either kind.
 */
export function evictPod(client: DrainClient, options: PodWriteOptions): Promise<ApiOutcome> {
  const body: V1Eviction = {
    apiVersion: 'policy/v1',
    kind: 'Eviction',
    metadata: { name: options.name, namespace: options.namespace },
    deleteOptions: deleteOptions(options),
  };
  return outcomeOf(() =>
    client.core.createNamespacedPodEvictionWithHttpInfo({
      name: options.name,
      namespace: options.namespace,
      body,
      ...(options.dryRun ? { dryRun: 'All' } : {}),
    }),
  );
}
