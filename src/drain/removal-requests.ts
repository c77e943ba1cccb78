import type { PodWriteOptions } from '../kube/eviction.js';
import type { PodDrainState, PodRef } from './events.js';
import type { EvictionCall } from './eviction-retry.js';
import type { PodMachineConfig } from './pod-machine.js';
import type { DrainTarget } from './targets.js';

// What the drain sends for one pod, decided from the request and the plan's target alone: how its
// machine is configured, the eviction (or delete) it sends, and what a client dry run says instead.

/**
 * The pod's machine: a server dry run sends dry-run requests (a client dry run sends none), and the grace
 * period is --grace-period, or the pod's own terminationGracePeriodSeconds when it is negative (-1).
 */
export function podMachineConfig(
  target: DrainTarget,
  dryRun: 'none' | 'client' | 'server',
  gracePeriodSeconds: number,
  maxFailures: number,
): PodMachineConfig {
  return {
    dryRun: dryRun === 'server' ? 'server' : 'none',
    method: target.method,
    graceSeconds: gracePeriodSeconds >= 0 ? gracePeriodSeconds : target.ownGraceSeconds,
    maxFailures,
  };
}

/**
 * The request for the pod, its UID as a precondition; a negative --grace-period sends none, so the pod's
 * own applies (kubectl's -1).
 */
export function podWriteOptions(ref: PodRef, config: PodMachineConfig, gracePeriodSeconds: number): PodWriteOptions {
  return {
    namespace: ref.namespace,
    name: ref.name,
    uid: ref.uid,
    gracePeriodSeconds: gracePeriodSeconds >= 0 ? gracePeriodSeconds : null,
    dryRun: config.dryRun === 'server',
  };
}

/** kubectl's words for the request, for the messages of its answer: create pods/eviction, or delete pods. */
export function requestWords(method: PodMachineConfig['method']): Pick<EvictionCall, 'verb' | 'resource'> {
  return method === 'evict' ? { verb: 'create', resource: 'pods/eviction' } : { verb: 'delete', resource: 'pods' };
}

/** A client dry run sends nothing: the API server checks no budget, as with kubectl drain --dry-run=client. */
export function clientDryRunState(target: DrainTarget): PodDrainState {
  const reason = target.method === 'evict' ? 'would be evicted (budgets not checked)' : 'would be deleted';
  return { phase: 'dry-run', admitted: true, reason, pdb: null };
}
