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
 * field (false is omitted by the API anyway). A server dry run sends the patch with dryRun=All.
 * API errors are thrown as client-node's ApiException.
 */
export async function setUnschedulable(
  client: DrainClient,
  node: string,
  unschedulable: boolean,
  dryRun: boolean,
): Promise<CordonResult> {
  const current = await client.core.readNode({ name: node });
  if ((current.spec?.unschedulable ?? false) === unschedulable) return { node, already: true };
  await client.core.patchNode(
    {
      name: node,
      body: { spec: { unschedulable: unschedulable ? true : null } },
      ...(dryRun ? { dryRun: 'All' } : {}),
    },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
  );
  return { node, already: false };
}
