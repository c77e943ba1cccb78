/**
 * The strategies' benchmark, in the lab:
 *
 *   surge  the single-replica Deployment under a minAvailable 1 budget on k8s-node-1
 *          (scripts/lab/workloads/solo.yaml): `kubectl maint drain --surge` from start to exit, against the
 *          physical floor measured in the same run on the same workload: a second replica's start to Ready
 *          plus the old pod's grace period, each from its request to the watch event that ends it, by a
 *          client already running (this process): no process start-up, read or decision in it. Nothing can
 *          drain it faster: the budget admits the eviction only once the extra replica is Ready, and the pod
 *          is gone only after its grace period. Target: ≤ 1.3×. Beside it, the same two steps by hand with
 *          kubectl (`kubectl scale`, `kubectl wait` for the second replica Ready, `kubectl delete pod`
 *          --wait), three kubectl start-ups included, and where the drain's time goes, from its events.
 *   eta    the plan's estimate against the measured drain on three replicas behind a maxUnavailable 1
 *          budget (scripts/lab/workloads/eta.yaml) whose replacements are Ready 2 s, 5 s and 10 s after they
 *          start, measured as the e2e test does (first eviction to the end). Printed per scenario: the
 *          error, estimate − measured over measured. Target: within ±25 % (the bound the e2e test holds too).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import {
  AppsV1Api,
  CoreV1Api,
  KubeConfig,
  PatchStrategy,
  Watch,
  setHeaderOptions,
  type KubernetesObject,
} from '@kubernetes/client-node';
import type * as Stats from './stats.js';

// Imported by URL: node runs these scripts from source and resolves a .ts file only by its own name.
const { median, ratio } = (await import(new URL('./stats.ts', import.meta.url).href)) as typeof Stats;

export interface StrategiesBenchOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly kubectlBin: string;
  readonly maint: string;
  readonly labScript: string;
  readonly runs: number;
}

export interface BenchReport {
  readonly text: string;
  readonly passed: boolean;
}

export const SURGE_TARGET = 1.3;
export const ETA_BOUND = 0.25;
const ETA_READY_SECONDS = [2, 5, 10] as const;

const workloads = path.resolve(import.meta.dirname, '../lab/workloads');
const NODE = 'k8s-node-1';

class Lab {
  private readonly options: StrategiesBenchOptions;

  constructor(options: StrategiesBenchOptions) {
    this.options = options;
  }

  run(command: string, args: readonly string[], input?: string): string {
    const result = spawnSync(command, args, { env: this.options.env, encoding: 'utf8', input });
    if (result.status !== 0) {
      throw new Error(`${path.basename(command)} ${args.join(' ')} failed (exit ${result.status}):\n${result.stderr}`);
    }
    return result.stdout;
  }

  kubectl(...args: string[]): string {
    return this.run(this.options.kubectlBin, args);
  }

  maint(...args: string[]): string {
    return this.run(process.execPath, [this.options.maint, ...args]);
  }

  /** Seconds `work` takes. */
  time(work: () => void): number {
    const started = process.hrtime.bigint();
    work();
    return Number(process.hrtime.bigint() - started) / 1e9;
  }

  /**
   * hello, then `manifest` applied with k8s-node-2 cordoned so that its pods land on k8s-node-1, then
   * k8s-node-2 open again for the replacements; returns once the budget has counted every pod Ready.
   */
  seedOnNode1(manifest: string, deployment: string, budgetField: string, value: number): void {
    this.run('bash', [this.options.labScript, 'seed', 'hello']);
    this.kubectl('cordon', 'k8s-node-2');
    this.run(this.options.kubectlBin, ['apply', '-f', '-'], manifest);
    this.kubectl('rollout', 'status', '-n', 'demo', `deployment/${deployment}`, '--timeout=180s');
    this.kubectl('uncordon', 'k8s-node-2');
    this.kubectl(
      'wait',
      '-n',
      'demo',
      `pdb/${deployment}`,
      `--for=jsonpath={.status.${budgetField}}=${value}`,
      '--timeout=60s',
    );
  }
}

