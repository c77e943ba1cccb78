import type { V1Pod, V1Taint } from '@kubernetes/client-node';
import { tolerationSecondsFor, type TaintDeletion } from './taint-eviction.js';

/** The taint the node lifecycle controller puts on a node whose kubelet stopped reporting. */
export const UNREACHABLE_TAINT: V1Taint = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' };

/** kube-apiserver --default-unreachable-toleration-seconds, which DefaultTolerationSeconds admission adds. */
export const DEFAULT_UNREACHABLE_TOLERATION_SECONDS = 300;

/**
 * Seconds from a node going silent until the pod is deleted: the controller waits
 * --node-monitor-grace-period before marking the node Unknown and tainting it unreachable, then the
 * taint eviction controller applies the pod's toleration for that taint. Admission gives every pod 300 s
 * unless it brings its own; a pod without any (a hand-made snapshot) is assumed to have that default.
 * A toleration without seconds (DaemonSet pods) means the pod is never deleted.
 */
export function nodeFailureDeletion(pod: V1Pod, gracePeriodSeconds: number): TaintDeletion {
  const seconds = tolerationSecondsFor(pod, UNREACHABLE_TAINT);
  const grace = `node-monitor-grace-period ${gracePeriodSeconds}s`;
  if (seconds === null) {
    return {
      afterSeconds: null,
      reason: 'tolerates node.kubernetes.io/unreachable without tolerationSeconds: never deleted',
    };
  }
  if (seconds === undefined) {
    const assumed = DEFAULT_UNREACHABLE_TOLERATION_SECONDS;
    return {
      afterSeconds: gracePeriodSeconds + assumed,
      reason: `${grace} + ${assumed}s (no toleration for node.kubernetes.io/unreachable: assumed the default DefaultTolerationSeconds admission adds)`,
    };
  }
  const wait = Math.max(0, seconds);
  return { afterSeconds: gracePeriodSeconds + wait, reason: `${grace} + tolerationSeconds ${seconds}s` };
}
