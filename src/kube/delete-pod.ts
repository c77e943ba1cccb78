import { outcomeOf, type ApiOutcome } from './api-outcome.js';
import type { DrainClient } from './drain-client.js';
import { deleteOptions, type PodWriteOptions } from './eviction.js';

/**
 * DELETE a pod (--disable-eviction): no PodDisruptionBudget is consulted. Same options and preconditions
 * as an eviction.
 */
export function deletePod(client: DrainClient, options: PodWriteOptions): Promise<ApiOutcome> {
  return outcomeOf(() =>
    client.core.deleteNamespacedPodWithHttpInfo({
      name: options.name,
      namespace: options.namespace,
      body: deleteOptions(options),
      ...(options.dryRun ? { dryRun: 'All' } : {}),
      ...(options.gracePeriodSeconds === null ? {} : { gracePeriodSeconds: options.gracePeriodSeconds }),
    }),
  );
}
