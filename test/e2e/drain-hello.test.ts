import { beforeEach, describe, expect, it } from 'vitest';
import { eventually, seedScenario } from './lab.js';
import { podsIn, runMaint, setHelloMaxUnavailable, statesOf, unschedulable } from './drain-run.js';

// `kubectl maint drain` on the hello scenario: 4 replicas, 2 per worker, budget hello maxUnavailable 1.
// Draining k8s-node-1 evicts its two hello pods one at a time, the second waiting for the budget.

describe('kubectl maint drain on hello', () => {
  beforeEach(async () => {
    await seedScenario('hello');
  });

  it('drains k8s-node-1: the second pod waits for budget hello, and every hello pod ends Ready on k8s-node-2', async () => {
    const before = (await podsIn('demo')).filter((p) => p.node === 'k8s-node-1');
    expect(before).toHaveLength(2);

    const run = await runMaint(['drain', 'k8s-node-1', '--ignore-daemonsets', '-o', 'json']);

    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.finished).toMatchObject({ result: 'drained', remaining: [], failed: [], terminating: [] });
    expect(run.finished?.gone.map((p) => p.name).sort()).toEqual(before.map((p) => p.name).sort());
    expect(run.events.find((e) => e.type === 'cordoned')).toMatchObject({
      node: 'k8s-node-1',
      already: false,
      dryRun: false,
    });
    // The budget let one go at a time: one pod was refused and waited, naming the budget and its numbers.
    const waits = before.flatMap((p) => statesOf(run, p.name)).filter((s) => s.phase === 'waiting-for-budget');
    expect(waits.length).toBeGreaterThan(0);
    expect(waits[0]).toMatchObject({ pdb: 'hello', why: 'budget-exhausted', desiredHealthy: 3 });
    // DaemonSet pods were left alone.
    const skipped = run.events.filter((e) => e.type === 'pod' && e.state.phase === 'skipped');
    const skippedPods = skipped.map((e) => (e.type === 'pod' ? `${e.pod.namespace}/${e.pod.name}` : ''));
    expect(skippedPods).toEqual([expect.stringMatching(/^kube-system\//), expect.stringMatching(/^kube-system\//)]);

    expect(await unschedulable('k8s-node-1')).toBe(true);
    await eventually(
      async () => {
        const pods = await podsIn('demo');
        return pods.length === 4 && pods.every((p) => p.ready && !p.deleting && p.node === 'k8s-node-2');
      },
      30_000,
      'all 4 hello pods Ready on k8s-node-2',
    );
  });

  it('--dry-run=server asks the API server, leaves the node schedulable and every pod in place', async () => {
    const before = await podsIn('demo');
    const run = await runMaint(['drain', 'k8s-node-1', '--ignore-daemonsets', '--dry-run=server', '-o', 'json']);

    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.finished).toMatchObject({ result: 'dry-run', gone: [] });
    expect(run.events.find((e) => e.type === 'cordoned')).toMatchObject({ node: 'k8s-node-1', dryRun: true });
    const verdicts = run.events.flatMap((e) => (e.type === 'pod' && e.state.phase === 'dry-run' ? [e.state] : []));
    // A server dry run does not spend the budget: both pods of hello are admitted against the unspent budget.
    expect(verdicts).toEqual([
      { phase: 'dry-run', admitted: true, reason: 'eviction admitted', pdb: null },
      { phase: 'dry-run', admitted: true, reason: 'eviction admitted', pdb: null },
    ]);
    expect(run.events.some((e) => e.type === 'warning' && e.message.includes('does not spend the budget'))).toBe(true);

    expect(await unschedulable('k8s-node-1')).toBe(false);
    const after = await podsIn('demo');
    expect(after.map((p) => `${p.uid} ${p.node} ${p.deleting}`).sort()).toEqual(
      before.map((p) => `${p.uid} ${p.node} ${p.deleting}`).sort(),
    );
  });

  it('asks after the plan in brief (the pods that decide it, the estimate); --details prints the whole plan', async () => {
    const brief = await runMaint(['drain', 'k8s-node-1', '--ignore-daemonsets', '--dry-run=client']);
    expect(brief.exitCode, brief.stderr).toBe(0);
    const plan = brief.stdout.slice(0, brief.stdout.indexOf('\nevicting pod') + 1);
    expect(plan).toMatch(/^Pods on k8s-node-1 \(4\): 1 wait for a budget, 1 evicted at once, 2 left on the node$/m);
    expect(plan, brief.stdout).toMatch(/^Estimate: about \S.* from the first eviction/m);
    expect(plan).toMatch(/: --details, or kubectl maint plan k8s-node-1 --ignore-daemonsets$/m);
    expect(plan).not.toMatch(/^(Budgets|Replacements)$/m);

    const whole = await runMaint(['drain', 'k8s-node-1', '--ignore-daemonsets', '--dry-run=client', '--details']);
    expect(whole.exitCode, whole.stderr).toBe(0);
    expect(whole.stdout).toMatch(/^Budgets$/m);
    expect(whole.stdout).toMatch(/^Replacements$/m);
    expect(whole.stdout).toMatch(/^Caveats$/m);
    expect(whole.stdout).not.toContain('--details, or');
  });

  it('--dry-run=server reports a pod the budget would refuse now, naming the budget', async () => {
    // Take the budget's one disruption away: every eviction is refused.
    await setHelloMaxUnavailable(0);
    const run = await runMaint(['drain', 'k8s-node-1', '--ignore-daemonsets', '--dry-run=server', '-o', 'json']);
    expect(run.exitCode, run.stderr).toBe(0);
    const verdicts = run.events.flatMap((e) => (e.type === 'pod' && e.state.phase === 'dry-run' ? [e.state] : []));
    expect(verdicts).toEqual([
      {
        phase: 'dry-run',
        admitted: false,
        reason: 'PodDisruptionBudget hello needs 4 healthy pods, has 4',
        pdb: 'hello',
      },
      {
        phase: 'dry-run',
        admitted: false,
        reason: 'PodDisruptionBudget hello needs 4 healthy pods, has 4',
        pdb: 'hello',
      },
    ]);
    expect(await unschedulable('k8s-node-1')).toBe(false);
  });

  it('refuses before changing anything when kubectl drain would (DaemonSet pods without --ignore-daemonsets)', async () => {
    const run = await runMaint(['drain', 'k8s-node-1', '-o', 'json']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain(
      'error: cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): kube-system/',
    );
    expect(run.events).toEqual([]);
    expect(await unschedulable('k8s-node-1')).toBe(false);
  });
});
