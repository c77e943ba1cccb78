import { afterEach, describe, expect, it } from 'vitest';
import { auditMark, maintWritesSince } from '../audit.js';
import { planRun, podsIn, runMaint, setHelloMaxUnavailable, statesOf, unschedulable } from '../drain-run.js';
import { kubectl, kubectlJson, seedScenario } from '../lab.js';
import { theOneErrorLine } from './faults.js';

// A pod held by a finalizer that never clears: evicted, it stays terminating for ever. At --timeout the
// drain must say so and name the finalizer it waits on, leave the node cordoned and the pod in place.

const FINALIZER = 'lab.kubectl-maint.io/hold';

/** Labels the pod `held=yes` (a drain's --pod-selector) and gives it the finalizer that never clears. */
async function holdWithFinalizer(pod: string): Promise<void> {
  await kubectl(['label', 'pod', pod, '-n', 'demo', 'held=yes']);
  const finalizers = JSON.stringify({ metadata: { finalizers: [FINALIZER] } });
  await kubectl(['patch', 'pod', pod, '-n', 'demo', '--type=merge', '-p', finalizers]);
}

describe('a pod held by a finalizer that never clears', () => {
  let held: { name: string; uid: string } | undefined;

  afterEach(async () => {
    if (held)
      await kubectl(
        ['patch', 'pod', held.name, '-n', 'demo', '--type=merge', '-p', '{"metadata":{"finalizers":null}}'],
        { reject: false },
      );
  });

  it('--timeout: exit 1, one error line naming the finalizer, the pod still terminating', async () => {
    await seedScenario('hello');
    const [pod] = (await podsIn('demo')).filter((p) => p.node === 'k8s-node-1');
    held = pod!;
    await holdWithFinalizer(held.name);
    const mark = await auditMark();

    const run = await runMaint([
      'drain',
      'k8s-node-1',
      '--ignore-daemonsets',
      '--pod-selector',
      'held=yes',
      '--timeout',
      '15s',
      '-o',
      'json',
    ]);

    expect(run.exitCode, run.stderr).toBe(1);
    expect(theOneErrorLine(run.stderr)).toBe(
      `error: unable to drain node "k8s-node-1": timed out after 15s (--timeout) with 1 pod left: ` +
        `demo/${held.name} (terminating, held by finalizer ${FINALIZER})`,
    );
    expect(run.finished).toMatchObject({ result: 'timeout', gone: [] });
    expect(run.finished?.terminating.map((p) => p.name)).toEqual([held.name]);
    expect(statesOf(run, held.name).at(-1)).toMatchObject({ phase: 'terminating', finalizers: [FINALIZER] });
    const pod1 = await kubectlJson<{ metadata: { uid: string; deletionTimestamp?: string; finalizers?: string[] } }>([
      'get',
      'pod',
      held.name,
      '-n',
      'demo',
    ]);
    expect(pod1.metadata).toMatchObject({ uid: held.uid, finalizers: [FINALIZER] });
    expect(pod1.metadata.deletionTimestamp).toBeDefined();
    expect(await unschedulable('k8s-node-1')).toBe(true);
    const writes = await maintWritesSince(mark);
    expect(writes.evicted).toEqual({ [`demo/${held.name}`]: 1 });
    expect(writes.deletes).toEqual([]);
  });

  it('a pod already terminating is evicted again at once, as kubectl does, its budget closed: the plan says so and the API admits it', async () => {
    await seedScenario('hello');
    await setHelloMaxUnavailable(0);
    const [pod] = (await podsIn('demo')).filter((p) => p.node === 'k8s-node-1');
    held = pod!;
    await holdWithFinalizer(held.name);
    // Terminating, as after an eviction by a drain that was killed: its finalizer keeps it there.
    await kubectl(['delete', 'pod', held.name, '-n', 'demo', '--wait=false']);
    const args = ['k8s-node-1', '--ignore-daemonsets', '--pod-selector', 'held=yes'];

    const plan = await planRun([...args, '-o', 'json']);
    const planned = (JSON.parse(plan.stdout) as { pods: Array<{ name: string; outcomeReason: string }> }).pods;
    expect(planned.find((p) => p.name === held!.name)?.outcomeReason, plan.stderr).toBe(
      'already terminating: the API deletes it without consulting budgets',
    );

    const mark = await auditMark();
    const run = await runMaint(['drain', ...args, '--timeout', '10s', '-o', 'json']);
    // Evicted again (admitted with the budget at 0: no disruption spent), then waited for: its finalizer holds it.
    const writes = await maintWritesSince(mark);
    expect(writes.evicted, run.stderr).toEqual({ [`demo/${held.name}`]: 1 });
    expect(writes.otherEvictions).toEqual([]);
    // The plan the drain showed first asked the API server with a dry run, which admitted it too.
    expect(writes.dryRunEvictions).toEqual([`demo/${held.name} 201`]);
    expect(writes.deletes).toEqual([]);
    expect(run.finished?.terminating.map((p) => p.name)).toEqual([held.name]);
  });
});
