import {
  AuthorizationV1Api,
  CoordinationV1Api,
  PatchStrategy,
  setHeaderOptions,
  type V1Lease,
  type V1Node,
  type V1NodeCondition,
  type V1PodDisruptionBudget,
} from '@kubernetes/client-node';
import { makeApi, type KubeClient } from './client.js';
import { drainClientFor } from './drain-client.js';
import { unschedulablePatch } from './cordon.js';
import { classifyKubeError, type KubeCall, type KubeError } from './errors.js';
import { listWatch } from './list-watch.js';

/** A permission a run needs, in kubectl auth can-i's terms. */
export interface AccessCheck {
  readonly verb: string;
  readonly resource: string;
  readonly group?: string;
  readonly subresource?: string;
  readonly namespace?: string;
}

/**
 * Everything `kubectl maint run` asks of the API server beyond the drain (kube/drain-api.ts): the run's
 * Lease, the nodes' annotations (with the uncordon), status conditions and readiness, budgets, watches of
 * nodes and budgets, and access reviews.
 * Failures are thrown as one-line KubeErrors.
 */
export interface RunApi {
  readNode(name: string): Promise<V1Node>;
  listNodes(labelSelector?: string): Promise<V1Node[]>;
  /**
   * Merge-patches metadata.annotations (a null value removes the annotation) and, with `uncordon`,
   * spec.unschedulable in the same request: a node's phase and its uncordon are written at once.
   */
  annotateNode(
    name: string,
    annotations: Readonly<Record<string, string | null>>,
    options?: { readonly uncordon?: boolean },
  ): Promise<void>;
  /**
   * Annotates the node only if it is still at `resourceVersion` (the read the caller decided on): the node
   * as written, or null when the API answers 409, the node having changed since.
   */
  annotateNodeIfUnchanged(
    name: string,
    annotations: Readonly<Record<string, string | null>>,
    resourceVersion: string | undefined,
    options?: { readonly uncordon?: boolean },
  ): Promise<V1Node | null>;
  /** Strategic-merge-patches status.conditions (merged by type) through nodes/status: the node as written. */
  setNodeConditions(name: string, conditions: readonly V1NodeCondition[]): Promise<V1Node>;
  readLease(namespace: string, name: string): Promise<V1Lease | null>;
  listLeases(namespace: string, labelSelector: string): Promise<V1Lease[]>;
  createLease(namespace: string, lease: V1Lease): Promise<V1Lease>;
  /** Replaces the Lease; the API answers 409 when its resourceVersion is no longer current. */
  replaceLease(namespace: string, lease: V1Lease): Promise<V1Lease>;
  deleteLease(namespace: string, name: string): Promise<void>;
  /**
   * Watches one Lease: `onChange` gets it on every change, null once it is deleted. A watch that fails
   * restarts in the background (list-watch.ts).
   */
  watchLease(namespace: string, name: string, onChange: (lease: V1Lease | null) => void): { stop(): void };
  readPdb(namespace: string, name: string): Promise<V1PodDisruptionBudget | null>;
  /**
   * Whether the namespace exists, by a LIST of namespaces selected by name (the plan's role may list them,
   * not get them); undefined when that cannot tell (the user may not list namespaces).
   */
  namespaceExists(name: string): Promise<boolean | undefined>;
  /** SelfSubjectAccessReview: may the current user do this? */
  canI(check: AccessCheck): Promise<boolean>;
  /**
   * Watches every node and every PodDisruptionBudget and calls `onChange` with what changed: what a run
   * waits for (a node back, a budget recovered, the cluster settled) is read again as soon as it may have
   * changed. A watch that fails (no list/watch permission, say) retries in the background; the run's
   * waits read on a timer too, so it is only later, never wrong.
   */
  watchChanges(onChange: (change: ClusterChange) => void): { stop(): void };
}

/** An object a run's wait may depend on changed (added, updated or deleted). */
export type ClusterChange =
  | { readonly kind: 'node'; readonly name: string }
  | { readonly kind: 'pdb'; readonly namespace: string; readonly name: string };