const soloManifest = () => readFileSync(path.join(workloads, 'solo.yaml'), 'utf8');
const etaManifest = (readySeconds: number) =>
  readFileSync(path.join(workloads, 'eta.yaml'), 'utf8').replaceAll('READY_SECONDS', String(readySeconds));

/** --surge on solo against replacement start-to-Ready + the old pod's grace period, each from a fresh seed. */
export async function runSurgeBench(options: StrategiesBenchOptions): Promise<BenchReport> {
  const lab = new Lab(options);
  const seedSolo = () => {
    lab.seedOnNode1(soloManifest(), 'solo', 'currentHealthy', 1);
    return lab.kubectl('get', 'pods', '-n', 'demo', '-l', 'app=solo', '-o', 'jsonpath={.items[0].metadata.name}');
  };
  const floors: number[] = [];
  const byHand: number[] = [];
  const drains: DrainProfile[] = [];
  for (let i = 0; i < options.runs; i += 1) {
    const physical = await physicalFloor(options.env.KUBECONFIG!, seedSolo());
    floors.push(physical.toReady + physical.gone);

    const old = seedSolo();
    const toReady = lab.time(() => {
      lab.kubectl('scale', '-n', 'demo', 'deployment/solo', '--replicas=2');
      lab.kubectl('wait', '-n', 'demo', 'deployment/solo', '--for=jsonpath={.status.readyReplicas}=2', '--timeout=60s');
    });
    const grace = lab.time(() => lab.kubectl('delete', 'pod', '-n', 'demo', old, '--wait=true', '--timeout=60s'));
    byHand.push(toReady + grace);

    seedSolo();
    const load = loadavg()[0]!;
    let output = '';
    const startedAt = Date.now();
    const drainSeconds = lab.time(() => {
      output = lab.maint(
        'drain',
        NODE,
        '--ignore-daemonsets',
        '--pod-selector',
        'app=solo',
        '--surge',
        '--yes',
        '-o',
        'json',
      );
    });
    const drain = profileOf(eventsOf(output), startedAt, drainSeconds);
    drains.push(drain);
    console.error(
      `bench: surge (load ${load.toFixed(1)}): floor ${floors.at(-1)!.toFixed(2)} s (start-to-Ready ${physical.toReady.toFixed(2)} s ` +
        `+ grace ${physical.gone.toFixed(2)} s); by hand with kubectl ${byHand.at(-1)!.toFixed(2)} s (${toReady.toFixed(2)} + ` +
        `${grace.toFixed(2)}); kubectl maint drain --surge ${drainSeconds.toFixed(2)} s = ${stepsText(drain)}`,
    );
  }
  const floor = median(floors);
  const drain = median(drains.map((d) => d.total));
  const fromScaleUp = median(drains.map((d) => d.total - d.toScaleUp));
  const r = drain / floor;
  const passed = r <= SURGE_TARGET;
  return {
    passed,
    text:
      `surge, one replica under minAvailable 1 (median of ${options.runs}): kubectl maint drain --surge ${drain.toFixed(2)} s, ` +
      `floor ${floor.toFixed(2)} s (replacement start-to-Ready + the old pod's grace period), ratio ${ratio(r)}  ` +
      `target <= ${SURGE_TARGET}: ${passed ? 'met' : 'MISSED'}\n` +
      `surge, from the scale-up to the end: ${fromScaleUp.toFixed(2)} s, ratio ${ratio(fromScaleUp / floor)} ` +
      `(the rest is start-up, the cluster read, the plan and the cordon)\n` +
      `surge, the floor's two steps by hand with kubectl (three kubectl start-ups): ${median(byHand).toFixed(2)} s, ` +
      `kubectl maint drain --surge / by hand ${ratio(drain / median(byHand))}`,
  };
}

