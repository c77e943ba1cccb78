import { protectAnnotations, releaseAnnotations } from './autoscaler-annotations.js';
import type { KubeRest } from './rest.js';

export interface CordonResult {
  readonly node: string;
  /** spec.unschedulable already had the wanted value: no request was sent (kubectl's "already cordoned"). */
  readonly already: boolean;
  /** The node as the API server answered the patch; absent when none was sent or it was a dry run. */
  readonly written?: NodeRead | undefined;
}

/**
 * The node calls of a cordon, over whichever client the command holds: client-node's typed API for the
 * drain and the run (kube/drain-client.ts), kube/rest.ts for `cordon` and `uncordon` alone. Errors are
 * thrown as client-node's ApiException or its shape (kube/rest.ts ApiError).
 */
export interface NodeCalls {
  readNode(name: string): Promise<NodeRead>;
  /** A JSON merge patch of the node; `dryRun` sends dryRun=All. The node as the API server answered. */
  mergePatchNode(name: string, patch: object, dryRun: boolean): Promise<NodeRead>;
  /** The names of the nodes matching a label selector (kubectl cordon -l), filtered by the API server. */
  listNodeNames(labelSelector: string): Promise<string[]>;
}

/** What a cordon reads of a node: its cordon, its annotations (autoscaler-annotations.ts), its uid (for its events). */
export interface NodeRead {
  readonly metadata?:
    | {
        readonly name?: string | undefined;
        readonly annotations?: Readonly<Record<string, string>> | undefined;
        readonly resourceVersion?: string | undefined;
        readonly uid?: string | undefined;
      }
    | undefined;
  readonly spec?: { readonly unschedulable?: boolean | undefined } | undefined;
}

/**
 * The JSON merge patch that cordons or uncordons a node: uncordon sends null, which removes the field
 * (false is omitted by the API anyway).
 */
export function unschedulablePatch(unschedulable: boolean): { spec: { unschedulable: true | null } } {
  return { spec: { unschedulable: unschedulable ? true : null } };
}

/**
 * Cordons (unschedulable=true) or uncordons a node as kubectl does, on the node as read (`current`): the
 * patch is sent only when spec.unschedulable differs (unschedulablePatch). A server dry run sends it with
 * dryRun=All; a client dry run sends nothing. An uncordon also gives back the autoscaler annotations a
 * drain or a run set with its cordon (autoscaler-annotations.ts), in the same patch; on a node uncordoned
 * already, alone.
 */
export async function setUnschedulableOf(
  nodes: NodeCalls,
  node: string,
  current: NodeRead,
  unschedulable: boolean,
  dryRun: 'none' | 'client' | 'server',
): Promise<CordonResult> {
  const release = unschedulable ? null : releaseAnnotations(current.metadata?.annotations);
  const already = (current.spec?.unschedulable ?? false) === unschedulable;
  if ((already && !release) || dryRun === 'client') return { node, already };
  const patch = {
    ...(already ? {} : unschedulablePatch(unschedulable)),
    ...(release ? { metadata: { annotations: release } } : {}),
  };
  await nodes.mergePatchNode(node, patch, dryRun === 'server');
  return { node, already };
}

/**
 * The cordon of a drain or a run: the node taken out for maintenance, with the autoscaler annotations set
 * in the same patch (autoscaler-annotations.ts). The patch is guarded by the resourceVersion of the read
 * that decided what to record, so an annotation someone sets meanwhile is never recorded as ours (a 409:
 * read and decide again). A node cordoned already is left as it is: its cordon, and how it is kept from
 * autoscalers, belong to whoever cordoned it (or to the earlier drain whose record it carries).
 */
export async function cordonForMaintenance(nodes: NodeCalls, node: string, dryRun: boolean): Promise<CordonResult> {
  for (;;) {
    const current = await nodes.readNode(node);
    if (current.spec?.unschedulable === true) return { node, already: true };
    const protect = protectAnnotations(current.metadata?.annotations);
    const patch = {
      ...unschedulablePatch(true),
      ...(protect ? { metadata: { annotations: protect, resourceVersion: current.metadata?.resourceVersion } } : {}),
    };
    try {
      const written = await nodes.mergePatchNode(node, patch, dryRun);
      return { node, already: false, ...(dryRun ? {} : { written }) };
    } catch (err) {
      if ((err as { code?: unknown }).code !== 409) throw err;
    }
  }
}

/** The node calls as plain requests (kube/rest.ts): what `cordon` and `uncordon` use. */
export function restNodeCalls(rest: KubeRest): NodeCalls {
  const path = (name: string) => `/api/v1/nodes/${encodeURIComponent(name)}`;
  return {
    readNode: (name) => rest.request({ method: 'GET', path: path(name) }),
    mergePatchNode(name, patch, dryRun) {
      return rest.request({
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
