import {
  PatchStrategy,
  setHeaderOptions,
  type V1Deployment,
  type V2HorizontalPodAutoscaler,
} from '@kubernetes/client-node';
import type { DrainClient } from './drain-client.js';
import { listWatch, type RunningWatch, type WatchHandlers } from './list-watch.js';
import { SURGE_ANNOTATION, type AutoscalerSurgeRecord, type SurgeRecord } from './surge-record.js';

export function readDeployment(client: DrainClient, namespace: string, name: string): Promise<V1Deployment> {
  return client.apps.readNamespacedDeployment({ namespace, name });
}

/**
 * Watches one Deployment (a field selector on its name): the surge learns the moment the Deployment
 * controller reports the extra replicas Ready, instead of on a polling interval.
 */
export function watchDeployment(
  client: DrainClient,
  namespace: string,
  name: string,
  handlers: WatchHandlers<V1Deployment>,
): RunningWatch {
  const fieldSelector = `metadata.name=${name}`;
  return listWatch(
    client,
    `/apis/apps/v1/namespaces/${encodeURIComponent(namespace)}/deployments`,
    () => client.apps.listNamespacedDeployment({ namespace, fieldSelector }),
    fieldSelector,
    handlers,
  );
}

/**
 * A merge patch guarded by the resourceVersion read just before (a conflict means someone else changed
 * the object: the caller reads again), setting the surge record (`null` removes it) and `spec`.
 */
function guardedPatch(object: { metadata?: { resourceVersion?: string } }, record: object | null, spec: object) {
  return {
    metadata: {
      resourceVersion: object.metadata?.resourceVersion,
      annotations: { [SURGE_ANNOTATION]: record ? JSON.stringify(record) : null },
    },
    ...(Object.keys(spec).length > 0 ? { spec } : {}),
  };
}

const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/**
 * Sets the surge record and, unless `replicas` is null, spec.replicas in one patch: the record always goes
 * in the same write as (or before) the change it records. `record: null` removes the annotation.
 */
export async function patchSurge(
  client: DrainClient,
  deployment: V1Deployment,
  replicas: number | null,
  record: SurgeRecord | null,
): Promise<V1Deployment> {
  return client.apps.patchNamespacedDeployment(
    {
      namespace: deployment.metadata?.namespace ?? 'default',
      name: deployment.metadata?.name ?? '',
      body: guardedPatch(deployment, record, replicas === null ? {} : { replicas }),
    },
    mergePatch,
  );
}

/** The HorizontalPodAutoscaler (autoscaling/v2) that scales this Deployment, if any. */
export async function autoscalerOf(
  client: DrainClient,
  namespace: string,
  deployment: string,
): Promise<V2HorizontalPodAutoscaler | null> {
  const list = await client.autoscaling.listNamespacedHorizontalPodAutoscaler({ namespace });
  return (
    list.items.find((h) => h.spec?.scaleTargetRef.kind === 'Deployment' && h.spec.scaleTargetRef.name === deployment) ??
    null
  );
}

/** Sets an autoscaler's minReplicas and maxReplicas with its record (null removes it), guarded as above. */
export async function patchAutoscalerBounds(
  client: DrainClient,
  autoscaler: V2HorizontalPodAutoscaler,
  bounds: { readonly minReplicas: number; readonly maxReplicas: number },
  record: AutoscalerSurgeRecord | null,
): Promise<V2HorizontalPodAutoscaler> {
  return client.autoscaling.patchNamespacedHorizontalPodAutoscaler(
    {
      namespace: autoscaler.metadata?.namespace ?? 'default',
      name: autoscaler.metadata?.name ?? '',
      body: guardedPatch(autoscaler, record, bounds),
    },
    mergePatch,
  );
}
