import type { DrainEvent, PodDrainState, PodRef } from '../../../src/drain/events.js';
import { waitingForHello } from '../drain/states.js';

/** Drain event builders for the `hello` scenario: two hello pods under demo/hello, two DaemonSet pods. */

export const T0 = Date.UTC(2026, 10, 29, 3, 0, 0);

export function podRef(name: string, namespace = 'demo', node = 'k8s-node-1'): PodRef {
  return { namespace, name, uid: `uid-${name}`, node };
}

export const HELLO_A = podRef('hello-a');
export const HELLO_B = podRef('hello-b');
export const PROXY = podRef('kube-proxy-x1', 'kube-system');

/** As the engine announces a drain: the pods it removes (the skipped ones follow as `skipped` events). */
export function started(
  pods: readonly PodRef[] = [HELLO_A, HELLO_B],
  dryRun: 'none' | 'client' | 'server' = 'none',
): DrainEvent {
  return { type: 'started', atMs: T0, nodes: ['k8s-node-1'], pods, dryRun };
}

export function cordoned(atS = 0, already = false, dryRun = false): DrainEvent {
  return { type: 'cordoned', atMs: T0 + atS * 1000, node: 'k8s-node-1', already, dryRun };
}

export function podEvent(pod: PodRef, atS: number, state: PodDrainState): DrainEvent {
  return { type: 'pod', atMs: T0 + atS * 1000, pod, state };
}

/** hello-b refused by demo/hello (3 healthy needed, 3 healthy) since t=1s. */
type BudgetWait = Extract<PodDrainState, { phase: 'waiting-for-budget' }>;

export function waiting(pod: PodRef, atS: number, attempts: number, budget: Partial<BudgetWait> = {}): DrainEvent {
  return podEvent(pod, atS, { ...waitingForHello, attempts, sinceMs: T0 + 1000, ...budget });
}

export function finished(
  atS: number,
  result: Extract<DrainEvent, { type: 'finished' }>['result'],
  remaining: readonly PodRef[] = [],
): DrainEvent {
  return {
    type: 'finished',
    atMs: T0 + atS * 1000,
    result,
    gone: [HELLO_A, HELLO_B].filter((p) => !remaining.includes(p)),
    remaining,
    terminating: [],
    failed: [],
    clusterState:
      remaining.length === 0
        ? 'node k8s-node-1 cordoned; only DaemonSet pods left on it'
        : `node k8s-node-1 cordoned; ${remaining.length} pod${remaining.length === 1 ? '' : 's'} still on it`,
  };
}

/** A whole drain: hello-a goes at once, hello-b waits for its budget, kube-proxy is skipped. */
export function helloDrain(): DrainEvent[] {
  return [
    started(),
    cordoned(0),
    podEvent(PROXY, 0, { phase: 'skipped', reason: 'DaemonSet-managed' }),
    podEvent(HELLO_A, 1, { phase: 'evicting', attempt: 1 }),
    podEvent(HELLO_B, 1, { phase: 'evicting', attempt: 1 }),
    podEvent(HELLO_A, 1, { phase: 'terminating', deadlineMs: T0 + 31_000 }),
    waiting(HELLO_B, 1, 1),
    waiting(HELLO_B, 13, 4),
    podEvent(HELLO_A, 20, { phase: 'gone', how: 'evicted' }),
    podEvent(HELLO_B, 30, { phase: 'evicting', attempt: 7 }),
    podEvent(HELLO_B, 30, { phase: 'terminating', deadlineMs: T0 + 60_000 }),
    podEvent(HELLO_B, 45, { phase: 'gone', how: 'evicted' }),
    finished(45, 'drained'),
  ];
}
