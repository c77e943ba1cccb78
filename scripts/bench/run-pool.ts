/**
 * The run benchmark: a pool of 8 KWOK workers (the lab's `pool` scenario plus two nodes) carrying three
 * budgeted workloads whose pods are Ready 2 s after they start, and a command that simulates a 10 s reboot
 * (scripts/lab/reboot-node.sh). In the same run, `runs` times each:
 *   - `kubectl maint run -l pool=blue --max-unavailable 2 --expect-reboot -- reboot-node.sh {node}`;
 *   - the shell loop operators write: for each node, `kubectl drain --ignore-daemonsets
 *     --delete-emptydir-data`, the command, `kubectl uncordon`.
 * A watcher samples every budget of the pool during each run (without blocking the timing: each sample is
 * an asynchronous `kubectl get pdb`) and counts the budgets seen below their desired health. After each
 * run every pool node must be schedulable again and every workload Ready, or the bench fails.
 * Target: kubectl maint ≤ 0.5 × the loop, with no budget below its desired health in either.
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type * as PoolRun from '../lab/pool-run.js';
import type * as Stats from './stats.js';

const { median } = (await import(new URL('./stats.ts', import.meta.url).href)) as typeof Stats;
const { poolRunArgs } = (await import(new URL('../lab/pool-run.ts', import.meta.url).href)) as typeof PoolRun;

export interface RunPoolOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly kubectlBin: string;
  readonly maint: string;
  readonly labScript: string;
  readonly runs: number;
}

const TARGET = 0.5;
const REBOOT_SECONDS = '10';
const root = path.resolve(import.meta.dirname, '../..');
const reboot = path.join(root, 'scripts/lab/reboot-node.sh');

const EXTRA_NODES = [7, 8]
  .map(
    (i) => `apiVersion: v1
kind: Node
metadata:
  name: pool-${i}
  annotations: { kwok.x-k8s.io/node: fake, node.alpha.kubernetes.io/ttl: '0' }
  labels: { kubernetes.io/hostname: pool-${i}, kubernetes.io/os: linux, kubernetes.io/arch: amd64, topology.kubernetes.io/zone: zone-${'abc'[(i - 1) % 3]}, pool: blue, type: kwok }
status:
  allocatable: { cpu: '4', memory: 8Gi, pods: '110' }
  capacity: { cpu: '4', memory: 8Gi, pods: '110' }`,
  )
  .join('\n---\n');

export async function runRunPoolBench(options: RunPoolOptions): Promise<{ text: string; passed: boolean }> {
  const env = { ...options.env, PATH: `${path.dirname(options.kubectlBin)}:${options.env.PATH ?? ''}`, REBOOT_SECONDS };
  const sh = (command: string, args: readonly string[], input?: string) => {
    const r = spawnSync(command, args, { env, encoding: 'utf8', ...(input ? { input } : {}) });
    if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${r.stderr}${r.stdout}`);
    return r.stdout;
  };
  const kubectl = (...args: string[]) => sh(options.kubectlBin, args);
  const prepare = () => {
    sh('bash', [options.labScript, 'seed', 'pool']);
    sh(options.kubectlBin, ['apply', '-f', '-'], EXTRA_NODES);
    kubectl('wait', '--for=condition=Ready', 'node', 'pool-7', 'pool-8', '--timeout=60s');
    // Pods Ready 2 s after they start (the lab's KWOK stage reads the annotation).
    for (const app of ['web', 'api', 'cache']) {
      kubectl(
        'patch',
        'deployment',
        app,
        '-n',
        'shop',
        '--type=merge',
        '-p',
        '{"spec":{"template":{"metadata":{"annotations":{"lab.kubectl-maint.io/ready-delay":"2s"}}}}}',
      );
      kubectl('rollout', 'status', '-n', 'shop', `deployment/${app}`, '--timeout=180s');
    }
    settle(kubectl);
    kubectl('delete', 'leases', '-n', 'kubectl-maint', '-l', 'maint.kubectl.io/run', '--ignore-not-found');
  };
  const tools: Record<string, () => [string, string[]]> = {
    'kubectl maint run': () => [process.execPath, [options.maint, ...poolRunArgs([reboot, '{node}'])]],
    'drain/command/uncordon loop': () => [
      'bash',
      [
        '-c',
        `set -e; for n in $(kubectl get nodes -l pool=blue -o name | sed 's|node/||'); do ` +
          `kubectl drain "$n" --ignore-daemonsets --delete-emptydir-data >/dev/null; ${reboot} "$n" >/dev/null; kubectl uncordon "$n" >/dev/null; done`,
      ],
    ],
  };
  const times: Record<string, number[]> = {};
  const below: Record<string, number> = {};
  const samples: Record<string, number> = {};
  for (let i = 0; i < options.runs; i += 1) {
    for (const [tool, command] of Object.entries(tools)) {
      prepare();
      const watcher = watchBudgets(options.kubectlBin, env);
      const started = process.hrtime.bigint();
      const [file, args] = command();
      // The run's events (-o json) are kept, to see where its time went.
      const out =
        tool === 'kubectl maint run' ? openSync(path.join(tmpdir(), `bench-run-events-${i + 1}.jsonl`), 'w') : 'ignore';
      await new Promise<void>((resolve, reject) => {
        const child = spawn(file, args, { env, stdio: ['ignore', out, 'pipe'] });
        let stderr = '';
        child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
        child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${tool} exited ${code}:\n${stderr}`))));
      });
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (typeof out === 'number') closeSync(out);
      const watched = await watcher.stop();
      checkBackInService(kubectl, tool);
      (times[tool] ??= []).push(seconds);
      below[tool] = (below[tool] ?? 0) + watched.below;
      samples[tool] = (samples[tool] ?? 0) + watched.samples;
      console.error(
        `bench: run: ${tool} ${seconds.toFixed(1)}s, ${watched.below} of ${watched.samples} budget samples below desired health`,
      );
    }
  }
  const ours = median(times['kubectl maint run']!);
  const theirs = median(times['drain/command/uncordon loop']!);
  const ratio = ours / theirs;
  const passed = ratio <= TARGET && below['kubectl maint run'] === 0;
  const row = (tool: string, label: string, seconds: number) =>
    `${label.padEnd(52)} ${`${seconds.toFixed(1)}s`.padStart(7)}   ${below[tool]} of ${samples[tool]}`;
  const text = [
    `${'run: 8 nodes, 3 budgets, 10 s reboot'.padEnd(52)} ${'time'.padStart(7)}   budget samples below desired health`,
    row('kubectl maint run', 'kubectl maint run -l pool=blue --max-unavailable 2', ours),
    row('drain/command/uncordon loop', 'kubectl drain / command / kubectl uncordon loop', theirs),
    `ratio ${ratio.toFixed(2)} (median of ${options.runs}; target <= ${TARGET}: ${ratio <= TARGET ? 'met' : 'MISSED'})`,
  ].join('\n');
  return { text, passed };
}

/** The pool's 13 pods, each of the new template and Ready, none terminating; every budget counting all of them. */
function settle(kubectl: (...args: string[]) => string): void {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const pods = kubectl(
      'get',
      'pods',
      '-n',
      'shop',
      '-o',
      'jsonpath={range .items[*]}{.metadata.deletionTimestamp}/{.status.conditions[?(@.type=="Ready")].status}{"\\n"}{end}',
    )
      .trim()
      .split('\n');
    const pdbs = kubectl(
      'get',
      'pdb',
      '-n',
      'shop',
      '-o',
      'jsonpath={range .items[*]}{.status.currentHealthy}/{.status.expectedPods}{"\\n"}{end}',
    )
      .trim()
      .split('\n');
    if (
      pods.length === POD_COUNT &&
      pods.every((p) => p === '/True') &&
      pdbs.every((b) => b.split('/')[0] === b.split('/')[1])
    )
      return;
    if (Date.now() > deadline)
      throw new Error(`the pool did not settle: pods ${pods.join(' ')}; budgets ${pdbs.join(' ')}`);
    spawnSync('sleep', ['0.5']);
  }
}

