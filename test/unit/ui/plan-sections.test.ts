import { describe, expect, it } from 'vitest';
import type { DrainPlan } from '../../../src/plan/types.js';
import {
  budgetBreaches,
  budgetLine,
  drainFate,
  groupByReason,
  noExecuteComparison,
  podGroupRows,
  podGroups,
  replacementLines,
  taintFate,
  unreplacedPods,
  verdictHeadline,
} from '../../../src/ui/plan-sections.js';
import { blockedPlan, clearPlan, daemonPod, helloBudget, helloPod, slowPlan } from './plan-fixture.js';

describe('podGroups', () => {
  it("a DaemonSet refusal in kubectl drain's words, and the pods it holds back under their own reason, not a budget's", () => {
    const daemonSetFatal = 'DaemonSet-managed Pods (use --ignore-daemonsets to ignore)';
    const held = 'node "k8s-node-1" is not drained: kubectl evicts nothing on a node where a pod is refused (…)';
    const plan: DrainPlan = {
      ...slowPlan(),
      verdict: 'blocked',
      pods: [
        helloPod('hello-a', { outcome: 'blocked', wave: null, outcomeReason: held }),
        helloPod('hello-b', { outcome: 'blocked', wave: null, outcomeReason: held }),
        { ...daemonPod('kube-proxy-x1'), action: 'refuse', reason: daemonSetFatal },
        { ...daemonPod('cni-agent-x1'), action: 'refuse', reason: daemonSetFatal },
      ],
    };
    const groups = podGroups(plan);
    expect(groups.map((g) => [g.key, g.title, podGroupRows(g)])).toEqual([
      [
        'refused',
        'Refused: kubectl stops the drain',
        [[`cannot delete ${daemonSetFatal}: kube-system/kube-proxy-x1, kube-system/cni-agent-x1`]],
      ],
      [
        'held',
        'Not evicted: kubectl evicts nothing on a node where a pod is refused',
        [['demo/hello-a, demo/hello-b']],
      ],
    ]);
  });
  it('orders groups refused, blocked, waits, immediate, deleted, skipped and leaves out empty ones', () => {
    const plan: DrainPlan = {
      ...slowPlan(),
      pods: [
        daemonPod('kube-proxy-x1'),
        helloPod('web-1', { action: 'delete', outcome: null }),
        helloPod('hello-a'),
        helloPod('hello-b', { outcome: 'waits', wave: 2 }),
        helloPod('hello-c', { outcome: 'blocked', wave: null }),
        // On another node: on its own node, a refused pod holds back every eviction.
        helloPod('lonely', {
          node: 'k8s-node-2',
          action: 'refuse',
          outcome: null,
          reason: 'cannot delete Pods that declare no controller (use --force to override)',
        }),
      ],
    };
    expect(podGroups(plan).map((g) => [g.key, g.pods.map((p) => p.name)])).toEqual([
      ['refused', ['lonely']],
      ['blocked', ['hello-c']],
      ['waits', ['hello-b']],
      ['immediate', ['hello-a']],
      ['deleted', ['web-1']],
      ['skipped', ['kube-proxy-x1']],
    ]);
  });
  it('a pod whose outcome the plan cannot tell is not listed as evicted: its own group, saying why', () => {
    const why =
      'admission webhook "guard.demo.io" decides (failurePolicy Fail, timeout 5s): what it answers is its own (the plan cannot tell)';
    const plan: DrainPlan = {
      ...slowPlan(),
      verdict: 'blocked',
      pods: [helloPod('hello-a', { outcome: 'immediate', outcomeUnknown: why }), helloPod('hello-b')],
    };
    const groups = podGroups(plan);
    expect(groups.map((g) => [g.key, g.pods.map((p) => p.name)])).toEqual([
      ['unknown', ['hello-a']],
      ['immediate', ['hello-b']],
    ]);
    expect(podGroupRows(groups[0]!)[0]!.at(-1)).toBe(why);
    // Nothing else holds the drain back: it may not finish, not cannot.
    expect(verdictHeadline(plan)).toBe('BLOCKED: draining k8s-node-1 may not finish');
  });

  it('counts an evicted pod with no outcome as evicted at once rather than losing it', () => {
    const plan: DrainPlan = { ...slowPlan(), pods: [helloPod('hello-a', { outcome: null })] };
    expect(podGroups(plan).map((g) => g.key)).toEqual(['immediate']);
  });
});

describe('verdictHeadline', () => {
  it.each([
    { plan: clearPlan(), headline: 'CLEAR: every pod can leave k8s-node-1 now' },
    { plan: slowPlan(), headline: 'SLOW: draining k8s-node-1 waits for disruption budgets' },
    { plan: blockedPlan(), headline: 'BLOCKED: draining k8s-node-1 cannot finish' },
  ])('$plan.verdict reads "$headline"', ({ plan, headline }) => {
    expect(verdictHeadline(plan)).toBe(headline);
  });
});

