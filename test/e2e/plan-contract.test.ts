import { describe, expect, it } from 'vitest';
import { planRun, runMaint, unschedulable } from './drain-run.js';
import { kubectlJson, seedScenario } from './lab.js';
import { finish, poolNodes, start } from './run-helpers.js';

// One contract for plan and drain: `plan A B` previews `drain A B` (both cordoned first, drained together)
// and says what `drain A B --dry-run` says; the pool plan is `plan … --max-unavailable N`, and
// `run … --dry-run` shows the run's own plan. Every dry run writes nothing.

/** The verdict with its reasons, then the pods by outcome: the first two blocks of both texts. */
/** The verdict, its reasons and what to do: the first paragraph, the same word for word. */
const verdict = (text: string) => text.split('\n\n')[0];
/** The pods paragraph's title, up to the brief plan's counts: "Pods on NODES (N)". */
const podsTitle = (text: string) => /^Pods on .*? \(\d+\)/m.exec(text)?.[0];

describe('plan and drain --dry-run over several nodes', () => {
  it('plan k8s-node-1 k8s-node-2 says what drain k8s-node-1 k8s-node-2 --dry-run says, and neither writes', async () => {
    await seedScenario('hello');
    const nodes = ['k8s-node-1', 'k8s-node-2'];
    const plan = await planRun([...nodes, '--ignore-daemonsets', '--no-tui']);
    const json = JSON.parse((await planRun([...nodes, '--ignore-daemonsets', '-o', 'json'])).stdout) as {
      kind: string;
      nodes: string[];
      verdict: string;
    };
    expect([json.kind, json.nodes]).toEqual(['DrainPlan', nodes]);
    // Both workers out at once: hello's replacements have only the tainted control plane left.
    expect(json.verdict, plan.stdout).not.toBe('clear');

    const dryRun = await runMaint(['drain', ...nodes, '--ignore-daemonsets', '--dry-run']);
    expect(verdict(dryRun.stdout), dryRun.stderr).toBe(verdict(plan.stdout));
    expect(podsTitle(dryRun.stdout), dryRun.stdout).toBe(podsTitle(plan.stdout));
    expect(podsTitle(plan.stdout)).toBe('Pods on k8s-node-1, k8s-node-2 (8)');
    // The same answer to a pipeline too: a dry run exits as the plan does (3 when it cannot finish).
    expect(dryRun.exitCode).toBe(plan.exitCode);
    expect(plan.stdout.split('\n')[0]).toMatch(/^[A-Z]+: draining k8s-node-1, k8s-node-2 /);
    for (const node of nodes) expect(await unschedulable(node)).toBe(false);
  });
});

describe('run --dry-run', () => {
  it("shows the run's pool plan, the same batches as plan --max-unavailable, and claims nothing", async () => {
    await seedScenario('pool');
    const flags = ['-l', 'pool=blue', '--max-unavailable', '2', '--ignore-daemonsets', '-o', 'json'];
    // Runs of earlier tests on this lab may have left their Leases (a seed does not remove them): none is added.
    const runLeases = async () =>
      (await kubectlJson(['get', 'leases', '-n', 'kubectl-maint', '-l', 'maint.kubectl.io/run'])).items.map(
        (lease: { metadata: { name: string } }) => lease.metadata.name,
      );
    const leasesBefore = await runLeases();
    const planned = await finish(await start(['plan', ...flags]));
    const dry = await finish(await start(['run', ...flags, '--dry-run', '--', '/bin/true']));
    type Pool = { kind: string; verdict: string; batches: Array<{ nodes: string[] }> };
    const [plan, run] = [JSON.parse(planned.stdout) as Pool, JSON.parse(dry.stdout) as Pool];
    expect(run.kind, dry.stderr).toBe('PoolPlan');
    expect([run.verdict, run.batches.map((b) => b.nodes)]).toEqual([plan.verdict, plan.batches.map((b) => b.nodes)]);
    expect(dry.exitCode).toBe(planned.exitCode);
    expect(
      (await poolNodes()).filter((n) => n.spec.unschedulable || n.metadata.annotations?.['maint.kubectl.io/run']),
    ).toEqual([]);
    expect(await runLeases()).toEqual(leasesBefore);
  });
});