/** web 6 + api 3 + cache 4 (scripts/lab/scenarios/pool/apps.yaml). */
const POD_COUNT = 13;

/** After a run: every pool node schedulable and every workload of the pool Ready, or the run did not do its job. */
function checkBackInService(kubectl: (...args: string[]) => string, tool: string): void {
  const cordoned = kubectl(
    'get',
    'nodes',
    '-l',
    'pool=blue',
    '-o',
    'jsonpath={.items[?(@.spec.unschedulable)].metadata.name}',
  );
  if (cordoned.trim() !== '') throw new Error(`${tool} left nodes cordoned: ${cordoned}`);
  kubectl('wait', '-n', 'shop', '--for=condition=Available', 'deployments', '--all', '--timeout=120s');
}

const execFileAsync = promisify(execFile);

/**
 * Samples every budget of the pool, one `kubectl get pdb` after the other (about every 300 ms on top of
 * the call), without blocking the event loop that times the run; resolves with the number of samples and
 * of budgets seen below desired health (currentHealthy < desiredHealthy).
 */
function watchBudgets(
  kubectlBin: string,
  env: NodeJS.ProcessEnv,
): { stop: () => Promise<{ samples: number; below: number }> } {
  let stopped = false;
  let below = 0;
  let samples = 0;
  const loop = (async () => {
    while (!stopped) {
      const { stdout } = await execFileAsync(
        kubectlBin,
        [
          'get',
          'pdb',
          '-n',
          'shop',
          '-o',
          'jsonpath={range .items[*]}{.status.currentHealthy} {.status.desiredHealthy}{"\\n"}{end}',
        ],
        { env, encoding: 'utf8' },
      );
      samples += 1;
      for (const line of stdout.trim().split('\n')) {
        const [current, desired] = line.split(' ').map(Number);
        if (current !== undefined && desired !== undefined && current < desired) below += 1;
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      return { samples, below };
    },
  };
}