describe('groupByReason', () => {
  it("puts pods sharing kubectl's reason on one line, as PodDeleteList does", () => {
    expect(groupByReason([daemonPod('kube-proxy-x1'), daemonPod('cni-x1')])).toEqual([
      { reason: 'ignoring DaemonSet-managed Pods', pods: ['kube-system/kube-proxy-x1', 'kube-system/cni-x1'] },
    ]);
  });
});

describe('drainFate and taintFate', () => {
  it.each([
    { pod: helloPod('a'), fate: 'evicted at once' },
    { pod: helloPod('a', { outcome: 'waits', wave: 3 }), fate: 'evicted in wave 3' },
    { pod: helloPod('a', { outcome: 'blocked', wave: null }), fate: 'blocked' },
    { pod: helloPod('a', { outcome: 'waits', wave: 2, outcomeUnknown: 'why' }), fate: 'unknown: may never be evicted' },
    {
      pod: helloPod('a', { outcome: 'waits', wave: 2, waveUnknown: 'why' }),
      fate: 'evicted in wave 2 or another (unknown)',
    },
    { pod: daemonPod('kube-proxy-x1'), fate: 'left on the node' },
    { pod: helloPod('a', { action: 'refuse', outcome: null }), fate: 'refused' },
  ])('a pod the drain handles as $fate says so', ({ pod, fate }) => {
    expect(drainFate(pod)).toBe(fate);
  });
  it.each([
    { after: 0, fate: 'deleted at once' },
    { after: 30, fate: 'deleted after 30s' },
    { after: 300, fate: 'deleted after 5m' },
    { after: null, fate: 'never deleted' },
  ])('a NoExecute taint with afterSeconds $after means $fate', ({ after, fate }) => {
    expect(taintFate(after)).toBe(fate);
  });
});

describe('budgetLine', () => {
  it('shows allowed, healthy/desired and the waves the budget imposes', () => {
    expect(budgetLine(helloBudget())).toEqual({
      name: 'demo/hello',
      allowed: '1',
      healthy: '4/3',
      drained: '2 pods',
      waves: '2 waves of 1',
      tone: 'ok',
      note: '',
    });
  });
  it('marks a budget that never allows an eviction red, with its reason', () => {
    const line = budgetLine(helloBudget({ disruptionsAllowed: 0, neverAllows: 'maxUnavailable is 0' }));
    expect([line.tone, line.waves, line.note]).toEqual(['bad', 'never', 'maxUnavailable is 0']);
  });
  it('warns about a budget whose status the disruption controller has not observed yet', () => {
    const line = budgetLine(helloBudget({ stale: true }));
    expect(line.tone).toBe('warn');
    expect(line.note).toContain('status not yet observed');
  });
});

describe('replacementLines', () => {
  it('gives the node for a schedulable replacement and the scheduler message otherwise', () => {
    expect(replacementLines(blockedPlan()).map((r) => [r.pod, r.tone, r.placement])).toEqual([
      [
        'demo/hello-a',
        'bad',
        "0/3 nodes are available: 1 node(s) didn't match pod topology spread constraints, 1 node(s) had untolerated taint(s), 1 node(s) were unschedulable.",
      ],
      ['demo/hello-b', 'ok', 'k8s-node-2'],
    ]);
  });
  it('lists evicted pods no controller recreates, not skipped pods nor blocked ones waiting for a controller', () => {
    const plan: DrainPlan = {
      ...slowPlan(),
      pods: [
        ...slowPlan().pods,
        helloPod('lonely', { controller: null, replacement: null }),
        helloPod('stuck', { outcome: 'blocked', wave: null, replacement: null }),
      ],
    };
    expect(unreplacedPods(plan)).toEqual(['demo/lonely']);
  });
});

describe('noExecuteComparison', () => {
  it('groups pods by what the taint and the drain each do, soonest deletion first', () => {
    const plan: DrainPlan = {
      ...slowPlan(),
      pods: [
        daemonPod('kube-proxy-x1'),
        helloPod('patient', { noExecute: { afterSeconds: 30, reason: 'tolerates maintenance for 30s' } }),
        helloPod('hello-a'),
        helloPod('hello-b', { outcome: 'waits', wave: 2 }),
      ],
    };
    expect(noExecuteComparison(plan)).toEqual([
      { taint: 'deleted at once', drain: 'evicted at once', tone: 'ok', pods: ['demo/hello-a'] },
      { taint: 'deleted at once', drain: 'evicted in wave 2', tone: 'bad', pods: ['demo/hello-b'] },
      { taint: 'deleted after 30s', drain: 'evicted at once', tone: 'ok', pods: ['demo/patient'] },
      { taint: 'never deleted', drain: 'left on the node', tone: 'muted', pods: ['kube-system/kube-proxy-x1'] },
    ]);
  });
  it('says which budgets the taint breaks and by how many pods', () => {
    expect(budgetBreaches(slowPlan())).toEqual([
      'demo/hello: 2 pods deleted while 1 disruption is allowed (demo/hello-a, demo/hello-b)',
    ]);
  });
});
