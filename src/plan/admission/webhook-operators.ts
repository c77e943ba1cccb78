import type { V1Pod } from '@kubernetes/client-node';
import type { AdmissionWebhookPlan } from '../types.js';
import type { AdmissionRequest } from './request.js';

/**
 * The eviction webhooks of operators whose answers are documented (../shared reference: KubeVirt's
 * eviction interceptor, Strimzi's drain cleaner, the GCS FUSE CSI driver's mounter pods), recognised by
 * the webhook's name and the pod, with the answer each gives. Any other webhook's answer is its own.
 */

export interface OperatorAnswer {
  readonly operator: string;
  readonly answer: AdmissionWebhookPlan['answer'];
  /** The HTTP status the client gets, for a refusal. */
  readonly code?: number;
  /** The webhook's message, as the client sees it after `admission webhook "NAME" denied the request: `. */
  readonly message?: string;
  readonly text: string;
}

const KUBEVIRT_LAUNCHER = 'virt-launcher-eviction-interceptor.kubevirt.io';
const KUBEVIRT_HOTPLUG = 'hotplug-pod-eviction-interceptor.kubevirt.io';
const STRIMZI = 'strimzi-drain-cleaner.strimzi.io';
const GCS_FUSE = 'gcsfuse-sidecar-injector.csi.storage.gke.io';

/** The operator's answer to the request, or undefined for a webhook the plan does not know. */
export function operatorAnswer(webhook: string, pod: V1Pod, request: AdmissionRequest): OperatorAnswer | undefined {
  if (request.via !== 'eviction') return undefined;
  switch (webhook) {
    case KUBEVIRT_LAUNCHER:
    case KUBEVIRT_HOTPLUG:
      return kubevirt(pod);
    case STRIMZI:
      return strimzi(pod);
    case GCS_FUSE:
      return gcsFuse(pod);
    default:
      return undefined;
  }
}

/**
 * KubeVirt: a launcher pod of a VMI (annotation kubevirt.io/domain) is live-migrated when the VMI's
 * evictionStrategy asks for it: the webhook answers 429 every try until the migration has emptied the pod,
 * so the drain waits for as long as the migration takes. The strategy is on the VMI (or the KubeVirt CR),
 * which the plan does not read: with None the eviction is admitted, with LiveMigrate on a VM that cannot
 * migrate it is refused.
 */
function kubevirt(pod: V1Pod): OperatorAnswer {
  const vmi = pod.metadata?.annotations?.['kubevirt.io/domain'];
  const finished = pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
  if (!vmi || finished) {
    return { operator: 'KubeVirt', answer: 'admit', text: 'KubeVirt admits it (not a running launcher pod of a VM)' };
  }
  return {
    operator: 'KubeVirt',
    answer: 'wait',
    code: 429,
    message: `Eviction triggered evacuation of VMI "${pod.metadata?.namespace ?? 'default'}/${vmi}"`,
    text:
      `live-migrated by KubeVirt (VMI ${vmi}): the webhook answers 429 until the migration has moved the VM, and ` +
      'the drain waits for it, for a time the plan cannot count (with the evictionStrategy None, it is evicted at once)',
  };
}

/**
 * Strimzi's drain cleaner: a Kafka or ZooKeeper pod of a Kafka cluster (labels strimzi.io/kind=Kafka and
 * strimzi.io/name ending -kafka or -zookeeper) is annotated for a rolling update and, by default, its
 * eviction denied with 500: the Cluster Operator rolls the pod, and a drain run again after it finishes.
 */
function strimzi(pod: V1Pod): OperatorAnswer {
  const labels = pod.metadata?.labels ?? {};
  const target = labels['strimzi.io/kind'] === 'Kafka' && /.+-(kafka|zookeeper)$/.test(labels['strimzi.io/name'] ?? '');
  if (!target)
    return { operator: 'Strimzi', answer: 'admit', text: 'Strimzi admits it (not a Kafka broker or ZooKeeper pod)' };
  return {
    operator: 'Strimzi',
    answer: 'deny',
    code: 500,
    message: 'The pod will be rolled by the Strimzi Cluster Operator',
    text:
      'denied: Strimzi rolls the pod, drain again after it (the drain cleaner annotates it strimzi.io/manual-rolling-update ' +
      'and answers 500; with STRIMZI_DENY_EVICTION=false it admits and the budget holds the pod instead)',
  };
}

/** The GCS FUSE CSI driver refuses the eviction of its mounter pods (names starting gcsfusecsi-mount) with 403. */
function gcsFuse(pod: V1Pod): OperatorAnswer {
  if (!(pod.metadata?.name ?? '').startsWith('gcsfusecsi-mount')) {
    return {
      operator: 'GCS FUSE CSI driver',
      answer: 'admit',
      text: 'the GCS FUSE CSI driver admits it (not a mounter pod)',
    };
  }
  return {
    operator: 'GCS FUSE CSI driver',
    answer: 'deny',
    code: 403,
    message: 'Eviction of Mounter Pod is not allowed',
    text: 'refused: mounter pod of the GCS FUSE CSI driver (403 "Eviction of Mounter Pod is not allowed"), never evicted',
  };
}
