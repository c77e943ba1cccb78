import type { V1Pod, V1PriorityClass } from '@kubernetes/client-node';
import type { Snapshot } from '../../snapshot/types.js';

/** What the Priority admission plugin resolves for a pod: its priority and preemptionPolicy. */
export interface PodPriority {
  readonly priority: number;
  readonly preemptionPolicy: 'PreemptLowerPriority' | 'Never';
}

// A memo, not state: a snapshot's classes never change.
const byList = new WeakMap<readonly V1PriorityClass[], Map<string, V1PriorityClass>>();

function classes(snapshot: Snapshot): Map<string, V1PriorityClass> {
  let map = byList.get(snapshot.priorityClasses);
  if (!map) {
    map = new Map(snapshot.priorityClasses.map((c) => [c.metadata?.name ?? '', c]));
    byList.set(snapshot.priorityClasses, map);
  }
  return map;
}

/**
 * `corev1helpers.PodPriority`, with the admission plugin's defaulting for a pod that lacks spec.priority
 * (a snapshot edited by hand, a template): its priorityClassName's value, else the globalDefault class's,
 * else 0. preemptionPolicy likewise: the pod's, else its class's, else PreemptLowerPriority.
 */
export function podPriority(pod: V1Pod, snapshot: Snapshot): PodPriority {
  const spec = pod.spec;
  const named = spec?.priorityClassName ? classes(snapshot).get(spec.priorityClassName) : undefined;
  const cls =
    named ?? (spec?.priorityClassName ? undefined : snapshot.priorityClasses.find((c) => c.globalDefault === true));
  const policy = spec?.preemptionPolicy ?? cls?.preemptionPolicy;
  return {
    priority: spec?.priority ?? cls?.value ?? 0,
    preemptionPolicy: policy === 'Never' ? 'Never' : 'PreemptLowerPriority',
  };
}

/** A pod on a candidate node, as preemption weighs it. */
export interface VictimPod {
  readonly uid: string;
  readonly namespace: string;
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly priority: number;
  /** status.startTime in epoch seconds; Infinity for a pod not started yet (upstream takes "now"). */
  readonly startTime: number;
}
