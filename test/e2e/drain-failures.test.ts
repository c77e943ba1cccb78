import { beforeEach, describe, expect, it } from 'vitest';
import { eventually, kubectl, kubectlJson, seedScenario } from './lab.js';
import {
  asRun,
  drainNode1,
  placementOf,
  podsIn,
  runMaint,
  startMaint,
  setHelloMaxUnavailable,
  statesOf,
  unschedulable,
  waitingPods,
} from './drain-run.js';

// The drain's other paths on hello: a pod the Eviction API refuses for good (two budgets), a budget
// the disruption controller cannot compute, deleting instead of evicting (--disable-eviction), and a
// client dry run.

/** A Job whose pod runs on k8s-node-1 for ten minutes, under a budget the controller cannot compute:
 * maxUnavailable needs the owner's scale, and jobs.batch has no scale subresource. */
const JOB_UNDER_BUDGET = `
apiVersion: batch/v1
kind: Job
metadata: {name: batch, namespace: demo}
spec:
  template:
    metadata:
      labels: {app: batch}
      annotations: {lab.kubectl-maint.io/run-for: 10m}
    spec:
      restartPolicy: Never
      nodeSelector: {kubernetes.io/hostname: k8s-node-1}
      containers: [{name: main, image: registry.k8s.io/pause:3.10}]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: batch, namespace: demo}
spec:
  maxUnavailable: 1
  selector: {matchLabels: {app: batch}}
`;

/** Waits until the disruption controller has computed budget NAME of demo over `pods` healthy pods. */
async function budgetComputed(name: string, pods: number): Promise<void> {
  type Pdb = { metadata: { generation: number }; status?: { observedGeneration?: number; currentHealthy?: number } };
  await eventually(
    async () => {
      const pdb = await kubectlJson<Pdb>(['get', 'pdb', name, '-n', 'demo']);
      return pdb.status?.observedGeneration === pdb.metadata.generation && pdb.status?.currentHealthy === pods;
    },
    30_000,
    `the disruption controller to compute budget ${name}`,
  );
}

