import type { BudgetPlan, DrainPlan, PodPlan, ReplacementPlan } from '../../../src/plan/types.js';

/**
 * Small DrainPlan builders shaped like the `hello` lab scenario (drain k8s-node-1: two hello pods under
 * PDB demo/hello maxUnavailable 1, two DaemonSet pods). Plain objects, no planner involved.
 */

export function placedOn(node: string): ReplacementPlan {
  return {
    schedulable: true,
    nodes: [node],
    placedOn: node,
    rejected: [
      { node: 'k8s-master-1', reasons: ['node(s) had untolerated taint(s)'] },
      { node: 'k8s-node-1', reasons: ['node(s) were unschedulable'] },
    ],
    message: '',
  };
}

export const UNSCHEDULABLE: ReplacementPlan = {
  schedulable: false,
  nodes: [],
  placedOn: null,
  rejected: [
    { node: 'k8s-master-1', reasons: ['node(s) had untolerated taint(s)'] },
    { node: 'k8s-node-1', reasons: ['node(s) were unschedulable'] },
    { node: 'k8s-node-2', reasons: ["node(s) didn't match pod topology spread constraints"] },
  ],
  message:
    "0/3 nodes are available: 1 node(s) didn't match pod topology spread constraints, 1 node(s) had untolerated taint(s), 1 node(s) were unschedulable.",
};

export function helloPod(name: string, overrides: Partial<PodPlan> = {}): PodPlan {
  return {
    namespace: 'demo',
    name,
    uid: `uid-${name}`,
    node: 'k8s-node-1',
    action: 'evict',
    reason: '',
    filter: '',
    outcome: 'immediate',
    outcomeReason: 'demo/hello allows 1 disruption',
    wave: 1,
    controller: { kind: 'ReplicaSet', name: 'hello-5d4f' },
    pdbs: [{ namespace: 'demo', name: 'hello', disruptionsAllowed: 1 }],
    replacement: placedOn('k8s-node-2'),
    noExecute: { afterSeconds: 0, reason: 'does not tolerate maintenance:NoExecute' },
    nodeFailure: { afterSeconds: 110, reason: 'tolerates unreachable for 60s' },
    ...overrides,
  };
}

export function daemonPod(name: string): PodPlan {
  return {
    namespace: 'kube-system',
    name,
    uid: `uid-${name}`,
    node: 'k8s-node-1',
    action: 'skip',
    reason: 'ignoring DaemonSet-managed Pods',
    filter: 'daemonSetFilter',
    outcome: null,
    outcomeReason: '',
    wave: null,
    controller: { kind: 'DaemonSet', name: name.replace(/-[a-z0-9]+$/, '') },
    pdbs: [],
    replacement: null,
    noExecute: { afterSeconds: null, reason: 'tolerates every taint' },
    nodeFailure: { afterSeconds: null, reason: 'tolerates unreachable forever' },
  };
}

export function helloBudget(overrides: Partial<BudgetPlan> = {}): BudgetPlan {
  return {
    namespace: 'demo',
    name: 'hello',
    disruptionsAllowed: 1,
    currentHealthy: 4,
    desiredHealthy: 3,
    expectedPods: 4,
    stale: false,
    unhealthyPodEvictionPolicy: 'AlwaysAllow',
    neverAllows: null,
    drainedPods: ['demo/hello-a', 'demo/hello-b'],
    perWave: 1,
    waves: 2,
    ...overrides,
  };
}

/** The `hello` scenario: one pod goes at once, the second waits for its replacement to be Ready. */
export function slowPlan(): DrainPlan {
  return {
    kind: 'DrainPlan',
    apiVersion: 'maint.kubectl.io/v1alpha1',
    nodes: ['k8s-node-1'],
    verdict: 'slow',
    assumedVerdict: 'slow',
    verdictReasons: ['demo/hello allows 1 disruption at a time: 2 pods leave in 2 waves'],
    warnings: [],
    unread: [],
    pods: [
      helloPod('hello-a'),
      helloPod('hello-b', {
        outcome: 'waits',
        wave: 2,
        outcomeReason: 'waits for demo/hello: the replacement of demo/hello-a must be Ready first',
      }),
      daemonPod('kube-proxy-x1'),
      daemonPod('cni-agent-x1'),
    ],
    budgets: [helloBudget()],
    noExecute: {
      taint: 'maintenance:NoExecute',
      budgetsBroken: [
        { namespace: 'demo', name: 'hello', pods: ['demo/hello-a', 'demo/hello-b'], disruptionsAllowed: 1 },
      ],
    },
    nodeFailure: { nodeMonitorGracePeriodSeconds: 50 },
    caveats: ['readiness of replacements is assumed, not measured'],
    caveatScopes: [{ caveat: 'readiness of replacements is assumed, not measured', pods: [] }],
  };
}

/** `hello-ignore`: the cordoned node still counts as a spread domain, so no replacement fits. */
export function blockedPlan(): DrainPlan {
  const plan = slowPlan();
  return {
    ...plan,
    verdict: 'blocked',
    assumedVerdict: 'blocked',
    verdictReasons: ['demo/hello-a: no node can take its replacement'],
    pods: plan.pods.map((p) =>
      p.name === 'hello-a'
        ? {
            ...p,
            outcome: 'blocked',
            wave: null,
            outcomeReason: 'replacement cannot be scheduled',
            replacement: UNSCHEDULABLE,
          }
        : p,
    ),
  };
}

export function clearPlan(): DrainPlan {
  const plan = slowPlan();
  return {
    ...plan,
    verdict: 'clear',
    assumedVerdict: 'clear',
    verdictReasons: ['every pod is evicted in the first wave'],
    pods: [plan.pods[0] as PodPlan, ...plan.pods.slice(2)],
    budgets: [helloBudget({ drainedPods: ['demo/hello-a'], waves: 1 })],
    noExecute: { taint: 'maintenance:NoExecute', budgetsBroken: [] },
  };
}
