import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { drainOptionsFrom, type DrainFlagValues } from '../../src/cli/drain-flags.js';
import { planSnapshot } from '../../src/cli/plan-input.js';
import { connect } from '../../src/cli/kube-connect.js';
import { systemClock, type Clock } from '../../src/drain/clock.js';
import { runDrain } from '../../src/drain/engine.js';
import type { DrainEvent } from '../../src/drain/events.js';
import { surgeRequest } from '../../src/drain/surge-targets.js';
import { drainTargets } from '../../src/drain/targets.js';
import { drainApi } from '../../src/kube/drain-api.js';
import { drainClientFor } from '../../src/kube/drain-client.js';
import { surgeSelects } from '../../src/plan/surge.js';
import { DEFAULT_MAINTENANCE_TAINT_KEY } from '../../src/plan/defaults.js';
import { loadLiveSnapshot } from '../../src/snapshot/load-live.js';
import { eventually, kubectl, kubectlJson, labApi, labEnv, labGet, seedScenario, type KubeObject } from './lab.js';
import { runMaint, planRun, signalWhen, waitingPods } from './drain-run.js';

// --surge on a single-replica Deployment under a minAvailable 1 budget on k8s-node-1: kubectl drain
// gives up; kubectl maint drain --surge brings a second replica up on k8s-node-2, evicts the first, and
// returns the Deployment to one replica, while a watcher sees the budget and the Ready count hold.

const SOLO = readFileSync(path.resolve(import.meta.dirname, '../../scripts/lab/workloads/solo.yaml'), 'utf8');

/** One replica on k8s-node-1 (preferred) in drain-order group 10, Ready 2 s after it starts. */
const AFTER_SOLO = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: after, namespace: demo}
spec:
  replicas: 1
  selector: {matchLabels: {app: after}}
  template:
    metadata:
      labels: {app: after}
      annotations: {maint.kubectl.io/drain-order: '10', lab.kubectl-maint.io/ready-delay: 2s}
    spec:
      terminationGracePeriodSeconds: 2
      affinity:
        nodeAffinity:
          preferredDuringSchedulingIgnoredDuringExecution:
            - weight: 100
              preference: {matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [k8s-node-1]}]}
      containers: [{name: main, image: registry.k8s.io/pause:3.10}]