describe('kubectl maint drain on hello, other paths', () => {
  beforeEach(async () => {
    await seedScenario('hello');
  });

  it('fails a pod that matches two budgets (the API answers 500), names them with their state, and still drains the other', async () => {
    const onNode = (await podsIn('demo')).filter((p) => p.node === 'k8s-node-1');
    if (onNode.length !== 2)
      expect.fail(
        `hello seeded ${onNode.length} of its four replicas on k8s-node-1, not two: ${await placementOf('demo')}`,
      );
    const [odd, other] = onNode;
    await kubectl(['label', 'pod', odd!.name, '-n', 'demo', 'extra=yes']);
    await kubectl(['create', 'pdb', 'hello-extra', '-n', 'demo', '--selector=extra=yes', '--min-available=0']);
    await budgetComputed('hello-extra', 1);

    const run = await drainNode1();

    expect(run.exitCode, run.stderr).toBe(1);
    expect(run.finished?.result).toBe('failed');
    expect(run.finished?.failed).toEqual([
      { pod: expect.objectContaining({ name: odd!.name }), error: expect.any(String) },
    ]);
    // hello's own numbers depend on where the other pod's eviction is; hello-extra's do not.
    expect(run.finished?.failed[0]?.error).toMatch(
      new RegExp(
        '^pod matches more than one PodDisruptionBudget \\(demo/hello \\(needs \\d+ healthy, has \\d+, allowed \\d+\\); ' +
          'demo/hello-extra \\(needs 0 healthy, has 1, allowed 1\\)\\); the Eviction API refuses such pods ' +
          '\\(make the budgets select disjoint pods, or drain with --disable-eviction\\)$',
      ),
    );
    expect(statesOf(run, other!.name).at(-1)).toEqual({ phase: 'gone', how: 'evicted' });
    expect(run.finished?.remaining.map((p) => p.name)).toEqual([odd!.name]);
    expect(await unschedulable('k8s-node-1')).toBe(true);
  });

  it('a second budget created while pods wait on the first: the refusal that follows names it and its state', async () => {
    await setHelloMaxUnavailable(0);
    const onNode = (await podsIn('demo')).filter((p) => p.node === 'k8s-node-1').map((p) => p.name);
    const { child } = await startMaint([
      'drain',
      'k8s-node-1',
      '--ignore-daemonsets',
      '--timeout',
      '180s',
      '-o',
      'json',
    ]);
    let stdout = '';
    let created: Promise<void> | undefined;
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const events = asRun(0, stdout.slice(0, stdout.lastIndexOf('\n') + 1), '').events;
      // Both pods refused by hello (it allows none): now a second budget selects them too.
      created ??=
        waitingPods(events).size === onNode.length
          ? (async () => {
              await kubectl([
                'create',
                'pdb',
                'hello-extra',
                '-n',
                'demo',
                '--selector=app=hello',
                '--min-available=0',
              ]);
              await budgetComputed('hello-extra', 4);
            })()
          : undefined;
    });
    const result = await child;
    expect(created, 'the pods never waited on budget hello').toBeDefined();
    await created;
    const run = asRun(result.exitCode ?? -1, String(result.stdout), String(result.stderr));

    expect(run.exitCode, run.stderr).toBe(1);
    expect(run.finished?.failed.map((f) => f.pod.name).sort()).toEqual([...onNode].sort());
    for (const failure of run.finished?.failed ?? []) {
      expect(failure.error).toMatch(
        /^pod matches more than one PodDisruptionBudget \(demo\/hello \(needs 4 healthy, has 4, allowed 0\); demo\/hello-extra \(needs 0 healthy, has \d, allowed \d\)\); the Eviction API refuses such pods/,
      );
    }
  });

  it("a budget the disruption controller cannot compute: the plan says blocked, the drain waits with the controller's reason", async () => {
    await kubectl(['apply', '-f', '-'], { input: JOB_UNDER_BUDGET });
    type Pdb = { status?: { conditions?: Array<{ reason: string; message: string }> } };
    const condition = await eventually(
      async () => (await kubectlJson<Pdb>(['get', 'pdb', 'batch', '-n', 'demo'])).status?.conditions?.[0],
      30_000,
      'the disruption controller to judge budget batch',
    );
    const reason = 'jobs.batch does not implement the scale subresource';
    expect(condition).toMatchObject({ reason: 'SyncFailed', message: reason });
    const only = ['k8s-node-1', '--ignore-daemonsets', '--pod-selector', 'app=batch'];

    const plan = await (await startMaint(['plan', ...only, '-o', 'json'])).child;
    expect(plan.exitCode, plan.stderr).toBe(3);
    const planned = JSON.parse(String(plan.stdout)) as {
      verdict: string;
      pods: Array<{ action: string; outcome: string }>;
    };
    expect(planned.verdict).toBe('blocked');
    expect(planned.pods).toEqual([expect.objectContaining({ action: 'evict', outcome: 'blocked' })]);

    const run = await runMaint(['drain', ...only, '--timeout', '6s', '-o', 'json']);
    expect(run.exitCode, run.stderr).toBe(1);
    expect(run.finished?.result).toBe('timeout');
    const [pod] = run.finished!.remaining;
    const waits = statesOf(run, pod!.name).filter((s) => s.phase === 'waiting-for-budget');
    expect(waits.length).toBeGreaterThan(0);
    for (const wait of waits)
      expect(wait).toMatchObject({ pdb: 'batch', disruptionsAllowed: 0, controllerError: reason });
    expect(await unschedulable('k8s-node-1')).toBe(true);
  });

  it('--disable-eviction deletes the pods even though the budget allows none, and warns that budgets are bypassed', async () => {
    await setHelloMaxUnavailable(0);
    const run = await drainNode1('--disable-eviction', '--grace-period', '1');

    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.finished?.result).toBe('drained');
    const warning = run.events.find((e) => e.type === 'warning');
    expect(warning).toMatchObject({
      message: '--disable-eviction: pods are deleted directly, bypassing their PodDisruptionBudgets',
    });
    for (const pod of run.finished!.gone) {
      const states = statesOf(run, pod.name);
      expect(states.some((s) => s.phase === 'waiting-for-budget')).toBe(false);
      expect(states.at(-1)).toEqual({ phase: 'gone', how: 'deleted' });
      // --grace-period 1: gone about a second after the delete, not after the pod's own five.
      const at = (phase: string) =>
        run.events.find((e) => e.type === 'pod' && e.pod.uid === pod.uid && e.state.phase === phase)?.atMs ?? NaN;
      expect(at('gone') - at('terminating')).toBeLessThan(3500);
    }
    expect(run.finished?.gone).toHaveLength(2);
  });

  it('--skip-wait-for-delete-timeout stops waiting for a pod that stays terminating, and the summary says it is still there', async () => {
    const [slow] = (await podsIn('demo')).filter((p) => p.node === 'k8s-node-1');
    // The lab's KWOK removes a terminating pod only after this delay (a kubelet that cannot stop it).
    await kubectl(['annotate', 'pod', slow!.name, '-n', 'demo', 'lab.kubectl-maint.io/delete-delay=90s']);
    const run = await drainNode1('--grace-period', '1', '--skip-wait-for-delete-timeout', '2');

    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.finished?.result).toBe('drained');
    expect(statesOf(run, slow!.name).at(-1)).toEqual({
      phase: 'skipped',
      reason: 'pod has DeletionTimestamp older than 2 seconds, skipping',
    });
    expect(run.finished?.terminating.map((p) => p.name)).toEqual([slow!.name]);
    expect((await podsIn('demo')).find((p) => p.uid === slow!.uid)).toMatchObject({ deleting: true });
  });

  it('--dry-run (client) prints the plan and what it would do, and sends nothing', async () => {
    const before = await podsIn('demo');
    const run = await runMaint(['drain', 'k8s-node-1', '--ignore-daemonsets', '--dry-run']);

    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Waits for a budget[\s\S]*demo\/hello \(1 allowed\)/);
    expect(run.stdout).toContain('node/k8s-node-1 cordoned (dry run)');
    expect(run.stdout).toMatch(/^evicting pod demo\/hello-\S+ \(dry run\)$/m);
    expect(run.stderr).not.toContain('remaining');
    expect(run.stdout).toContain('node/k8s-node-1 drained (dry run)');
    expect(await unschedulable('k8s-node-1')).toBe(false);
    expect((await podsIn('demo')).map((p) => p.uid).sort()).toEqual(before.map((p) => p.uid).sort());
  });
});
