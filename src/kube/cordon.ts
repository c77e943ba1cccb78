import type { KubeRest } from './rest.js';

export interface CordonResult {
  readonly node: string;
  /** spec.unschedulable already had the wanted value: no request was sent (kubectl's "already cordoned"). */
  readonly already: boolean;
}

/**
 * The node calls of a cordon, over whichever client the command holds: client-node's typed API for the
 * drain and the run (kube/drain-client.ts), kube/rest.ts for `cordon` and `uncordon` alone. Errors are
 * thrown as client-node's ApiException or its shape (kube/rest.ts ApiError).
 */
export interface NodeCalls {
  readNode(name: string): Promise<{ readonly spec?: { readonly unschedulable?: boolean } | undefined }>;
  /** A JSON merge patch of the node; `dryRun` sends dryRun=All. */
  mergePatchNode(name: string, patch: object, dryRun: boolean): Promise<void>;
  /** The names of the nodes matching a label selector (kubectl cordon -l), filtered by the API server. */
  listNodeNames(labelSelector: string): Promise<string[]>;
}

/**
 * The JSON merge patch that cordons or uncordons a node: uncordon sends null, which removes the field
 * (false is omitted by the API anyway).
 */
export function unschedulablePatch(unschedulable: boolean): { spec: { unschedulable: true | null } } {
  return { spec: { unschedulable: unschedulable ? true : null } };
}

/**
 * Cordons (unschedulable=true) or uncordons a node as kubectl does: read the node, and patch only when
 * spec.unschedulable differs (unschedulablePatch). A server dry run sends the patch with dryRun=All; a
 * client dry run only reads.
 */
export async function setUnschedulable(
  nodes: NodeCalls,
  node: string,
  unschedulable: boolean,
  dryRun: 'none' | 'client' | 'server',
): Promise<CordonResult> {
  return setUnschedulableOf(nodes, node, await nodes.readNode(node), unschedulable, dryRun);
}

/** setUnschedulable on a node already read: `current` is what the API server returned for it. */
export async function setUnschedulableOf(
  nodes: NodeCalls,
  node: string,
  current: Awaited<ReturnType<NodeCalls['readNode']>>,
  unschedulable: boolean,
  dryRun: 'none' | 'client' | 'server',
): Promise<CordonResult> {
  if ((current.spec?.unschedulable ?? false) === unschedulable) return { node, already: true };
  if (dryRun === 'client') return { node, already: false };
  await nodes.mergePatchNode(node, unschedulablePatch(unschedulable), dryRun === 'server');
  return { node, already: false };
}

/** The node calls as plain requests (kube/rest.ts): what `cordon` and `uncordon` use. */
export function restNodeCalls(rest: KubeRest): NodeCalls {
  const path = (name: string) => `/api/v1/nodes/${encodeURIComponent(name)}`;
  return {
    readNode: (name) => rest.request({ method: 'GET', path: path(name) }),
    async mergePatchNode(name, patch, dryRun) {
      await rest.request({
        method: 'PATCH',
        path: path(name),
        query: dryRun ? { dryRun: 'All' } : undefined,
        body: patch,
        contentType: 'application/merge-patch+json',
      });
    },
    async listNodeNames(labelSelector) {
      const list = await rest.request<{ items?: Array<{ metadata?: { name?: string } }> }>({
        method: 'GET',
        path: '/api/v1/nodes',
        query: labelSelector ? { labelSelector } : undefined,
      });
      return (list.items ?? []).map((node) => node.metadata?.name ?? '');
    },
  };
}
