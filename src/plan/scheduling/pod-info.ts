import type { V1Pod } from '@kubernetes/client-node';
import type { Snapshot } from '../../snapshot/types.js';
import { type AffinityTerm, requiredAffinityTerms, requiredAntiAffinityTerms } from './affinity-term.js';
import { namespaceLabels } from './namespace-labels.js';
import { type HostPort, hostPortsOf } from './host-ports.js';
import { podPriority } from './pod-priority.js';
import { nonZeroRequests, podRequests, statusRuleOf, type Resources } from './pod-requests.js';
import { kubeRules } from '../kube-version.js';

/** A snapshot that read no Namespace and no PriorityClass. */
const WITHOUT_CLUSTER_KINDS = { kinds: new Set(), namespaces: [], priorityClasses: [] } as unknown as Snapshot;

/** A pod with what the filters read worked out once (the scheduler's `PodInfo`). */
export interface PodInfo {
  readonly pod: V1Pod;
  readonly uid: string;
  readonly name: string;
  readonly namespace: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly priority: number;
  /** PreemptLowerPriority, or Never: DefaultPreemption leaves the pod unscheduled rather than evict others. */
  readonly preemptionPolicy: 'PreemptLowerPriority' | 'Never';
  readonly requests: Resources;
  /** cpu and memory as the LeastAllocated score counts them (missing container requests at their defaults). */
  readonly nonZeroRequests: Resources;
  readonly hostPorts: readonly HostPort[];
  readonly requiredAffinityTerms: readonly AffinityTerm[];
  readonly requiredAntiAffinityTerms: readonly AffinityTerm[];
}

/**
 * `snapshot`: where the pod's namespace labels and priority class come from (without one, as a snapshot
 * that read neither: the pod's own spec.priority, namespaceSelectors approximated). `useStatus`: count
 * requests as for a pod already on a node (status resources, see podRequests).
 */
export function podInfo(pod: V1Pod, snapshot: Snapshot = WITHOUT_CLUSTER_KINDS, useStatus = false): PodInfo {
  const namespaces = namespaceLabels(snapshot);
  const { priority, preemptionPolicy } = podPriority(pod, snapshot);
  const status = useStatus && statusRuleOf(kubeRules(snapshot));
  return {
    pod,
    uid: pod.metadata?.uid ?? '',
    name: pod.metadata?.name ?? '',
    namespace: pod.metadata?.namespace ?? 'default',
    labels: pod.metadata?.labels ?? {},
    priority,
    preemptionPolicy,
    requests: podRequests(pod, status),
    nonZeroRequests: nonZeroRequests(pod, status),
    hostPorts: hostPortsOf(pod),
    requiredAffinityTerms: requiredAffinityTerms(pod, namespaces),
    requiredAntiAffinityTerms: requiredAntiAffinityTerms(pod, namespaces),
  };
}
