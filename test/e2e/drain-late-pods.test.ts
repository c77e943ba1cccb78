import { afterEach, describe, expect, it } from 'vitest';
import type { DrainEvent } from '../../src/drain/events.js';
import { UNMANAGED_FATAL } from '../../src/plan/drain-filters/unreplicated.js';
import { kubectl, seedScenario } from './lab.js';
import { actWhen, bin, podsIn, setHelloMaxUnavailable, statesOf, unschedulable } from './drain-run.js';
import { Terminal } from './terminal.js';

// Pods bound to a node after the drain's plan read it: kubectl drain lists a node's pods once it has
// cordoned it, and a pod can still land there after that (bound with spec.nodeName, which no cordon stops,
// or by a scheduler that has not yet seen the cordon). The drain lists the node again after the cordon and
// once its pods are gone, and says "drained" only of a node it has emptied.

/** A pod with no controller, bound to k8s-node-1 by spec.nodeName: the scheduler and the cordon never see it. */
async function bindBarePod(name: string): Promise<void> {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'demo', labels: { app: 'late' } },
    spec: {
      nodeName: 'k8s-node-1',
      terminationGracePeriodSeconds: 1,
      containers: [{ name: 'sleep', image: 'registry.k8s.io/pause:3.10' }],
    },
  };
  await kubectl(['create', '-f', '-'], { input: JSON.stringify(pod) });
}

/** hello-ignore's drain waits here: the first replacement has nowhere to go, so the budget gives no more. */
const waitsForBudget = (events: DrainEvent[]) =>
  events.some((e) => e.type === 'pod' && e.state.phase === 'waiting-for-budget');

const lateEvents = (events: readonly DrainEvent[]) =>
  events.flatMap((e) => (e.type === 'late-pods' ? [e.pods.map((p) => `${p.namespace}/${p.name}`)] : []));

describe('kubectl maint drain and the pods bound to its node after its plan', () => {
  it('drains a pod bound while it waits for a budget, and leaves the node empty when it says drained', async () => {
    await seedScenario('hello-ignore');
    const run = await actWhen(
      ['drain', 'k8s-node-1', '--ignore-daemonsets', '--force', '-o', 'json'],
      waitsForBudget,
      async () => {
        await bindBarePod('late');
        await setHelloMaxUnavailable(2);
      },
      'its wait for the budget',
    );

    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.finished?.result).toBe('drained');
    expect(lateEvents(run.events)).toEqual([['demo/late']]);
    expect(statesOf(run, 'late').at(-1)).toEqual({ phase: 'gone', how: 'evicted' });
    expect(run.finished?.gone.map((p) => p.name)).toContain('late');
    // The cluster agrees: nothing of demo is left on the node.
    expect((await podsIn('demo')).filter((p) => p.node === 'k8s-node-1')).toEqual([]);
  });

  it("fails on a pod kubectl's filters refuse, names it, and leaves it with the node cordoned", async () => {
    await seedScenario('hello-ignore');
    const run = await actWhen(
      ['drain', 'k8s-node-1', '--ignore-daemonsets', '-o', 'json'],
      waitsForBudget,
      async () => {
        await bindBarePod('late');
        await setHelloMaxUnavailable(2);
      },
      'its wait for the budget',
    );

    expect(run.exitCode).toBe(1);
    expect(run.finished?.result).toBe('failed');
    expect(run.finished?.failed).toEqual([
      {
        pod: expect.objectContaining({ namespace: 'demo', name: 'late', node: 'k8s-node-1' }),
        error: `bound to k8s-node-1 since the plan: ${UNMANAGED_FATAL}`,
      },
    ]);
    expect(run.stderr).toContain(`demo/late: bound to k8s-node-1 since the plan: ${UNMANAGED_FATAL}`);
    // The planned pods went; the refused one stays, never evicted, and the node stays out of service.
    const onNode = (await podsIn('demo')).filter((p) => p.node === 'k8s-node-1');
    expect(onNode.map((p) => [p.name, p.deleting])).toEqual([['late', false]]);
    expect(await unschedulable('k8s-node-1')).toBe(true);
  });
});

describe('kubectl maint drain asked in a terminal, with a pod bound while it asks', () => {
  const terminal = new Terminal('late');
  afterEach(() => terminal.close());

  it('lists the node again once it is cordoned: a pod kubectl refuses stops the drain before its first eviction', async () => {
    await seedScenario('hello');
    const before = (await podsIn('demo')).filter((p) => p.node === 'k8s-node-1').map((p) => p.name);
    expect(before).toHaveLength(2);
    const command = `env -u CI -u CONTINUOUS_INTEGRATION ${process.execPath} ${bin} drain k8s-node-1 --ignore-daemonsets; echo "EXIT=$?"; sleep 600`;
    await terminal.open(command);
    await terminal.eventually(
      async () => (await terminal.history(500)).includes('Proceed? [y/N]'),
      30_000,
      'the confirmation prompt',
    );
    // Bound after the plan read the node and before the cordon: the plan above the question never showed it.
    await bindBarePod('late');
    await terminal.keys('y', 'Enter');
    const final = await terminal.eventually(
      async () => {
        const text = await terminal.history(500);
        return text.includes('EXIT=') ? text : undefined;
      },
      60_000,
      'the drain to end',
    );

    expect(final).toContain('EXIT=1');
    expect(final).toContain('demo/late');
    expect(final).toContain('Pods that declare no controller');
    // As kubectl's drain: the node cordoned, no pod evicted.
    expect(await unschedulable('k8s-node-1')).toBe(true);
    const after = (await podsIn('demo')).filter((p) => p.node === 'k8s-node-1');
    expect(
      after
        .filter((p) => !p.deleting)
        .map((p) => p.name)
        .sort(),
    ).toEqual([...before, 'late'].sort());
  });
});