`;

const ONLY_SOLO = ['k8s-node-1', '--ignore-daemonsets', '--pod-selector', 'app=solo'];

interface Deployment {
  metadata: { annotations?: Record<string, string>; generation: number };
  spec: Record<string, unknown> & { replicas: number };
  status: { readyReplicas?: number; observedGeneration?: number };
}
interface Pdb {
  metadata: { generation: number };
  status: {
    currentHealthy: number;
    desiredHealthy: number;
    disruptionsAllowed: number;
    expectedPods: number;
    observedGeneration?: number;
  };
}
interface Autoscaler {
  metadata: { annotations?: Record<string, string> };
  spec: { minReplicas: number; maxReplicas: number };
}

// What the tests read again and again, read from the API server in-process: `kubectl get` is a process
// each time, a second or two of a loaded machine.
const solo = () => labGet<Deployment>('/apis/apps/v1/namespaces/demo/deployments/solo');
const soloAutoscaler = () => labGet<Autoscaler>('/apis/autoscaling/v2/namespaces/demo/horizontalpodautoscalers/solo');
const soloBudget = () => labGet<Pdb>('/apis/policy/v1/namespaces/demo/poddisruptionbudgets/solo');
const soloPods = () => labGet<{ items: KubeObject[] }>('/api/v1/namespaces/demo/pods?labelSelector=app%3Dsolo');
/** What `kubectl cordon` and `uncordon` write. */
const setUnschedulable = async (node: string, unschedulable: boolean) =>
  (await labApi()).must('PATCH', `/api/v1/nodes/${node}`, { spec: { unschedulable } }, 'application/merge-patch+json');
const isReady = (pod: KubeObject) => pod.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');

/**
 * Waits until what the plan reads has settled (a plan taken while the cluster still moves can say blocked,
 * exit 3): solo's one pod Ready on k8s-node-1 and nothing of it terminating, the Deployment
 * and the budget observed by their controllers with the budget at 1 healthy of 1 (allowing none), and
 * k8s-node-2 open: schedulable and without the taints the node lifecycle controller adds to a node that is
 * cordoned or not Ready, which it removes a moment after the node is uncordoned or Ready.
 */
async function untilSoloSettled(): Promise<void> {
  await eventually(
    async () => {
      const [pods, deployment, pdb, node] = await Promise.all([
        soloPods(),
        solo(),
        soloBudget(),
        labGet<KubeObject>('/api/v1/nodes/k8s-node-2'),
      ]);
      const [pod, ...others] = pods.items;
      const taints = (node.spec.taints ?? []) as Array<{ effect: string }>;
      return (
        pod !== undefined &&
        others.length === 0 &&
        pod.spec.nodeName === 'k8s-node-1' &&
        !pod.metadata.deletionTimestamp &&
        isReady(pod) &&
        deployment.status.observedGeneration === deployment.metadata.generation &&
        deployment.status.readyReplicas === 1 &&
        pdb.status.observedGeneration === pdb.metadata.generation &&
        pdb.status.expectedPods === 1 &&
        pdb.status.currentHealthy === 1 &&
        pdb.status.disruptionsAllowed === 0 &&
        node.spec.unschedulable !== true &&
        !taints.some((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute')
      );
    },
    60_000,
    'solo to settle on k8s-node-1 with k8s-node-2 open',
  );
}

/** What a test may change on the workers (its drains' cordons, marks and records), as the seed left it. */
type SeededNode = Pick<KubeObject['metadata'], 'name' | 'labels' | 'annotations'> &
  Pick<KubeObject['spec'], 'unschedulable' | 'taints'>;
let seededNodes: SeededNode[] | undefined;

/**
 * Takes the lab back to hello as seeded, without a seed: the drains here evict solo's (and after's) pods
 * alone, so hello's stay where the seed put them. Deletes what the tests make in demo (solo as a Deployment
 * or StatefulSet, after, the autoscaler, the budget, their events) and waits until none of their pods or
 * ReplicaSets is left, then gives the workers back the labels, annotations, taints and schedulability the
 * seed gave them: a fraction of a seed, which makes every node and pod again.
 */
async function undoSolo(nodes: readonly SeededNode[]): Promise<void> {
  const api = await labApi();
  const gone = [404];
  const demo = (group: string, resource: string) => `${group}/namespaces/demo/${resource}`;
  await Promise.all([
    ...['deployments/solo', 'deployments/after', 'statefulsets/solo'].map((w) =>
      api.must('DELETE', `${demo('/apis/apps/v1', w)}?propagationPolicy=Background`, undefined, undefined, gone),
    ),
    api.must('DELETE', demo('/apis/autoscaling/v2', 'horizontalpodautoscalers/solo'), undefined, undefined, gone),
    api.must('DELETE', demo('/apis/policy/v1', 'poddisruptionbudgets/solo'), undefined, undefined, gone),
    api.must('DELETE', demo('/api/v1', 'events')),
  ]);
  const selector = `labelSelector=${encodeURIComponent('app in (solo,after)')}`;
  await eventually(
    async () => {
      const [pods, replicaSets] = await Promise.all([
        labGet<{ items: KubeObject[] }>(`${demo('/api/v1', 'pods')}?${selector}`),
        labGet<{ items: KubeObject[] }>(`${demo('/apis/apps/v1', 'replicasets')}?${selector}`),
      ]);
      if (pods.items.length === 0 && replicaSets.items.length === 0) return true;
      // A ReplicaSet the garbage collector has not deleted yet may still make a pod: gone at once too.
      await api.must('DELETE', `${demo('/api/v1', 'pods')}?${selector}&gracePeriodSeconds=0`);
      return false;
    },
    60_000,
    "solo's and after's pods and ReplicaSets to be deleted",
  );
  await Promise.all(
    nodes.map(async (seeded) => {
      const live = await labGet<KubeObject>(`/api/v1/nodes/${seeded.name}`);
      const back = (now: Record<string, string> = {}, then: Record<string, string> = {}) => ({
        ...Object.fromEntries(Object.keys(now).map((key) => [key, null])),
        ...then,
      });
      const patch = {
        metadata: {
          labels: back(live.metadata.labels, seeded.labels),
          annotations: back(live.metadata.annotations, seeded.annotations),
        },
        spec: { unschedulable: seeded.unschedulable ?? null, taints: seeded.taints ?? null },
      };
      await api.must('PATCH', `/api/v1/nodes/${seeded.name}`, patch, 'application/merge-patch+json');
    }),
  );
}

/**
 * Puts solo's one replica on k8s-node-1 (k8s-node-2 cordoned until the scheduler has placed it): on hello,
 * seeded for the file's first test and undone after each (undoSolo).
 */
async function seedSolo(): Promise<void> {
  if (seededNodes) await undoSolo(seededNodes);
  else {
    await seedScenario('hello');
    const workers = await labGet<{ items: KubeObject[] }>('/api/v1/nodes');
    seededNodes = workers.items.map(({ metadata, spec }) => ({
      name: metadata.name,
      labels: metadata.labels,
      annotations: metadata.annotations,
      unschedulable: spec.unschedulable,
      taints: spec.taints,
    }));
  }
  await setUnschedulable('k8s-node-2', true);
  await kubectl(['apply', '-f', '-'], { input: SOLO });
  await eventually(
    async () => (await soloPods()).items.some((pod) => pod.spec.nodeName === 'k8s-node-1'),
    60_000,
    "solo's pod to be placed on k8s-node-1",
  );
  await setUnschedulable('k8s-node-2', false);
  await untilSoloSettled();
}

/** Samples the budget and solo's Ready pods every 100 ms until stopped: the lowest counts seen. */
function watchSolo() {
  let stopped = false;
  const seen = { minReadyPods: Infinity, violations: 0, samples: 0 };
  const loop = (async () => {
    while (!stopped) {
      const [pdb, pods] = await Promise.all([soloBudget(), soloPods()]);
      const ready = pods.items.filter(isReady);
      seen.minReadyPods = Math.min(seen.minReadyPods, ready.length);
      if (pdb.status.currentHealthy < pdb.status.desiredHealthy) seen.violations++;
      seen.samples++;
      await new Promise((resolve) => setTimeout(resolve, 100));
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

/**
 * `kubectl maint drain k8s-node-1 --ignore-daemonsets --pod-selector app=solo --surge` with the engine run
 * in-process as the CLI runs it, against the lab: to count the sleeps of its clock not over when it ends,
 * and the reads of the Deployment before its scale-up. `afterRead` runs between the cluster read and the drain.
 */
async function drainInProcess(afterRead?: () => Promise<unknown>) {
  const values: DrainFlagValues = {
    ignoreDaemonsets: true,
    podSelector: 'app=solo',
    surge: true,
    taint: { key: DEFAULT_MAINTENANCE_TAINT_KEY },
    nodeMonitorGracePeriod: 50,
  };
  const options = drainOptionsFrom(values);
  const client = await connect({ kubeconfig: (await labEnv()).KUBECONFIG });
  const snapshot = await loadLiveSnapshot(client, { surge: true });
  const plan = planSnapshot(snapshot, { names: ['k8s-node-1'] }, options);
  const work = drainTargets(plan, snapshot.pods);
  await afterRead?.();
  let pendingSleeps = 0;
  const clock: Clock = {
    now: () => systemClock.now(),
    sleep(ms, signal) {
      pendingSleeps += 1;
      const slept = systemClock.sleep(ms, signal);
      void slept.then(() => (pendingSleeps -= 1));
      return slept;
    },
  };
  const events: DrainEvent[] = [];
  let readsBeforeScaleUp = 0;
  const api = drainApi(drainClientFor(client));
  const counted = {
    ...api,
    readDeployment(namespace: string, name: string) {
      if (!events.some((e) => e.type === 'surge')) readsBeforeScaleUp += 1;
      return api.readDeployment(namespace, name);
    },
  };
  const finished = await runDrain(
    {
      nodes: plan.nodes,
      targets: work.targets,
      skipped: work.skipped,
      gracePeriodSeconds: -1,
      timeoutMs: 0,
      concurrency: 16,
      dryRun: 'none',
      skipWaitForDeleteTimeoutSeconds: 0,
      surge: surgeRequest(plan, snapshot.deployments, (d) => surgeSelects(options.surge, d), snapshot.autoscalers),
    },
    { api: counted, emit: (e) => events.push(e), clock },
  );
  await new Promise(setImmediate); // the sleeps' own settling, queued before the drain's
  return { finished, events, pendingSleeps, readsBeforeScaleUp };
}

const scaledUp = (events: DrainEvent[]) => events.some((e) => e.type === 'surge' && e.step === 'scaling-up');

describe('kubectl maint drain --surge', () => {
  beforeEach(seedSolo);

  it('kubectl drain gives up; --surge finishes with the budget and the Ready count held, and the spec restored', async () => {
    // kubectl drain retries the refused eviction every 5 s until its timeout: 15 s sees it refused
    // several times and lets the drain start on a loaded machine.
    const kubectlDrain = await kubectl(['drain', ...ONLY_SOLO, '--timeout', '15s'], { reject: false });
    expect(kubectlDrain.exitCode).not.toBe(0);
    expect(String(kubectlDrain.stderr)).toMatch(/Cannot evict pod as it would violate the pod's disruption budget/);

    await untilSoloSettled();
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

  it('with drain-order groups the plan says the surge lets the first group go (exit 0), and the drain finishes', async () => {
    // A second Deployment on k8s-node-1 in a later group (drain-order 10; solo has none: 0), no budget.
    await kubectl(['cordon', 'k8s-node-2']);
    await kubectl(['apply', '-f', '-'], { input: AFTER_SOLO });
    await kubectl(['rollout', 'status', '-n', 'demo', 'deployment/after', '--timeout=60s']);
    await kubectl(['uncordon', 'k8s-node-2']);
    await untilSoloSettled();
    const only = ['k8s-node-1', '--ignore-daemonsets', '--pod-selector', 'app in (solo,after)', '--surge'];
    const plan = await planRun([...only, '-o', 'json']);
    expect(plan.exitCode, plan.stdout + plan.stderr).toBe(0);
    const planned = JSON.parse(plan.stdout) as { verdict: string; order: { groups: Array<{ pods: string[] }> } };
    expect(planned.verdict).toBe('slow');
    expect(planned.order.groups.map((g) => g.pods.map((p) => p.split('-')[0]))).toEqual([
      ['demo/solo'],
      ['demo/after'],
    ]);

    const run = await runMaint(['drain', ...only, '-o', 'json']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.finished?.result).toBe('drained');
  });

  it('writes the surge from its own read of the Deployment, and ends with none of its waits pending', async () => {
    const before = await solo();
    const run = await drainInProcess();
    expect(run.finished.result).toBe('drained');
    expect(run.events.flatMap((e) => (e.type === 'surge' ? [e.step] : []))).toEqual([
      'scaling-up',
      'ready',
      'restored',
    ]);
    expect(run.readsBeforeScaleUp, 'the Deployment read again before the scale-up').toBe(0);
    // A pending timer kept the process alive for seconds after a finished drain.
    expect(run.pendingSleeps, 'sleeps still pending after the drain ended').toBe(0);
    expect((await solo()).spec).toEqual(before.spec);
  });

  it('a Deployment changed since the drain read it is read again before the surge writes (a conflict, never a stale write)', async () => {
    const before = await solo();
    const run = await drainInProcess(() =>
      kubectl(['annotate', 'deployment', 'solo', '-n', 'demo', 'example.com/touched=after-the-read']),
    );
    expect(run.finished.result).toBe('drained');
    expect(run.events.flatMap((e) => (e.type === 'surge' ? [e.step] : []))).toEqual([
      'scaling-up',
      'ready',
      'restored',
    ]);
    expect(run.readsBeforeScaleUp).toBeGreaterThan(0);
    const after = await solo();
    expect(after.spec).toEqual(before.spec);
    expect(after.metadata.annotations?.['example.com/touched']).toBe('after-the-read');
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

  it('a killed drain leaves its record; a rerun without --surge restores the Deployment', async () => {
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
  });

  // Its own seed: the scale-down that restores the Deployment may take the pod on the drained node, and a
  // second kill then has nothing to surge.
  it('a killed drain leaves its record; a rerun with --surge finishes and restores the Deployment', async () => {
    const before = await solo();
    await signalWhen(['drain', ...ONLY_SOLO, '--surge', '-o', 'json'], 'SIGKILL', scaledUp);
    const rerun = await runMaint(['drain', ...ONLY_SOLO, '--surge', '-o', 'json']);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(rerun.finished?.result).toBe('drained');
    const after = await solo();
    expect(after.spec).toEqual(before.spec);
    expect(after.metadata.annotations?.['maint.kubectl.io/surge']).toBeUndefined();
  });

  it('a Deployment under a HorizontalPodAutoscaler is surged through it: minReplicas raised for the drain, both back after', async () => {
    // maxReplicas 1: the surge must raise it too (minReplicas may not exceed it).
    await kubectl(['autoscale', 'deployment', 'solo', '-n', 'demo', '--min=1', '--max=1', '--cpu=80%']);
    const [before, autoscalerBefore] = [await solo(), await soloAutoscaler()];

    const plan = await planRun([...ONLY_SOLO, '--surge', '-o', 'json']);
    expect(plan.exitCode, plan.stdout + plan.stderr).toBe(0);
    const planned = JSON.parse(plan.stdout) as { pods: Array<{ surge?: { autoscaler?: unknown; text: string } }> };
    expect(planned.pods[0]?.surge?.autoscaler).toEqual({
      name: 'demo/solo',
      minReplicas: 1,
      maxReplicas: 1,
      surgedMin: 2,
      surgedMax: 2,
    });

    const watcher = watchSolo();
    const run = await runMaint(['drain', ...ONLY_SOLO, '--surge', '-o', 'json']);
    const seen = await watcher.stop();
    expect(run.exitCode, run.stderr).toBe(0);
    const surge = run.events.flatMap((e) => (e.type === 'surge' ? [e] : []));
    expect(surge.map((e) => e.step)).toEqual(['scaling-up', 'ready', 'restored']);
    expect(surge[0]?.message).toContain(
      'HorizontalPodAutoscaler demo/solo: its minReplicas goes from 1 to 2 (maxReplicas 1 → 2), so that it keeps the extra replica',
    );
    expect(surge[2]?.message).toMatch(
      /^back to its own 1 replica; HorizontalPodAutoscaler demo\/solo back to minReplicas 1, maxReplicas 1/,
    );
    expect(seen.violations).toBe(0);
    expect(seen.minReadyPods).toBeGreaterThanOrEqual(1);
    const [after, autoscalerAfter] = [await solo(), await soloAutoscaler()];
    expect(after.spec).toEqual(before.spec);
    expect(autoscalerAfter.spec).toEqual(autoscalerBefore.spec);
    expect(after.metadata.annotations?.['maint.kubectl.io/surge']).toBeUndefined();
    expect(autoscalerAfter.metadata.annotations?.['maint.kubectl.io/surge']).toBeUndefined();
  });

  it('a killed surge under an autoscaler leaves both records; a rerun without --surge returns both', async () => {
    await kubectl(['autoscale', 'deployment', 'solo', '-n', 'demo', '--min=1', '--max=3', '--cpu=80%']);
    const [before, autoscalerBefore] = [await solo(), await soloAutoscaler()];
    await signalWhen(['drain', ...ONLY_SOLO, '--surge', '-o', 'json'], 'SIGKILL', scaledUp);
    const left = await soloAutoscaler();
    expect(left.spec).toMatchObject({ minReplicas: 2, maxReplicas: 3 });
    expect(JSON.parse(left.metadata.annotations?.['maint.kubectl.io/surge'] ?? '{}')).toMatchObject({
      minReplicas: 1,
      surgedMin: 2,
      deployment: 'demo/solo',
    });

    const undo = await runMaint(['drain', ...ONLY_SOLO, '--timeout', '5s', '-o', 'json']);
    expect(undo.events.find((e) => e.type === 'surge')).toMatchObject({ step: 'restored' });
    const [after, autoscalerAfter] = [await solo(), await soloAutoscaler()];
    expect(after.spec).toEqual(before.spec);
    expect(autoscalerAfter.spec).toEqual(autoscalerBefore.spec);
    expect(autoscalerAfter.metadata.annotations?.['maint.kubectl.io/surge']).toBeUndefined();
  });

  it("the lab's autoscaler, without metrics, leaves a count inside its bounds alone and enforces the bounds", async () => {
    // What the surge relies on, from the real kube-controller-manager (KWOK serves no metrics): a count the
    // surge sets inside raised bounds is never scaled away, and raised bounds bind at once.
    await kubectl(['autoscale', 'deployment', 'solo', '-n', 'demo', '--min=1', '--max=3', '--cpu=80%']);
    await kubectl(['scale', 'deployment', 'solo', '-n', 'demo', '--replicas=2']);
    await eventually(
      async () => {
        const status = (await kubectlJson<KubeObject>(['get', 'hpa', 'solo', '-n', 'demo'])).status;
        const active = status.conditions?.find((c) => c.type === 'ScalingActive');
        return (
          status.currentReplicas === 2 && active?.status === 'False' && active.reason === 'FailedGetResourceMetric'
        );
      },
      60_000,
      'the autoscaler to see 2 replicas and no metrics',
    );
    expect((await solo()).spec.replicas).toBe(2);

    await kubectl(['patch', 'hpa', 'solo', '-n', 'demo', '--type=merge', '-p', '{"spec":{"minReplicas":3}}']);
    await eventually(async () => (await solo()).spec.replicas === 3, 60_000, 'the autoscaler to raise solo to 3');
    const events = await kubectlJson<{ items: Array<{ reason: string; message: string }> }>([
      'get',
      'events',
      '-n',
      'demo',
      '--field-selector',
      'involvedObject.kind=HorizontalPodAutoscaler,involvedObject.name=solo',
    ]);
    expect(events.items).toContainEqual(
      expect.objectContaining({
        reason: 'SuccessfulRescale',
        message: 'New size: 3; reason: Current number of replicas below Spec.MinReplicas',
      }),
    );
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

describe('kubectl maint run --surge', () => {
  beforeEach(seedSolo);

  it('a batch surges solo as drain does: exit 0, solo back at one replica, the budget never below desired', async () => {
    await kubectl(['delete', 'leases', '-n', 'kubectl-maint', '-l', 'maint.kubectl.io/run', '--ignore-not-found']);
    const before = await solo();
    const watcher = watchSolo();
    const run = await runMaint(['run', 'k8s-node-1', '--ignore-daemonsets', '--surge', '--yes', '--', 'true']);
    const seen = await watcher.stop();
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(seen.samples).toBeGreaterThan(0);
    expect(seen.violations).toBe(0);
    expect(seen.minReadyPods).toBeGreaterThanOrEqual(1);
    const after = await solo();
    expect(after.spec.replicas).toBe(1);
    expect(after.spec).toEqual(before.spec);
    expect(after.metadata.annotations?.['maint.kubectl.io/surge']).toBeUndefined();
    await eventually(
      async () => (await solo()).status.readyReplicas === 1,
      60_000,
      'solo to be back at one Ready replica',
    );
  });

  it('without --surge, the text plan and the Ctrl-C summary name --surge=demo/solo, the flag that finishes it', async () => {
    const plan = await planRun(['k8s-node-1', '--ignore-daemonsets', '--no-tui']);
    expect(plan.exitCode, plan.stderr).toBe(3);
    expect(plan.stdout).toMatch(/^BLOCKED: /);
    expect(plan.stdout).toMatch(/What to do:\n {2}- demo\/solo-\S+: add --surge=demo\/solo /);
    expect(plan.stdout).toContain(
      'then plan again: kubectl maint plan k8s-node-1 --ignore-daemonsets --no-tui --surge=demo/solo',
    );

    const drain = await signalWhen(
      ['drain', ...ONLY_SOLO, '-o', 'json'],
      'SIGINT',
      (events) => waitingPods(events).size > 0,
    );
    expect(drain.exitCode, drain.stderr).toBe(130);
    expect(drain.finished?.commands?.resume).toBe(
      'kubectl maint drain k8s-node-1 --ignore-daemonsets --pod-selector app=solo -o json --surge=demo/solo',
    );
    expect(drain.finished?.clusterState).toContain('--surge=demo/solo` again to finish');
    await kubectl(['uncordon', 'k8s-node-1']);
  });
});
