import { PatchStrategy, setHeaderOptions, type V1Deployment } from '@kubernetes/client-node';
import type { DrainClient } from './drain-client.js';
import { SURGE_ANNOTATION, type SurgeRecord } from './surge-record.js';

export function readDeployment(client: DrainClient, namespace: string, name: string): Promise<V1Deployment> {
  return client.apps.readNamespacedDeployment({ namespace, name });
}

/**
 * Sets spec.replicas and the surge record in one merge patch, guarded by the resourceVersion read just
 * before (a conflict means someone else changed the Deployment: the caller reads again). `record: null`
 * removes the annotation.
 */
export async function patchSurge(
  client: DrainClient,
  deployment: V1Deployment,
  replicas: number,
  record: SurgeRecord | null,
): Promise<V1Deployment> {
  return client.apps.patchNamespacedDeployment(
    {
      namespace: deployment.metadata?.namespace ?? 'default',
      name: deployment.metadata?.name ?? '',
      body: {
        metadata: {
          resourceVersion: deployment.metadata?.resourceVersion,
          annotations: { [SURGE_ANNOTATION]: record ? JSON.stringify(record) : null },
        },
        spec: { replicas },
      },
    },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
  );
}

/** The HorizontalPodAutoscaler (autoscaling/v2) that scales this Deployment, if any: its name. */
export async function autoscalerOf(client: DrainClient, namespace: string, deployment: string): Promise<string | null> {
  const list = await client.autoscaling.listNamespacedHorizontalPodAutoscaler({ namespace });
  const hpa = list.items.find(
    (h) => h.spec?.scaleTargetRef.kind === 'Deployment' && h.spec.scaleTargetRef.name === deployment,
  );
  return hpa?.metadata?.name ?? null;
}
