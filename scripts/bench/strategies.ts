/**
 * The strategies' benchmark (issue 11), in the lab:
 *
 *   surge  the single-replica Deployment under a minAvailable 1 budget on k8s-node-1
 *          (scripts/lab/workloads/solo.yaml): `kubectl maint drain --surge` from start to exit, against the
 *          physical floor measured in the same run on the same workload: a second replica's start to Ready
 *          (`kubectl scale` until `kubectl wait` sees it Ready) plus the old pod's grace period (`kubectl
 *          delete pod` until it is gone). Nothing can drain it faster: the budget admits the eviction only
 *          once the extra replica is Ready, and the pod is gone only after its grace period. Target: ≤ 1.3×.
 *   eta    the plan's estimate against the measured drain on three replicas behind a maxUnavailable 1
 *          budget (scripts/lab/workloads/eta.yaml) whose replacements are Ready 2 s, 5 s and 10 s after they
 *          start, measured as the e2e test does (first eviction to the end). Printed per scenario: the
 *          error, estimate − measured over measured. Target: within ±25 % (the issue's bound).
 *
 * Both floor commands are kubectl processes, so the floor includes two kubectl start-ups, as the drain
 * includes its own.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
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

/** --surge on solo against replacement start-to-Ready + the old pod's grace period, alternating. */
export function runSurgeBench(options: StrategiesBenchOptions): BenchReport {
  const lab = new Lab(options);
  const seedSolo = () => lab.seedOnNode1(soloManifest(), 'solo', 'currentHealthy', 1);
  const floors: number[] = [];
  const drains: number[] = [];
  const surges: number[] = [];
  const parts: string[] = [];
  for (let i = 0; i < options.runs; i += 1) {
    seedSolo();
    const old = lab.kubectl('get', 'pods', '-n', 'demo', '-l', 'app=solo', '-o', 'jsonpath={.items[0].metadata.name}');
    const toReady = lab.time(() => {
      lab.kubectl('scale', '-n', 'demo', 'deployment/solo', '--replicas=2');
      lab.kubectl('wait', '-n', 'demo', 'deployment/solo', '--for=jsonpath={.status.readyReplicas}=2', '--timeout=60s');
    });
    const grace = lab.time(() => lab.kubectl('delete', 'pod', '-n', 'demo', old, '--wait=true', '--timeout=60s'));
    floors.push(toReady + grace);
    parts.push(`start-to-Ready ${toReady.toFixed(1)} s + grace ${grace.toFixed(1)} s`);

    seedSolo();
    let output = '';
    const startedAt = Date.now();
    const drain = lab.time(() => {
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
    drains.push(drain);
    // Where the drain's time goes: before its first surge step (start-up, the cluster read, the plan, the
    // cordon), and from the scale-up to the end (what the floor measures).
    const scaleUp = eventsOf(output).find((e) => e.type === 'surge')?.atMs ?? startedAt;
    const surge = drain - (scaleUp - startedAt) / 1000;
    surges.push(surge);
    console.error(
      `bench: surge: floor ${floors.at(-1)!.toFixed(1)} s (${parts.at(-1)}), kubectl maint drain --surge ${drain.toFixed(1)} s ` +
        `(${((scaleUp - startedAt) / 1000).toFixed(1)} s to the scale-up, ${surge.toFixed(1)} s from it to the end)`,
    );
  }
  const floor = median(floors);
  const drain = median(drains);
  const r = drain / floor;
  const passed = r <= SURGE_TARGET;
  return {
    passed,
    text:
      `surge, one replica under minAvailable 1 (median of ${options.runs}): kubectl maint drain --surge ${drain.toFixed(1)} s, ` +
      `floor ${floor.toFixed(1)} s (replacement start-to-Ready + the old pod's grace period), ratio ${ratio(r)}  ` +
      `target <= ${SURGE_TARGET}: ${passed ? 'met' : 'MISSED'}\n` +
      `surge, from the scale-up to the end: ${median(surges).toFixed(1)} s, ratio ${ratio(median(surges) / floor)} ` +
      `(the rest is start-up, the cluster read, the plan and the cordon)`,
  };
}

interface PlannedEta {
  readonly eta: { readonly totalSeconds: number };
}
interface DrainEventLine {
  readonly type: string;
  readonly atMs: number;
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
