import type {
  V1Deployment,
  V1LabelSelector,
  V1Pod,
  V1PodDisruptionBudget,
  V2HorizontalPodAutoscaler,
} from '@kubernetes/client-node';
import type { ApiOutcome } from './api-outcome.js';
import { cordonForMaintenance, type CordonResult } from './cordon.js';
import { deletePod } from './delete-pod.js';
import {
  autoscalerOf,
  patchAutoscalerBounds,
  patchSurge,
  readDeployment,
  watchDeployment,
} from './deployment-surge.js';
import type { AutoscalerSurgeRecord, SurgeRecord } from './surge-record.js';
import type { DrainClient } from './drain-client.js';
import { evictPod, type PodWriteOptions } from './eviction.js';
import type { RunningWatch, WatchHandlers } from './list-watch.js';
import { listPdbsInNamespace, watchPdbsInNamespace } from './pdb-watch.js';
import { listPodsMatching, listPodsOnNode } from './pod-list.js';
import { readPodOrNull, watchPodsOnNode } from './pod-watch.js';

/**
 * Everything the drain engine asks of the API server, in one interface (the engine's port, as kubectl's
 * drain Helper holds its client): the engine is written against this and always runs on the real one.
 */
export interface DrainApi {
  /**
   * Sets spec.unschedulable, with the autoscaler annotations (kube/cordon.ts cordonForMaintenance); throws
   * client-node's ApiException (or a network error) on failure.
   */
  cordon(node: string, dryRun: boolean): Promise<CordonResult>;
  evict(options: PodWriteOptions): Promise<ApiOutcome>;
  deletePod(options: PodWriteOptions): Promise<ApiOutcome>;
  readPod(namespace: string, name: string): Promise<V1Pod | null>;
  /** The pods of a namespace a budget's selector selects: what keeps the budget from freeing up. */
  listPods(namespace: string, selector: V1LabelSelector): Promise<V1Pod[]>;
  /** The pods bound to a node, read from the API server now (never a watch's copy). */
  listPodsOnNode(node: string): Promise<V1Pod[]>;
  watchPodsOnNode(node: string, handlers: WatchHandlers<V1Pod>): RunningWatch;
  watchPdbs(namespace: string, handlers: WatchHandlers<V1PodDisruptionBudget>): RunningWatch;
  /** The budgets of a namespace, read now (which ones select a pod the API refused for having several). */
  listPdbs(namespace: string): Promise<V1PodDisruptionBudget[]>;
  /** --surge: read and watch a Deployment, set its replicas (null: leave them) with the surge record. */
  readDeployment(namespace: string, name: string): Promise<V1Deployment>;
  watchDeployment(namespace: string, name: string, handlers: WatchHandlers<V1Deployment>): RunningWatch;
  patchSurge(deployment: V1Deployment, replicas: number | null, record: SurgeRecord | null): Promise<V1Deployment>;
  /** --surge: the autoscaler that scales a Deployment, and its bounds raised (or returned) with its record. */
  autoscalerOf(namespace: string, deployment: string): Promise<V2HorizontalPodAutoscaler | null>;
  patchAutoscalerBounds(
    autoscaler: V2HorizontalPodAutoscaler,
    bounds: { readonly minReplicas: number; readonly maxReplicas: number },
    record: AutoscalerSurgeRecord | null,
  ): Promise<V2HorizontalPodAutoscaler>;
}

export function drainApi(client: DrainClient): DrainApi {
  return {
    cordon: (node, dryRun) => cordonForMaintenance(client.nodes, node, dryRun),
    evict: (options) => evictPod(client, options),
    deletePod: (options) => deletePod(client, options),
    readPod: (namespace, name) => readPodOrNull(client, namespace, name),
    listPods: (namespace, selector) => listPodsMatching(client, namespace, selector),
    listPodsOnNode: (node) => listPodsOnNode(client, node),
    watchPodsOnNode: (node, handlers) => watchPodsOnNode(client, node, handlers),
    watchPdbs: (namespace, handlers) => watchPdbsInNamespace(client, namespace, handlers),
    listPdbs: (namespace) => listPdbsInNamespace(client, namespace),
    readDeployment: (namespace, name) => readDeployment(client, namespace, name),
    patchSurge: (deployment, replicas, record) => patchSurge(client, deployment, replicas, record),
    watchDeployment: (namespace, name, handlers) => watchDeployment(client, namespace, name, handlers),
    autoscalerOf: (namespace, deployment) => autoscalerOf(client, namespace, deployment),
    patchAutoscalerBounds: (autoscaler, bounds, record) => patchAutoscalerBounds(client, autoscaler, bounds, record),
  };
}

export type { RunningWatch } from './list-watch.js';
export {
  SURGE_ANNOTATION,
  hasAutoscalerRecord,
  surgeRecordOf,
  type AutoscalerBounds,
  type SurgeRecord,
} from './surge-record.js';
