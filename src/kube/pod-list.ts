import type { V1LabelSelector, V1Pod } from '@kubernetes/client-node';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DrainClient } from './drain-client.js';
import { retryRead } from './read-retry.js';

/** LIST the pods of a namespace that a label selector (a budget's) selects. */
export async function listPodsMatching(
  client: DrainClient,
  namespace: string,
  selector: V1LabelSelector,
): Promise<V1Pod[]> {
  const list = await client.core.listNamespacedPod({ namespace, labelSelector: labelSelectorText(selector) });
  return list.items;
}

/**
 * LIST the pods bound to a node, in every namespace, read from the API server now (no resourceVersion: a
 * consistent read, never the watch's copy): kubectl drain's list of a node's pods, made once it is cordoned.
 */
export async function listPodsOnNode(client: DrainClient, node: string): Promise<V1Pod[]> {
  // Sent again after APF's 429 or a break, as the cache's reads are: an answer the drain's claim rests on.
  const list = await retryRead(() => client.core.listPodForAllNamespaces({ fieldSelector: `spec.nodeName=${node}` }), {
    brokenOff: true,
    sleep: (ms) => sleep(ms),
  });
  return list.items;
}

/**
 * A LabelSelector in the query form the API server parses (`app=web,tier in (a,b),!canary`), as
 * metav1.LabelSelectorAsSelector writes it. The empty selector is the empty string: every pod.
 */
export function labelSelectorText(selector: V1LabelSelector): string {
  const labels = Object.entries(selector.matchLabels ?? {}).map(([key, value]) => `${key}=${value}`);
  const expressions = (selector.matchExpressions ?? []).map((req) => {
    const values = [...(req.values ?? [])].sort().join(',');
    switch (req.operator) {
      case 'In':
        return `${req.key} in (${values})`;
      case 'NotIn':
        return `${req.key} notin (${values})`;
      case 'Exists':
        return req.key;
      case 'DoesNotExist':
        return `!${req.key}`;
      default:
        throw new Error(`unknown label selector operator "${req.operator}" for key "${req.key}"`);
    }
  });
  return [...labels, ...expressions].join(',');
}
