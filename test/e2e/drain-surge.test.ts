import { beforeEach, describe, expect, it } from 'vitest';
import type { DrainEvent } from '../../src/drain/events.js';
import { kubectl, kubectlJson, seedScenario } from './lab.js';
import { asRun, runMaint, startMaint, type DrainRun, planRun } from './drain-run.js';

// --surge on a single-replica Deployment under a minAvailable 1 budget on k8s-node-1: kubectl drain
// gives up; kubectl maint drain --surge brings a second replica up on k8s-node-2, evicts the first, and
// returns the Deployment to one replica, while a watcher sees the budget and the Ready count hold.

const SOLO = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: solo, namespace: demo}
spec:
  replicas: 1
  selector: {matchLabels: {app: solo}}
  template:
    metadata:
      labels: {app: solo}
      annotations: {lab.kubectl-maint.io/ready-delay: 2s}
    spec:
      terminationGracePeriodSeconds: 2
      containers: [{name: main, image: registry.k8s.io/pause:3.10}]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: solo, namespace: demo}
spec:
  minAvailable: 1
  selector: {matchLabels: {app: solo}}
`;

const ONLY_SOLO = ['k8s-node-1', '--ignore-daemonsets', '--pod-selector', 'app=solo'];

interface Deployment {
  metadata: { annotations?: Record<string, string>; generation: number };
  spec: Record<string, unknown> & { replicas: number };
  status: { readyReplicas?: number };
}
interface Pdb {
  status: { currentHealthy: number; desiredHealthy: number };
}

const solo = () => kubectlJson<Deployment>(['get', 'deployment', 'solo', '-n', 'demo']);

/** Puts solo's one replica on k8s-node-1 (k8s-node-2 cordoned meanwhile). */
async function seedSolo(): Promise<void> {
  await seedScenario('hello');
  await kubectl(['cordon', 'k8s-node-2']);
  await kubectl(['apply', '-f', '-'], { input: SOLO });
  await kubectl(['rollout', 'status', '-n', 'demo', 'deployment/solo', '--timeout=60s']);
  await kubectl(['uncordon', 'k8s-node-2']);
  await kubectl(['wait', '-n', 'demo', 'pdb/solo', '--for=jsonpath={.status.currentHealthy}=1', '--timeout=60s']);
}

/** Samples the budget and solo's Ready pods until stopped: the lowest counts seen. */
function watchSolo() {
  let stopped = false;
  const seen = { minReadyPods: Infinity, violations: 0, samples: 0 };
  const loop = (async () => {
    while (!stopped) {
      const [pdb, pods] = await Promise.all([
        kubectlJson<Pdb>(['get', 'pdb', 'solo', '-n', 'demo']),
        kubectlJson<{ items: Array<{ status: { conditions?: Array<{ type: string; status: string }> } }> }>([
          'get',
          'pods',
          '-n',
          'demo',
          '-l',
          'app=solo',
        ]),
      ]);
      const ready = pods.items.filter((p) =>
        p.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
      );
      seen.minReadyPods = Math.min(seen.minReadyPods, ready.length);
      if (pdb.status.currentHealthy < pdb.status.desiredHealthy) seen.violations++;
      seen.samples++;
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return seen;
    },
  };
}

/** Starts a JSON drain and sends `signal` once `ready` holds for the events so far. */
async function signalWhen(
  args: string[],
  signal: NodeJS.Signals,
  ready: (events: DrainEvent[]) => boolean,
): Promise<DrainRun> {
  const { child } = await startMaint(args);
  let stdout = '';
  let sent = false;
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (!sent && ready(asRun(0, stdout.slice(0, stdout.lastIndexOf('\n') + 1), '').events)) {
      sent = true;
      child.kill(signal);
    }
  });
  const result = await child;
  expect(sent, 'the drain never reached the point where the test stops it').toBe(true);
  return asRun(result.exitCode ?? -1, String(result.stdout), String(result.stderr));
}

const scaledUp = (events: DrainEvent[]) => events.some((e) => e.type === 'surge' && e.step === 'scaling-up');

describe('kubectl maint drain --surge', () => {
  beforeEach(seedSolo);

  it('kubectl drain gives up; --surge finishes with the budget and the Ready count held, and the spec restored', async () => {
    const kubectlDrain = await kubectl(['drain', ...ONLY_SOLO, '--timeout', '60s'], { reject: false });
    expect(kubectlDrain.exitCode).not.toBe(0);
    expect(String(kubectlDrain.stderr)).toMatch(/Cannot evict pod as it would violate the pod's disruption budget/);

    const plan = await planRun([...ONLY_SOLO, '--surge', '-o', 'json']);
    expect(plan.exitCode, plan.stdout + plan.stderr).toBe(0);
    expect(JSON.parse(plan.stdout)).toMatchObject({ verdict: 'slow' });

    const before = await solo();
    const watcher = watchSolo();
    const run = await runMaint(['drain', ...ONLY_SOLO, '--surge', '-o', 'json']);
    const seen = await watcher.stop();

    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.finished?.result).toBe('drained');
    expect(run.events.flatMap((e) => (e.type === 'surge' ? [e.step] : []))).toEqual([
      'scaling-up',
      'ready',
      'restored',
    ]);
    expect(seen.samples).toBeGreaterThan(0);
    expect(seen.violations).toBe(0);
    expect(seen.minReadyPods).toBeGreaterThanOrEqual(1);
    const after = await solo();
    expect(after.spec).toEqual(before.spec);
    expect(after.metadata.annotations?.['maint.kubectl.io/surge']).toBeUndefined();
  });

  it('Ctrl-C mid-surge returns the Deployment to its own spec before exiting', async () => {
    const before = await solo();
    const run = await signalWhen(['drain', ...ONLY_SOLO, '--surge', '-o', 'json'], 'SIGINT', scaledUp);
    expect(run.exitCode, run.stderr).toBe(130);
    expect(run.events.filter((e) => e.type === 'surge').at(-1)).toMatchObject({ step: 'restored' });
    const after = await solo();
    expect(after.spec).toEqual(before.spec);
    expect(after.metadata.annotations?.['maint.kubectl.io/surge']).toBeUndefined();
  });

  it('a killed drain leaves its record; a rerun with --surge finishes, one without restores', async () => {
    const before = await solo();
    await signalWhen(['drain', ...ONLY_SOLO, '--surge', '-o', 'json'], 'SIGKILL', scaledUp);
    const left = await solo();
    expect(JSON.parse(left.metadata.annotations?.['maint.kubectl.io/surge'] ?? '{}')).toMatchObject({
      replicas: 1,
      surgedTo: 2,
    });

    const undo = await runMaint(['drain', ...ONLY_SOLO, '--timeout', '5s', '-o', 'json']);
    expect(undo.events.find((e) => e.type === 'surge')).toMatchObject({ step: 'restored' });
    expect((await solo()).spec).toEqual(before.spec);

    await signalWhen(['drain', ...ONLY_SOLO, '--surge', '-o', 'json'], 'SIGKILL', scaledUp);
    const rerun = await runMaint(['drain', ...ONLY_SOLO, '--surge', '-o', 'json']);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(rerun.finished?.result).toBe('drained');
    const after = await solo();
    expect(after.spec).toEqual(before.spec);
    expect(after.metadata.annotations?.['maint.kubectl.io/surge']).toBeUndefined();
  });

  it('a Deployment under a HorizontalPodAutoscaler is not surged, and the drain says why', async () => {
    await kubectl(['autoscale', 'deployment', 'solo', '-n', 'demo', '--min=1', '--max=3', '--cpu-percent=80']);
    const before = await solo();
    const run = await runMaint(['drain', ...ONLY_SOLO, '--surge', '--timeout', '8s', '-o', 'json']);
    expect(run.exitCode, run.stderr).toBe(1);
    expect(run.events.find((e) => e.type === 'surge')).toMatchObject({
      step: 'not-surged',
      message: expect.stringContaining('HorizontalPodAutoscaler demo/solo owns its replica count'),
    });
    expect((await solo()).spec).toEqual(before.spec);
  });

  it('a StatefulSet under minAvailable 1 is not surged: the plan says why and stays blocked', async () => {
    await kubectl(['delete', 'deployment', 'solo', '-n', 'demo', '--wait=true']);
    await kubectl(['cordon', 'k8s-node-2']); // its pod on k8s-node-1, as the Deployment's was
    await kubectl(['apply', '-f', '-'], {
      input: SOLO.replace('kind: Deployment', 'kind: StatefulSet').replace(
        'spec:\n  replicas: 1',
        'spec:\n  serviceName: solo\n  replicas: 1',
      ),
    });
    await kubectl(['rollout', 'status', '-n', 'demo', 'statefulset/solo', '--timeout=60s']);
    await kubectl(['uncordon', 'k8s-node-2']);
    const plan = await planRun([
      'k8s-node-1',
      '--ignore-daemonsets',
      '--pod-selector',
      'app=solo',
      '--surge',
      '-o',
      'json',
    ]);
    expect(plan.exitCode, plan.stderr).toBe(3);
    const planned = JSON.parse(plan.stdout) as { pods: Array<{ surge?: { surged: boolean; text: string } }> };
    expect(planned.pods[0]?.surge).toMatchObject({
      surged: false,
      text: expect.stringContaining('not surged: StatefulSet demo/solo gives each pod a stable identity'),
    });
  });
});
