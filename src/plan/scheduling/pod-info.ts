import type { V1Pod } from '@kubernetes/client-node';
import { type AffinityTerm, requiredAffinityTerms, requiredAntiAffinityTerms } from './affinity-term.js';
import { type HostPort, hostPortsOf } from './plugins/node-ports.js';
import { podRequests, type Resources } from './pod-requests.js';

/** A pod with what the filters read worked out once (the scheduler's `PodInfo`). */
export interface PodInfo {
  readonly pod: V1Pod;
  readonly uid: string;
  readonly name: string;
  readonly namespace: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly priority: number;
  readonly requests: Resources;
  readonly hostPorts: readonly HostPort[];
  readonly requiredAffinityTerms: readonly AffinityTerm[];
  readonly requiredAntiAffinityTerms: readonly AffinityTerm[];
}

/** `useStatus`: count requests as for a pod already on a node (status resources, see podRequests). */
export function podInfo(pod: V1Pod, useStatus = false): PodInfo {
  return {
    pod,
    uid: pod.metadata?.uid ?? '',
    name: pod.metadata?.name ?? '',
    namespace: pod.metadata?.namespace ?? 'default',
    labels: pod.metadata?.labels ?? {},
    priority: pod.spec?.priority ?? 0,
    requests: podRequests(pod, useStatus),
    hostPorts: hostPortsOf(pod),
    requiredAffinityTerms: requiredAffinityTerms(pod),
    requiredAntiAffinityTerms: requiredAntiAffinityTerms(pod),
  };
}
