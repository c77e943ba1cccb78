import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import type { DrainClient } from './drain-client.js';

export interface CordonResult {
  readonly node: string;
  /** spec.unschedulable already had the wanted value: no request was sent (kubectl's "already cordoned"). */
  readonly already: boolean;
}

/**
 * Cordons (unschedulable=true) or uncordons a node as kubectl does: read the node, and patch only when
 * spec.unschedulable differs. The patch is a JSON merge patch; uncordon sends null, which removes the
 * field (false is omitted by the API anyway). A server dry run sends the patch with dryRun=All; a
 * client dry run only reads. API errors are thrown as client-node's ApiException.
 */
export async function setUnschedulable(
  client: DrainClient,
  node: string,
  unschedulable: boolean,
  dryRun: 'none' | 'client' | 'server',
): Promise<CordonResult> {
  const current = await client.core.readNode({ name: node });
  if ((current.spec?.unschedulable ?? false) === unschedulable) return { node, already: true };
  if (dryRun === 'client') return { node, already: false };
  await client.core.patchNode(
    {
      name: node,
      body: { spec: { unschedulable: unschedulable ? true : null } },
      ...(dryRun === 'server' ? { dryRun: 'All' } : {}),
    },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
  );
  return { node, already: false };
}

/** The names of the nodes matching a label selector (kubectl cordon -l), filtered by the API server. */
export async function nodesMatching(client: DrainClient, labelSelector: string): Promise<string[]> {
  const list = await client.core.listNode({ labelSelector });
  return list.items.map((node) => node.metadata?.name ?? '');
}