/** Where one drain's time went, in seconds from its process's start, from its events. */
interface DrainProfile {
  readonly total: number;
  /** Start-up, the cluster read and the plan: the `started` event. */
  readonly toStarted: number;
  /** The cordon and the surge's reads and write: the `scaling-up` event. */
  readonly toScaleUp: number;
  /** The extra replica Ready, as the drain saw it. */
  readonly toReady: number;
  /** The eviction admitted (the pod terminating). */
  readonly toEvicted: number;
  /** The old pod gone, as the drain saw it. */
  readonly toGone: number;
  /** The Deployment back to its own count and the `finished` event. */
  readonly toFinished: number;
}

function profileOf(events: readonly DrainEventLine[], startedAt: number, total: number): DrainProfile {
  const at = (match: (e: DrainEventLine) => boolean) => {
    const event = events.find(match);
    if (!event)
      throw new Error('the surge drain did not go through every step: ' + events.map((e) => e.type).join(' '));
    return (event.atMs - startedAt) / 1000;
  };
  return {
    total,
    toStarted: at((e) => e.type === 'started'),
    toScaleUp: at((e) => e.type === 'surge' && e.step === 'scaling-up'),
    toReady: at((e) => e.type === 'surge' && e.step === 'ready'),
    toEvicted: at((e) => e.type === 'pod' && e.state?.phase === 'terminating'),
    toGone: at((e) => e.type === 'pod' && e.state?.phase === 'gone'),
    toFinished: at((e) => e.type === 'finished'),
  };
}

function stepsText(d: DrainProfile): string {
  const steps: Array<[string, number]> = [
    ['start-up, read, plan', d.toStarted],
    ['cordon, scale-up', d.toScaleUp - d.toStarted],
    ['to Ready', d.toReady - d.toScaleUp],
    ['eviction', d.toEvicted - d.toReady],
    ['to gone', d.toGone - d.toEvicted],
    ['scale back', d.toFinished - d.toGone],
    ['exit', d.total - d.toFinished],
  ];
  return steps.map(([name, s]) => `${name} ${s.toFixed(2)}`).join(' + ');
}

const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/**
 * The floor, by a client already running and watching: the Deployment scaled to 2 until its watch reports
 * 2 Ready (the drain's own test), then the old pod deleted with its own grace period until its watch
 * reports it deleted.
 */
async function physicalFloor(kubeconfig: string, old: string): Promise<{ toReady: number; gone: number }> {
  const config = new KubeConfig();
  config.loadFromFile(kubeconfig);
  const apps = config.makeApiClient(AppsV1Api);
  const core = config.makeApiClient(CoreV1Api);
  const watch = new Watch(config);
  type Deployment = KubernetesObject & {
    metadata: { generation?: number };
    status?: { readyReplicas?: number; observedGeneration?: number };
  };
  const ready = await watchUntil<Deployment>(
    watch,
    '/apis/apps/v1/namespaces/demo/deployments',
    'metadata.name=solo',
    (_type, d) =>
      (d.status?.observedGeneration ?? 0) >= (d.metadata.generation ?? 0) && (d.status?.readyReplicas ?? 0) >= 2,
  );
  const toReady = await seconds(async () => {
    await apps.patchNamespacedDeployment(
      { namespace: 'demo', name: 'solo', body: { spec: { replicas: 2 } } },
      mergePatch,
    );
    await ready.event;
  });
  const deleted = await watchUntil(
    watch,
    '/api/v1/namespaces/demo/pods',
    `metadata.name=${old}`,
    (type) => type === 'DELETED',
  );
  const gone = await seconds(async () => {
    await core.deleteNamespacedPod({ namespace: 'demo', name: old });
    await deleted.event;
  });
  return { toReady, gone };
}

/**
 * Starts a watch; once it is connected, returns the promise of the first event `done` accepts (the watch
 * then stops), wrapped: an async function's promise of a promise would wait for the event itself.
 */