export function runApi(client: KubeClient): RunApi {
  const coordination = makeApi(client.target, CoordinationV1Api);
  const authorization = makeApi(client.target, AuthorizationV1Api);
  const drainClient = drainClientFor(client);
  const fail =
    (call: KubeCall) =>
    (err: unknown): never => {
      throw classifyKubeError(err, client.target, call);
    };
  const orNull =
    <T>(call: KubeCall) =>
    (err: unknown): T | null => {
      const e: KubeError = classifyKubeError(err, client.target, call);
      if (e.kind === 'not-found') return null;
      throw e;
    };
  const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
  const strategicPatch = setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch);
  return {
    readNode: (name) => client.core.readNode({ name }).catch(fail({ verb: 'get', resource: 'nodes', name })),
    listNodes: async (labelSelector) =>
      (
        await client.core
          .listNode(labelSelector ? { labelSelector } : {})
          .catch(fail({ verb: 'list', resource: 'nodes' }))
      ).items,
    annotateNode: async (name, annotations, options) => {
      const body = { metadata: { annotations }, ...(options?.uncordon ? unschedulablePatch(false) : {}) };
      await client.core.patchNode({ name, body }, mergePatch).catch(fail({ verb: 'patch', resource: 'nodes', name }));
    },
    annotateNodeIfUnchanged: async (name, annotations, resourceVersion, options) => {
      const body = {
        metadata: { annotations, resourceVersion },
        ...(options?.uncordon ? unschedulablePatch(false) : {}),
      };
      try {
        return await client.core.patchNode({ name, body }, mergePatch);
      } catch (err) {
        const error = classifyKubeError(err, client.target, { verb: 'patch', resource: 'nodes', name });
        if (error.kind === 'conflict') return null;
        throw error;
      }
    },
    setNodeConditions: (name, conditions) =>
      client.core
        .patchNodeStatus({ name, body: { status: { conditions } } }, strategicPatch)
        .catch(fail({ verb: 'patch', resource: 'nodes/status', name })),
    readLease: (namespace, name) =>
      coordination
        .readNamespacedLease({ namespace, name })
        .catch(orNull<V1Lease>({ verb: 'get', resource: 'leases.coordination.k8s.io', namespace, name })),
    listLeases: async (namespace, labelSelector) =>
      (
        await coordination
          .listNamespacedLease({ namespace, labelSelector })
          .catch(fail({ verb: 'list', resource: 'leases.coordination.k8s.io', namespace }))
      ).items,
    createLease: (namespace, body) =>
      coordination
        .createNamespacedLease({ namespace, body })
        .catch(fail({ verb: 'create', resource: 'leases.coordination.k8s.io', namespace })),
    replaceLease: (namespace, body) =>
      coordination
        .replaceNamespacedLease({ namespace, name: body.metadata?.name ?? '', body })
        .catch(fail({ verb: 'update', resource: 'leases.coordination.k8s.io', namespace, name: body.metadata?.name })),
    deleteLease: async (namespace, name) => {
      await coordination
        .deleteNamespacedLease({ namespace, name })
        .catch(orNull({ verb: 'delete', resource: 'leases.coordination.k8s.io', namespace, name }));
    },
    watchLease: (namespace, name, onChange) => {
      const fieldSelector = `metadata.name=${name}`;
      const watch = listWatch<V1Lease>(
        drainClient,
        `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases`,
        () => coordination.listNamespacedLease({ namespace, fieldSelector }),
        fieldSelector,
        { onUpsert: onChange, onDelete: () => onChange(null) },
      );
      return { stop: () => watch.stop() };
    },
    readPdb: (namespace, name) =>
      client.policy
        .readNamespacedPodDisruptionBudget({ namespace, name })
        .catch(
          orNull<V1PodDisruptionBudget>({ verb: 'get', resource: 'poddisruptionbudgets.policy', namespace, name }),
        ),
    namespaceExists: async (name) => {
      try {
        const list = await client.core.listNamespace({ fieldSelector: `metadata.name=${name}` });
        return list.items.length > 0;
      } catch (err) {
        if (classifyKubeError(err, client.target).kind === 'forbidden') return undefined;
        throw classifyKubeError(err, client.target, { verb: 'list', resource: 'namespaces' });
      }
    },
    canI: async (check) => {
      const review = await authorization
        .createSelfSubjectAccessReview({
          body: {
            apiVersion: 'authorization.k8s.io/v1',
            kind: 'SelfSubjectAccessReview',
            spec: { resourceAttributes: { ...check } },
          },
        })
        .catch(fail({ verb: 'create', resource: 'selfsubjectaccessreviews.authorization.k8s.io' }));
      return review.status?.allowed === true;
    },
    watchChanges: (onChange) => {
      const node = (obj: V1Node) => onChange({ kind: 'node', name: obj.metadata?.name ?? '' });
      const pdb = (obj: V1PodDisruptionBudget) =>
        onChange({ kind: 'pdb', namespace: obj.metadata?.namespace ?? '', name: obj.metadata?.name ?? '' });
      const watches = [
        listWatch<V1Node>(drainClient, '/api/v1/nodes', () => client.core.listNode(), undefined, {
          onUpsert: node,
          onDelete: node,
        }),
        listWatch<V1PodDisruptionBudget>(
          drainClient,
          '/apis/policy/v1/poddisruptionbudgets',
          () => client.policy.listPodDisruptionBudgetForAllNamespaces(),
          undefined,
          { onUpsert: pdb, onDelete: pdb },
        ),
      ];
      return { stop: () => watches.forEach((w) => w.stop()) };
    },
  };
}
