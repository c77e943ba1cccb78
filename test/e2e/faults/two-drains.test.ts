import { describe, expect, it } from 'vitest';
import { auditMark, maintWritesSince } from '../audit.js';
import { kubectl, kubectlJson, seedScenario } from '../lab.js';
import { runMaint, setHelloMaxUnavailable } from '../drain-run.js';
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
    expect(await maintWritesSince(during, userName('drainer'))).toEqual({
      evicted: {},
      otherEvictions: [],
      deletes: [],
      nodePatches: [],
      leases: [],
    });

    await setHelloMaxUnavailable(1);
    await expectDrainedOnce(await drain.finish(), pods, mark);
    expect(await drainAnnotation()).toBeUndefined();
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
