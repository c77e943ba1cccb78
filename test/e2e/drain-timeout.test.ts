import { beforeEach, describe, expect, it } from 'vitest';
import { seedScenario } from './lab.js';
import { podsIn, runMaint, statesOf, unschedulable } from './drain-run.js';

// hello-ignore: the replacement of the first evicted hello pod cannot be scheduled (under
// nodeTaintsPolicy Ignore the tainted control-plane node and the cordoned node still count as topology
// domains), so the budget never allows the second eviction. --timeout ends the drain with a summary.

describe('kubectl maint drain on hello-ignore', () => {
  beforeEach(async () => {
    await seedScenario('hello-ignore');
  });

  it('gives up at --timeout: result timeout, exit 1, what is gone and what remains', async () => {
    const started = Date.now();
    const run = await runMaint(['drain', 'k8s-node-1', '--ignore-daemonsets', '--timeout', '12s', '-o', 'json']);
    const took = Date.now() - started;

    expect(run.exitCode, run.stderr).toBe(1);
    expect(run.finished?.result).toBe('timeout');
    expect(run.finished?.gone).toHaveLength(1);
    expect(run.finished?.remaining).toHaveLength(1);
    const stuck = run.finished!.remaining[0]!;
    expect(statesOf(run, stuck.name).at(-1)).toMatchObject({
      phase: 'waiting-for-budget',
      pdb: 'hello',
      why: 'budget-exhausted',
    });
    expect(run.finished?.clusterState).toMatch(
      /^node k8s-node-1 cordoned; 1 gone, 1 not evicted; no flag lets it finish: .*make room for the replacement.*: once that changes, run `kubectl maint drain k8s-node-1 --ignore-daemonsets --timeout 12s -o json` again$/,
    );
    // --timeout bounds the whole drain (cordon, evictions and waits): it gave up by itself (the result
    // above), not before the timeout. No upper bound in seconds: on a loaded machine start-up alone
    // varies by seconds, and a drain that never gave up would fail the test's own timeout instead.
    expect(took).toBeGreaterThanOrEqual(12_000);
    expect(await unschedulable('k8s-node-1')).toBe(true);
    const stillThere = (await podsIn('demo')).find((p) => p.uid === stuck.uid);
    expect(stillThere).toMatchObject({ node: 'k8s-node-1', deleting: false });
  });

  it('in text mode, shows the blocked replacement in the plan and the wait for budget hello, then the summary', async () => {
    const run = await runMaint(['drain', 'k8s-node-1', '--ignore-daemonsets', '--timeout', '5s']);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain("didn't match pod topology spread constraints");
    expect(run.stdout).toContain('node/k8s-node-1 cordoned');
    expect(run.stderr).toMatch(/waiting for PodDisruptionBudget demo\/hello: needs 3 healthy, has 3/);
    expect(run.stderr).toContain('Timed out after');
    // The plan said no flag finishes it: the summary says so, pointing at the plan's "What to do" above,
    // and the command to run once that changes repeats the user's own flags.
    expect(run.stdout).toContain('What to do:');
    expect(run.stderr.replace(/\s+/g, ' ')).toContain(
      'no flag lets it finish (see "What to do"); once that changes: next: resume with: kubectl maint drain k8s-node-1 --ignore-daemonsets --timeout 5s',
    );
    expect(run.stderr.split('kubectl maint drain k8s-node-1').length - 1, run.stderr).toBe(1);
  });
});
