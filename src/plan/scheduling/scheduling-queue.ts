import type { V1Pod } from '@kubernetes/client-node';
import type { Snapshot } from '../../snapshot/types.js';
import { controllerRef, isTerminal, isTerminating, toEpochSeconds } from '../pod-facts.js';
import { podPriority } from './pod-priority.js';

/** The scheduler the default profile answers for; a pod naming another one is not its to place. */
export const DEFAULT_SCHEDULER = 'default-scheduler';

/** Scheduling gates on a pod spec: the scheduler leaves the pod alone until they are removed. */
export function schedulingGatesOf(spec: V1Pod['spec'] | undefined): string[] {
  return (spec?.schedulingGates ?? []).map((g) => g.name);
}

/**
 * The pods waiting for kube-scheduler in the snapshot, in the order its queue pops them (PrioritySort:
 * higher priority first, then earlier in the queue, taken as created earlier; then by name so that the
 * order is the same on every run). Waiting: not bound, not finished, not being deleted, not gated, and
 * for the default scheduler. These take room before any replacement the drain makes: they are in the
 * queue already.
 */
export function pendingPods(snapshot: Snapshot): readonly V1Pod[] {
  let queue = queues.get(snapshot.pods);
  if (!queue) {
    queue = snapshot.pods
      .filter(isWaiting)
      .map((pod) => ({
        pod,
        priority: podPriority(pod, snapshot).priority,
        queued: toEpochSeconds(pod.metadata?.creationTimestamp) ?? 0,
        key: `${pod.metadata?.namespace ?? 'default'}/${pod.metadata?.name ?? ''}`,
      }))
      .sort((a, b) => b.priority - a.priority || a.queued - b.queued || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .map((entry) => entry.pod);
    queues.set(snapshot.pods, queue);
  }
  return queue;
}

// A memo, not state: the pods of a snapshot never change.
const queues = new WeakMap<readonly V1Pod[], readonly V1Pod[]>();

function isWaiting(pod: V1Pod): boolean {
  if (pod.spec?.nodeName || isTerminal(pod) || isTerminating(pod)) return false;
  if (schedulingGatesOf(pod.spec).length > 0) return false;
  return (pod.spec?.schedulerName ?? DEFAULT_SCHEDULER) === DEFAULT_SCHEDULER;
}

/** A StatefulSet's replacement takes its pod's name: it is made only once that pod is gone, after the others of its round. */
export function isLateReplacement(pod: V1Pod): boolean {
  return controllerRef(pod)?.kind === 'StatefulSet';
}

/**
 * The order kube-scheduler meets the replacements of one round of evictions. A ReplicaSet's or a Job's
 * replacement is created as soon as the pod it replaces is terminating; a StatefulSet's only once that pod
 * is gone (the replacement takes its name), so it comes later and finds the room the others left. Among
 * the ones created together, the queue's PrioritySort: higher priority first. Equals keep the plan's order.
 */
export function replacementQueue(pods: readonly V1Pod[], snapshot: Snapshot): V1Pod[] {
  return pods
    .map((pod, i) => ({
      pod,
      i,
      late: isLateReplacement(pod) ? 1 : 0,
      priority: podPriority(pod, snapshot).priority,
    }))
    .sort((a, b) => a.late - b.late || b.priority - a.priority || a.i - b.i)
    .map((entry) => entry.pod);
}