async function watchUntil<T extends KubernetesObject>(
  watch: Watch,
  collection: string,
  fieldSelector: string,
  done: (type: string, object: T) => boolean,
): Promise<{ event: Promise<void> }> {
  let settle!: (error?: unknown) => void;
  const until = new Promise<void>((resolve, reject) => (settle = (error) => (error ? reject(error) : resolve())));
  let matched = false;
  const request = await watch.watch(
    collection,
    { fieldSelector },
    (type: string, object: T) => {
      if (matched || !done(type, object)) return;
      matched = true;
      settle();
    },
    (error: unknown) => {
      if (!matched) settle(error ?? new Error(`the watch of ${collection} ended early`));
    },
  );
  return { event: until.finally(() => request.abort()) };
}

async function seconds(work: () => Promise<void>): Promise<number> {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e9;
}

interface PlannedEta {
  readonly eta: { readonly totalSeconds: number };
}
interface DrainEventLine {
  readonly type: string;
  readonly atMs: number;
  readonly step?: string;
  readonly state?: { readonly phase?: string };
}

/** The plan's estimate of one drain and the drain measured from its first eviction to its end. */
function measureEta(lab: Lab, readySeconds: number): { estimate: number; measured: number; error: number } {
  lab.seedOnNode1(etaManifest(readySeconds), 'eta', 'disruptionsAllowed', 1);
  const only = [NODE, '--ignore-daemonsets', '--pod-selector', 'app=eta'];
  const planned = JSON.parse(lab.maint('plan', ...only, '-o', 'json')) as PlannedEta;
  const events = eventsOf(lab.maint('drain', ...only, '--yes', '-o', 'json'));
  const firstEviction = Math.min(
    ...events.flatMap((e) => (e.type === 'pod' && e.state?.phase === 'evicting' ? [e.atMs] : [])),
  );
  const finished = events.find((e) => e.type === 'finished');
  if (!finished || !Number.isFinite(firstEviction)) throw new Error('the eta drain evicted nothing or did not finish');
  const measured = (finished.atMs - firstEviction) / 1000;
  const estimate = planned.eta.totalSeconds;
  return { estimate, measured, error: (estimate - measured) / measured };
}

/** The estimate's error on the 2 s, 5 s and 10 s scenarios, each drained `runs` times (the median error). */
export function runEtaBench(options: StrategiesBenchOptions): BenchReport {
  const lab = new Lab(options);
  const lines: string[] = [];
  let passed = true;
  for (const readySeconds of ETA_READY_SECONDS) {
    const results = Array.from({ length: options.runs }, () => {
      const result = measureEta(lab, readySeconds);
      console.error(
        `bench: eta ${readySeconds} s: estimate ${result.estimate} s, measured ${result.measured.toFixed(1)} s, ` +
          `error ${percent(result.error)}`,
      );
      return result;
    });
    const error = median(results.map((r) => r.error));
    const worst = results.reduce((a, b) => (Math.abs(b.error) > Math.abs(a.error) ? b : a));
    if (Math.abs(worst.error) > ETA_BOUND) passed = false;
    lines.push(
      `eta, replacements Ready after ${String(readySeconds).padStart(2)} s: estimate ${results.map((r) => `${r.estimate} s`).join(', ')}; ` +
        `measured ${results.map((r) => `${r.measured.toFixed(1)} s`).join(', ')}; error median ${percent(error)}, ` +
        `worst ${percent(worst.error)}  bound ±${ETA_BOUND * 100} %: ${Math.abs(worst.error) <= ETA_BOUND ? 'met' : 'MISSED'}`,
    );
  }
  return { passed, text: lines.join('\n') };
}

/** The drain's `-o json` events, one a line. */
const eventsOf = (output: string): DrainEventLine[] =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as DrainEventLine);

const percent = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)} %`;
