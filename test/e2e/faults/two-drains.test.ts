import { describe, expect, it } from 'vitest';
import { auditMark, maintWritesSince, NOTHING_WRITTEN } from '../audit.js';
import { kubectl, kubectlJson, seedScenario } from '../lab.js';
import { runMaint, setHelloMaxUnavailable } from '../drain-run.js';
import { described, finish, start, untilEvent } from '../run-helpers.js';
import {
  DRAIN_NODE1_JSON,
  drainWaitingOnClosedBudget,
  expectDrainedOnce,
  kubeconfigFor,
  theOneErrorLine,
  userName,
  watchDrain,
} from './faults.js';

// Two drains of one node at once: the first marks the node (holder, expiry), so a second drain, or a run,
// refuses naming it and writes nothing; the mark goes when the first ends. A drain that found its node
// cordoned already does not offer to undo a cordon it did not make.

const drainAnnotation = async () =>
  (await kubectlJson<{ metadata: { annotations?: Record<string, string> } }>(['get', 'node', 'k8s-node-1'])).metadata
    .annotations?.['maint.kubectl.io/drain'];

describe('one drain per node', () => {
  it('a second drain, or a run, of a node a drain works on refuses naming it and writes nothing', async () => {
    const { drain, pods, mark } = await drainWaitingOnClosedBudget();
    expect(JSON.parse((await drainAnnotation()) ?? '{}')).toMatchObject({ holder: expect.stringMatching(/ pid \d+$/) });
    // The second operator is another user: the audit log tells their writes from the first drain's renewals.
    const other = await kubeconfigFor('drainer');
    const during = await auditMark();

    const second = await runMaint(DRAIN_NODE1_JSON, { kubeconfig: other });
    expect(second.exitCode, second.stderr).toBe(1);
    const refusal =
      /^error: node "k8s-node-1" is being drained by \S+@\S+ pid \d+ \(its drain mark expires in \d+s unless renewed\): nothing was changed$/;
    expect(theOneErrorLine(second.stderr)).toMatch(refusal);
    const run = await runMaint(['run', 'k8s-node-1', '--ignore-daemonsets', '--', 'true'], { kubeconfig: other });
    expect(run.exitCode, run.stderr).toBe(1);
    expect(theOneErrorLine(run.stderr)).toMatch(refusal);
    expect(await maintWritesSince(during, userName('drainer'))).toEqual(NOTHING_WRITTEN);

    await setHelloMaxUnavailable(1);
    await expectDrainedOnce(await drain.finish(), pods, mark);
    expect(await drainAnnotation()).toBeUndefined();
  });

  it('a drain of a node a run is draining refuses naming the run, and writes nothing', async () => {
    await seedScenario('hello');
    await kubectl(['delete', 'leases', '-n', 'kubectl-maint', '-l', 'maint.kubectl.io/run', '--ignore-not-found']);
    await setHelloMaxUnavailable(0);
    // The run's drain waits on the closed budget (--force-start past the blocked plan, --timeout bounding it).
    const RUN = ['run', 'k8s-node-1', '--ignore-daemonsets', '--force-start', '--timeout', '5m', '-o', 'json'];
    const run = await start([...RUN, '--', 'true']);
    const runId = await untilEvent(
      run,
      (events) => {
        const waiting = events.some(
          (e) => e.type === 'drain' && e.event.type === 'pod' && e.event.state.phase === 'waiting-for-budget',
        );
        const head = events.find((e) => e.type === 'run-started');
        return waiting && head?.type === 'run-started' && head.runId;
      },
      120_000,
      "the run's drain waiting for the budget",
    );
    expect(JSON.parse((await drainAnnotation()) ?? '{}')).toMatchObject({
      holder: expect.stringMatching(/ pid \d+$/),
      run: runId,
    });
    const other = await kubeconfigFor('drainer');
    const during = await auditMark();

    const second = await runMaint(DRAIN_NODE1_JSON, { kubeconfig: other });
    expect(second.exitCode, second.stderr).toBe(1);
    expect(theOneErrorLine(second.stderr)).toMatch(
      new RegExp(
        `^error: node "k8s-node-1" is being drained by run ${runId} \\(\\S+@\\S+ pid \\d+\\) \\(its drain mark expires in \\d+s unless renewed\\): nothing was changed$`,
      ),
    );
    expect(await maintWritesSince(during, userName('drainer'))).toEqual(NOTHING_WRITTEN);

    // The run stopped: its drain ends, and its mark with it.
    run.child.kill('SIGINT');
    const r = await finish(run);
    expect(r.exitCode, described(r)).toBe(130);
    expect(await drainAnnotation()).toBeUndefined();
    expect((await finish(await start(['run', '--abandon', runId]))).exitCode).toBe(0);
  });

  it('Ctrl-C of a drain that found its node cordoned already does not offer to undo that cordon', async () => {
    await seedScenario('hello');
    await setHelloMaxUnavailable(0);
    await kubectl(['cordon', 'k8s-node-1']);
    const drain = await watchDrain(['drain', 'k8s-node-1', '--ignore-daemonsets']);
    await drain.until(
      ({ stderr }) => new Set(stderr.match(/pod demo\/hello-\S+ waiting/g) ?? []).size === 2,
      'both hello pods waiting for their budget',
    );
    drain.kill('SIGINT');
    const r = await drain.finish();
    expect(r.exitCode, r.stderr).toBe(130);
    expect(r.stderr).not.toMatch(/undo the cordon/);
    expect(r.stderr).toContain('(the nodes were cordoned before this drain: it leaves that cordon as it was)');
    expect(await drainAnnotation()).toBeUndefined();
  });
});
