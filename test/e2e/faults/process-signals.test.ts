import { describe, expect, it } from 'vitest';
import { auditMark, maintWritesSince } from '../audit.js';
import { podsIn, runMaint, setHelloMaxUnavailable, unschedulable } from '../drain-run.js';
import { eventually, seedScenario } from '../lab.js';
import {
  DRAIN_NODE1_JSON,
  drainWaitingOnClosedBudget,
  expectDrainedOnce,
  helloOnNode1,
  noHelloLeftOnNode1,
  oncePerPod,
  theOneErrorLine,
  watchDrain,
} from './faults.js';

// What happens to the drain process itself: stopped and continued, killed and run again, interrupted by
// SIGINT or SIGTERM. After each: the exit code, the one error line, what the cluster holds, and, from the
// API server's audit log, that no pod was evicted twice nor deleted outside the Eviction API.

describe('the drain process stopped, killed or interrupted', () => {
  it('SIGSTOP while both pods wait, the budget opens, SIGCONT: the drain catches up and finishes', async () => {
    const { drain, pods, mark } = await drainWaitingOnClosedBudget();
    drain.kill('SIGSTOP');
    // What the stopped process missed: the budget opened (the controller has observed it when this returns).
    await setHelloMaxUnavailable(1);
    drain.kill('SIGCONT');
    await expectDrainedOnce(await drain.finish(), pods, mark);
  });

  it('SIGKILL mid-drain leaves the node cordoned; a rerun finishes the job, and no pod is evicted twice', async () => {
    await seedScenario('hello');
    const pods = await helloOnNode1();
    const mark = await auditMark();
    const drain = await watchDrain(DRAIN_NODE1_JSON);
    await drain.until(
      ({ events }) => events.some((e) => e.type === 'pod' && e.state.phase === 'terminating'),
      'a first eviction admitted',
    );
    drain.kill('SIGKILL');
    const killed = await drain.finish();
    expect(killed.signal).toBe('SIGKILL');
    expect(killed.finished).toBeUndefined();
    expect(await unschedulable('k8s-node-1')).toBe(true);
    // Whatever the killed run had evicted finishes terminating on its own; the rerun takes what is left.
    await eventually(
      async () => (await podsIn('demo')).every((p) => !p.deleting),
      60_000,
      'the pods evicted by the killed run to be gone',
    );
    const evictedBefore = Object.keys((await maintWritesSince(mark)).evicted);
    expect(evictedBefore.length).toBeGreaterThan(0);

    const rerun = await runMaint(DRAIN_NODE1_JSON);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(rerun.events.find((e) => e.type === 'cordoned')).toMatchObject({ already: true });
    expect(rerun.finished).toMatchObject({ result: 'drained', remaining: [] });
    expect(rerun.finished?.gone.map((p) => `demo/${p.name}`).sort()).toEqual(
      pods.map((p) => `demo/${p.name}`).filter((name) => !evictedBefore.includes(name)),
    );
    await noHelloLeftOnNode1();
    const writes = await maintWritesSince(mark);
    expect(writes.evicted).toEqual(oncePerPod(pods));
    expect(writes.deletes).toEqual([]);
  });

  it.each([
    { signal: 'SIGINT' as const, exitCode: 130 },
    { signal: 'SIGTERM' as const, exitCode: 143 },
  ])(
    '$signal while both pods wait: no new eviction, the node left cordoned, one error line, exit $exitCode',
    async ({ signal, exitCode }) => {
      const { drain, mark } = await drainWaitingOnClosedBudget();
      const before = (await podsIn('demo')).map((p) => p.uid).sort();
      drain.kill(signal);
      const run = await drain.finish();

      expect(run.exitCode, run.stderr).toBe(exitCode);
      expect(run.finished).toMatchObject({ result: 'interrupted', gone: [], terminating: [] });
      expect(run.finished?.remaining).toHaveLength(2);
      expect(theOneErrorLine(run.stderr)).toMatch(
        new RegExp(
          `^error: unable to drain node "k8s-node-1": interrupted by ${signal} with 2 pods left: ` +
            'demo/hello-\\S+ \\(waiting for budget demo/hello\\), demo/hello-\\S+ \\(waiting for budget demo/hello\\)$',
        ),
      );
      expect(run.finished?.clusterState).toMatch(/^node k8s-node-1 cordoned; 2 not evicted; /);
      expect(await unschedulable('k8s-node-1')).toBe(true);
      expect((await podsIn('demo')).map((p) => p.uid).sort()).toEqual(before);
      const writes = await maintWritesSince(mark);
      expect(writes.evicted).toEqual({});
      expect(writes.deletes).toEqual([]);
      expect(
        writes.otherEvictions.every((w) => / 429$/.test(w)),
        writes.otherEvictions.join('\n'),
      ).toBe(true);
      // The plan's dry runs met the closed budget as the drain did.
      expect(writes.dryRunEvictions.map((w) => w.replace(/hello-\S+/, 'hello-x'))).toEqual([
        'demo/hello-x 429',
        'demo/hello-x 429',
      ]);
    },
  );

  it('SIGTERM in text mode prints what was done, what remains and the state the cluster is left in', async () => {
    await seedScenario('hello');
    await setHelloMaxUnavailable(0);
    const drain = await watchDrain(['drain', 'k8s-node-1', '--ignore-daemonsets']);
    await drain.until(
      ({ stderr }) => new Set(stderr.match(/pod demo\/hello-\S+ waiting/g) ?? []).size === 2,
      'both hello pods waiting for their budget',
    );
    drain.kill('SIGTERM');
    const run = await drain.finish();

    expect(run.exitCode, run.stderr).toBe(143);
    const summary = run.stderr.slice(run.stderr.indexOf('error: unable to drain'));
    expect(summary).toMatch(/^error: unable to drain node "k8s-node-1": interrupted by SIGTERM with 2 pods left/);
    // Nothing evicted: only the two DaemonSet pods, skipped.
    expect(summary).toMatch(/\n {2}done: 2 skipped\n/);
    // The two pods the budget holds on one line, its reason said once.
    expect(summary).toMatch(
      /\n {2}remaining: demo\/hello-\S+, demo\/hello-\S+ \(budget demo\/hello: needs 4 healthy, has 4, allowed 0[^\n]* · waiting up to /,
    );
    // The state alone: the command to resume follows on a line of its own, once.
    expect(summary).toMatch(/\n {2}left: node k8s-node-1 cordoned; 2 not evicted\n/);
    expect(summary.split('kubectl maint drain k8s-node-1').length - 1, summary).toBe(1);
    expect(await unschedulable('k8s-node-1')).toBe(true);
  });
});
