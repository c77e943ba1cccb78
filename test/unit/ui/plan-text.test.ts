import { describe, expect, it } from 'vitest';
import type { DrainPlan } from '../../../src/plan/types.js';
import { renderPlanText } from '../../../src/ui/plan-text.js';
import { blockedPlan, clearPlan, daemonPod, helloPod, slowPlan } from './plan-fixture.js';

describe('renderPlanText', () => {
  it('opens with the verdict and its reasons', () => {
    const lines = renderPlanText(blockedPlan()).split('\n');
    expect(lines.slice(0, 2)).toEqual([
      'BLOCKED: draining k8s-node-1 cannot finish',
      '  - demo/hello-a: no node can take its replacement',
    ]);
  });
  it('names what the drain destroys for good right under the verdict, with counts', () => {
    const plan: DrainPlan = {
      ...clearPlan(),
      warnings: [
        {
          reason: 'PodsNotRecreated',
          message: '3 pods are deleted for good, no controller recreates them: a/x, a/y, a/z',
          pods: ['a/x', 'a/y', 'a/z'],
        },
      ],
    };
    const lines = renderPlanText(plan).split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'CLEAR: every pod can leave k8s-node-1 now',
      '  - every pod is evicted in the first wave',
      'Warning: 3 pods are deleted for good, no controller recreates them: a/x, a/y, a/z',
    ]);
  });
  it('an incomplete plan says so first, and what it would have said from what it read', () => {
    const plan: DrainPlan = {
      ...clearPlan(),
      verdict: 'incomplete',
      verdictReasons: ['PodDisruptionBudgets not read: snapshot "c.json" holds no PodDisruptionBudget object; …'],
    };
    expect(renderPlanText(plan).split('\n')[0]).toBe(
      'INCOMPLETE: the plan for k8s-node-1 could not read all it needs (from what it read: clear)',
    );
  });
  it('keeps the sections in reading order: verdict, pods, budgets, replacements, NoExecute, node failure, caveats', () => {
    const text = renderPlanText(slowPlan());
    const order = [
      'SLOW:',
      'Pods on k8s-node-1 (4)',
      'Budgets',
      'Replacements',
      'Drain compared with a NoExecute taint maintenance:NoExecute',
      'If k8s-node-1 failed now',
      'Caveats',
    ].map((heading) => text.indexOf(`${heading}`));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });
  it("as a drain's preface (brief) on an 11-pod node: the verdict, the way out and the pods that decide it, within one screen", () => {
    const base = slowPlan();
    const waiting = [2, 3, 4, 5, 6, 7, 8].map((wave) =>
      helloPod(`hello-w${wave}`, {
        outcome: 'waits',
        wave,
        outcomeReason: `waits for demo/hello: admitted in wave ${wave}, once earlier replacements are Ready`,
      }),
    );
    const plan: DrainPlan = {
      ...base,
      pods: [helloPod('hello-a'), helloPod('web-a'), ...waiting, daemonPod('kube-proxy-x1'), daemonPod('cni-agent-x1')],
    };
    const text = renderPlanText(plan, { brief: true, width: 80, planCommand: 'kubectl maint plan k8s-node-1' });
    // One screen (24 rows) less the question's three lines.
    expect(text.trimEnd().split('\n').length).toBeLessThanOrEqual(24 - 3);
    const lines = renderPlanText(plan, { brief: true }).trimEnd().split('\n');
    expect(lines[0]).toBe('SLOW: draining k8s-node-1 waits for disruption budgets');
    expect(lines).toContain('What to do:');
    expect(lines).toContain('Pods on k8s-node-1 (11): 7 wait for a budget, 2 evicted at once, 2 left on the node');
    expect(lines.join('\n')).toContain('demo/hello (1 allowed): demo/hello-w2 (wave 2), demo/hello-w3 (wave 3)');
    expect(text).not.toContain('NoExecute taint');
    expect(text).not.toContain('Replacements');
    expect(lines.at(-1)).toContain('--details');
    // The whole plan, with --details.
    const full = renderPlanText(plan, { details: true, width: 80 });
    for (const heading of ['Budgets', 'Replacements', 'Caveats', 'demo/hello-w8']) expect(full).toContain(heading);
  });

  it('names the budget, its wave and why for a pod that waits', () => {
    expect(renderPlanText(slowPlan())).toContain(
      '    demo/hello-b   wave 2   demo/hello (1 allowed)   waits for demo/hello: the replacement of demo/hello-a must be Ready first',
    );
  });
  it('puts DaemonSet pods on one line by reason, as kubectl does', () => {
    expect(renderPlanText(slowPlan())).toContain(
      '    ignoring DaemonSet-managed Pods: kube-system/kube-proxy-x1, kube-system/cni-agent-x1',
    );
  });
  it("gives the scheduler's message for a replacement that fits nowhere, and per-node reasons only with details", () => {
    const plain = renderPlanText(blockedPlan());
    expect(plain).toContain("demo/hello-a   unschedulable: 0/3 nodes are available: 1 node(s) didn't match");
    expect(plain).not.toContain('not on k8s-node-2');
    expect(renderPlanText(blockedPlan(), { details: true })).toContain(
      "demo/hello-a not on k8s-node-2: node(s) didn't match pod topology spread constraints",
    );
  });
  it('flags budgets the NoExecute taint would break', () => {
    expect(renderPlanText(slowPlan())).toContain(
      'demo/hello: 2 pods deleted while 1 disruption is allowed (demo/hello-a, demo/hello-b)',
    );
    expect(renderPlanText(clearPlan())).not.toContain('Budgets the taint breaks');
  });
  it('says so plainly when there are no pods, and leaves out empty sections', () => {
    const plan: DrainPlan = { ...clearPlan(), pods: [], budgets: [], caveats: [], verdictReasons: [] };
    expect(renderPlanText(plan)).toMatchInlineSnapshot(`
      "CLEAR: every pod can leave k8s-node-1 now

      No pods on k8s-node-1

      If k8s-node-1 failed now (node-monitor-grace-period 50s)
        0s    node stops reporting
        50s   marked unreachable, NoExecute taint
      "
    `);
  });
  it('prints the whole slow plan like this', () => {
    expect(renderPlanText(slowPlan())).toMatchInlineSnapshot(`
      "SLOW: draining k8s-node-1 waits for disruption budgets
        - demo/hello allows 1 disruption at a time: 2 pods leave in 2 waves
      What to do:
        - nothing to fix: the drain finishes by itself in 2 waves, each waiting for replacements to become Ready (--timeout bounds the whole drain)

      Pods on k8s-node-1 (4)
        Waits for a budget (1)
          demo/hello-b   wave 2   demo/hello (1 allowed)   waits for demo/hello: the replacement of demo/hello-a must be Ready first
        Evicted at once (1)
          demo/hello allows 1 disruption: demo/hello-a
        Left on the node (2)
          ignoring DaemonSet-managed Pods: kube-system/kube-proxy-x1, kube-system/cni-agent-x1

      Budgets
        NAME         ALLOWED   HEALTHY/DESIRED   ON DRAINED NODES   WAVES
        demo/hello   1         4/3               2 pods             2 waves of 1

      Replacements
        demo/hello-a   -> k8s-node-2
        demo/hello-b   -> k8s-node-2

      Drain compared with a NoExecute taint maintenance:NoExecute
        TAINT             DRAIN               PODS
        deleted at once   evicted at once     demo/hello-a
        deleted at once   evicted in wave 2   demo/hello-b
        never deleted     left on the node    kube-system/kube-proxy-x1, kube-system/cni-agent-x1
        Budgets the taint breaks:
          demo/hello: 2 pods deleted while 1 disruption is allowed (demo/hello-a, demo/hello-b)

      If k8s-node-1 failed now (node-monitor-grace-period 50s)
        0s      node stops reporting
        50s     marked unreachable, NoExecute taint
        110s    2 pods deleted: demo/hello-a, demo/hello-b
        never   2 pods: kube-system/kube-proxy-x1, kube-system/cni-agent-x1

      Caveats
        - readiness of replacements is assumed, not measured
      "
    `);
  });

  it('wraps to a terminal width between words, pod names whole, the budget table still read at 60 columns', () => {
    const plan = blockedPlan();
    const text = renderPlanText(plan, { width: 60 });
    const lines = text.split('\n');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(60);
    for (const pod of plan.pods) expect(lines.some((l) => l.includes(`${pod.namespace}/${pod.name}`))).toBe(true);
    expect(text).toMatch(/\n {2}demo\/hello\n {4}allowed: 1 · healthy\/desired: \d\/\d\n/);
    expect(renderPlanText(plan, { width: 200 })).toBe(renderPlanText(plan));
  });
});
