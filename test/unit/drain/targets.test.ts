import { describe, expect, it } from 'vitest';
import { drainTargets, neverEvictReason } from '../../../src/drain/targets.js';
import type { DrainPlan, PodPlan } from '../../../src/plan/types.js';
import { makePod } from '../builders.js';

function podPlan(name: string, action: PodPlan['action'], reason = ''): PodPlan {
  return {
    namespace: 'demo',
    name,
    uid: `uid-${name}`,
    node: 'k8s-node-1',
    action,
    reason,
    filter: '',
    outcome: null,
    outcomeReason: '',
    wave: null,
    controller: null,
    pdbs: action === 'evict' ? [{ namespace: 'demo', name: 'hello', disruptionsAllowed: 1 }] : [],
    replacement: null,
    noExecute: { afterSeconds: null, reason: '' },
    nodeFailure: { afterSeconds: null, reason: '' },
  };
}

function plan(pods: PodPlan[]): DrainPlan {
  return {
    kind: 'DrainPlan',
    apiVersion: 'maint.kubectl.io/v1alpha1',
    nodes: ['k8s-node-1'],
    verdict: 'clear',
    assumedVerdict: 'clear',
    verdictReasons: [],
    warnings: [],
    unread: [],
    pods,
    budgets: [],
    noExecute: { taint: '', budgetsBroken: [] },
    nodeFailure: { nodeMonitorGracePeriodSeconds: 50 },
    caveats: [],
    caveatScopes: [],
  };
}

describe('neverEvictReason', () => {
  it.each([
    {
      name: 'A mirror pod is never evicted',
      pod: makePod().name('etcd').mirror().obj(),
      expected: 'mirror pod (managed by the kubelet)',
    },
    {
      name: 'A running DaemonSet pod is never evicted',
      pod: makePod().name('kp').owner('DaemonSet', 'kube-proxy').obj(),
      expected: 'DaemonSet-managed pod',
    },
    {
      name: 'A finished DaemonSet pod may go, as kubectl lets it',
      pod: makePod().name('kp').owner('DaemonSet', 'kube-proxy').phase('Succeeded').obj(),
      expected: null,
    },
    {
      name: 'A ReplicaSet pod may be evicted',
      pod: makePod().name('hello').owner('ReplicaSet', 'hello-abc').obj(),
      expected: null,
    },
  ])('$name', ({ pod, expected }) => {
    expect(neverEvictReason(pod)).toBe(expected);
  });
});

describe('drainTargets', () => {
  it('splits the plan into pods to evict, pods left alone and kubectl refusals', () => {
    const pods = [
      makePod().name('hello-1').ns('demo').uid('uid-hello-1').obj(),
      {
        ...makePod().name('slow').ns('demo').uid('uid-slow').obj(),
        spec: { containers: [], terminationGracePeriodSeconds: 120 },
      },
    ];
    const result = drainTargets(
      plan([
        podPlan('hello-1', 'evict'),
        podPlan('slow', 'delete'),
        podPlan('kube-proxy-x', 'skip', 'ignoring DaemonSet-managed Pods'),
        podPlan('bare', 'refuse', 'Pods that declare no controller (use --force to override)'),
        podPlan('bare-2', 'refuse', 'Pods that declare no controller (use --force to override)'),
      ]),
      pods,
    );
    expect(result.targets).toEqual([
      {
        ref: { namespace: 'demo', name: 'hello-1', uid: 'uid-hello-1', node: 'k8s-node-1' },
        method: 'evict',
        pdbs: ['demo/hello'],
        ownGraceSeconds: 30,
        labels: {},
      },
      {
        ref: { namespace: 'demo', name: 'slow', uid: 'uid-slow', node: 'k8s-node-1' },
        method: 'delete',
        pdbs: [],
        ownGraceSeconds: 120,
        labels: {},
      },
    ]);
    expect(result.skipped).toEqual([
      {
        ref: { namespace: 'demo', name: 'kube-proxy-x', uid: 'uid-kube-proxy-x', node: 'k8s-node-1' },
        reason: 'ignoring DaemonSet-managed Pods',
      },
    ]);
    expect(result.refusals).toEqual([
      'cannot delete Pods that declare no controller (use --force to override): demo/bare, demo/bare-2',
    ]);
  });

  it('keeps a DaemonSet pod out of the work list even if the plan says evict', () => {
    const ds = makePod().name('kp').ns('demo').uid('uid-kp').owner('DaemonSet', 'kube-proxy').obj();
    const result = drainTargets(plan([podPlan('kp', 'evict')]), [ds]);
    expect(result.targets).toEqual([]);
    expect(result.skipped.map((s) => s.reason)).toEqual(['DaemonSet-managed pod']);
  });
});
