import type { V1Deployment, V2HorizontalPodAutoscaler } from '@kubernetes/client-node';
import { surgeRecordOf } from '../kube/surge-record.js';
import { autoscalerOfDeployment } from '../plan/surge.js';
import type { DrainPlan } from '../plan/types.js';
import type { SurgeRequest, SurgeWork } from './surge.js';

/**
 * The surge work of a drain: the Deployments the plan surges, with their pods; and the Deployments an
 * interrupted drain of the same nodes left surged (their record on them): finished when this drain surges
 * them too (`--surge` selects them), else returned to their own count before anything is evicted.
 *
 * `autoscalers` are the HorizontalPodAutoscalers the drain's read listed (undefined: not read). A
 * Deployment that none of them scales carries the drain's copy of it (`read`), for the surge's first write.
 */
export function surgeRequest(
  plan: DrainPlan,
  deployments: readonly V1Deployment[],
  selects: (deployment: string) => boolean,
  autoscalers?: readonly V2HorizontalPodAutoscaler[],
): SurgeRequest {
  const work = new Map<
    string,
    { namespace: string; name: string; extra: number; pods: string[]; read?: V1Deployment }
  >();
  const readOf = (namespace: string, name: string) => {
    if (!autoscalers || autoscalerOfDeployment(autoscalers, namespace, name)) return {};
    const read = deployments.find(
      (d) => (d.metadata?.namespace ?? 'default') === namespace && d.metadata?.name === name,
    );
    return read ? { read } : {};
  };
  const add = (namespace: string, name: string, uid: string) => {
    const key = `${namespace}/${name}`;
    const entry = work.get(key) ?? { namespace, name, extra: 0, pods: [], ...readOf(namespace, name) };
    entry.extra += 1;
    entry.pods.push(uid);
    work.set(key, entry);
  };
  for (const pod of plan.pods)
    if (pod.surge?.surged && pod.controller) add(pod.namespace, pod.controller.name, pod.uid);

  const restoreFirst: Array<{ namespace: string; name: string }> = [];
  for (const deployment of deployments) {
    const record = surgeRecordOf(deployment);
    if (!record || !record.nodes.some((n) => plan.nodes.includes(n))) continue;
    const namespace = deployment.metadata?.namespace ?? 'default';
    const name = deployment.metadata?.name ?? '';
    const key = `${namespace}/${name}`;
    if (work.has(key)) continue;
    if (!selects(key)) {
      restoreFirst.push({ namespace, name });
      continue;
    }
    const pods = plan.pods.filter(
      (p) =>
        p.action === 'evict' &&
        p.namespace === namespace &&
        p.controller?.kind === 'Deployment' &&
        p.controller.name === name,
    );
    if (pods.length === 0) restoreFirst.push({ namespace, name });
    for (const pod of pods) add(namespace, name, pod.uid);
  }
  return { deployments: [...work.values()] satisfies SurgeWork[], restoreFirst };
}
