/**
 * The live-read benchmark: `kubectl maint plan` reading a larger cluster from the lab's real apiserver,
 * against reads of the same apiserver in the same run.
 *
 * The lab gets LIVE_NODES KWOK nodes (3 zones) and LIVE_PODS_PER_NODE pods on each, bound by nodeName
 * (so the scheduler and the controllers are not what is measured) and left to KWOK until every one is
 * Running. Then, alternately, `runs` times each:
 *   - `kubectl get nodes,pods,poddisruptionbudgets,… -A -o json`: the read a plan from a snapshot needs
 *     (the README's snapshot command), the baseline;
 *   - `kubectl maint plan NODE -o json`: reads every kind it uses, in pages, in parallel, and plans;
 *   - `kubectl drain NODE --dry-run=client`: for scale only; it lists the node's own pods and answers far
 *     less (no budgets, no scheduling).
 * Reported: median seconds and peak RSS (GNU time, when /usr/bin/time exists) and their ratios.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type * as Stats from './stats.js';

// Imported by URL: node runs these scripts from source and resolves a .ts file only by its own name.
const { median, ratio } = (await import(new URL('./stats.ts', import.meta.url).href)) as typeof Stats;

export interface LiveReadOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly kubectlBin: string;
  readonly maint: string;
  readonly labScript: string;
  readonly runs: number;
}

interface Measure {
  readonly seconds: number;
  readonly rssKiB: number | null;
}

const NAMESPACE = 'bench-read';
const GNU_TIME = '/usr/bin/time';

export function runLiveReadBench(options: LiveReadOptions): { text: string } {
  const nodes = Number(process.env.LIVE_NODES ?? 500);
  const podsPerNode = Number(process.env.LIVE_PODS_PER_NODE ?? 30);
  const work = mkdtempSync(path.join(tmpdir(), 'kubectl-maint-live-read-'));
  try {
    populate(options, work, nodes, podsPerNode);
    const node = 'bench-node-1';
    const commands = {
      'kubectl get -o json': [options.kubectlBin, ...snapshotRead()],
      'kubectl maint plan': [
        process.execPath,
        options.maint,
        'plan',
        node,
        '--ignore-daemonsets',
        '--force',
        '-o',
        'json',
      ],
      'kubectl drain --dry-run=client': [
        options.kubectlBin,
        ...['drain', node, '--dry-run=client', '--ignore-daemonsets', '--force'],
      ],
    };
    const results = new Map<string, Measure[]>(Object.keys(commands).map((name) => [name, []]));
    for (let i = 0; i < options.runs; i += 1) {
      for (const [name, argv] of Object.entries(commands)) {
        const measure = timed(argv, options.env);
        results.get(name)!.push(measure);
        console.error(`bench: live-read: ${name} ${measure.seconds.toFixed(2)}s`);
      }
    }
    return { text: report(results, nodes, podsPerNode, options.runs) };
  } finally {
    rmSync(work, { recursive: true, force: true });
    // Leave the lab as the other benchmarks and the tests expect it: hello, not 15,000 extra pods.
    spawnSync('bash', [options.labScript, 'seed', 'hello'], { env: options.env, stdio: 'ignore' });
  }
}

/** `kubectl get` of every kind a plan reads: what a snapshot file holds. */
export function snapshotRead(): string[] {
  const kinds = 'nodes,pods,poddisruptionbudgets,replicasets,deployments,statefulsets,daemonsets,services';
  return ['get', kinds, '-A', '-o', 'json'];
}

/** hello (to reset the lab), then the extra nodes and pods, and waits until KWOK has every pod Running. */
export function populate(
  options: Pick<LiveReadOptions, 'env' | 'kubectlBin' | 'labScript'>,
  work: string,
  nodes: number,
  podsPerNode: number,
): void {
  must(spawnSync('bash', [options.labScript, 'seed', 'hello'], { env: options.env, encoding: 'utf8' }), 'lab seed');
  const kubectl = (args: string[]) =>
    must(spawnSync(options.kubectlBin, args, { env: options.env, encoding: 'utf8' }), `kubectl ${args.join(' ')}`);
  const nodeFile = path.join(work, 'nodes.json');
  writeFileSync(nodeFile, JSON.stringify(list(Array.from({ length: nodes }, (_, i) => benchNode(i + 1)))));
  kubectl(['create', '-f', nodeFile]);
  kubectl(['create', 'namespace', NAMESPACE]);
  // The lab's seed deletes scenario namespaces (and every node) when it resets.
  kubectl(['label', 'namespace', NAMESPACE, 'lab.kubectl-maint.io/scenario=true']);
  // Four kubectl processes create the pods side by side: one alone is bounded by its round trips.
  const parts = 4;
  const files = Array.from({ length: parts }, (_, part) => {
    const pods = [];
    for (let n = 1; n <= nodes; n += 1) {
      for (let j = part; j < podsPerNode; j += parts) pods.push(benchPod(n, j));
    }
    const file = path.join(work, `pods-${part}.json`);
    writeFileSync(file, JSON.stringify(list(pods)));
    return file;
  });
  const script = files.map((f) => `"${options.kubectlBin}" create -f "${f}" >/dev/null &`).join('\n') + '\nwait';
  must(spawnSync('bash', ['-c', script], { env: options.env, encoding: 'utf8' }), 'creating the pods');
  const deadline = Date.now() + 600_000;
  for (;;) {
    const pending = spawnSync(
      options.kubectlBin,
      ['get', 'pods', '-n', NAMESPACE, '--field-selector=status.phase!=Running', '-o', 'name'],
      { env: options.env, encoding: 'utf8' },
    );
    if (pending.status === 0 && pending.stdout.trim() === '') break;
    if (Date.now() > deadline) throw new Error('KWOK did not run every bench pod within 10 minutes');
    spawnSync('sleep', ['5']);
  }
}

const list = (items: unknown[]) => ({ apiVersion: 'v1', kind: 'List', items });

function benchNode(i: number) {
  const name = `bench-node-${i}`;
  const resources = { cpu: '32', memory: '128Gi', pods: '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      annotations: { 'kwok.x-k8s.io/node': 'fake', 'node.alpha.kubernetes.io/ttl': '0' },
      labels: {
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'topology.kubernetes.io/zone': `zone-${i % 3}`,
      },
    },
    status: { allocatable: resources, capacity: resources },
  };
}

function benchPod(node: number, index: number) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `p-${node}-${index}`, namespace: NAMESPACE, labels: { app: `app-${(node * 7 + index) % 100}` } },
    spec: {
      nodeName: `bench-node-${node}`,
      terminationGracePeriodSeconds: 1,
      containers: [
        { name: 'app', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '100m', memory: '128Mi' } } },
      ],
    },
  };
}

/** Runs argv with stdout discarded; seconds from start to exit and, with GNU time, the peak RSS. */
function timed(argv: string[], env: NodeJS.ProcessEnv): Measure {
  const gnuTime = existsSync(GNU_TIME);
  const command = gnuTime ? [GNU_TIME, '-f', '%M', ...argv] : argv;
  const started = process.hrtime.bigint();
  const result = spawnSync(command[0]!, command.slice(1), {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.status !== 0) throw new Error(`${argv.join(' ')} failed (exit ${result.status}):\n${result.stderr}`);
  const rss = gnuTime ? Number(result.stderr.trim().split('\n').at(-1)) : NaN;
  return { seconds, rssKiB: Number.isFinite(rss) ? rss : null };
}

function must(result: ReturnType<typeof spawnSync>, what: string): void {
  if (result.status !== 0) throw new Error(`${what} failed (exit ${result.status}):\n${String(result.stderr)}`);
}

function report(results: Map<string, Measure[]>, nodes: number, podsPerNode: number, runs: number): string {
  const baseline = results.get('kubectl get -o json')!;
  const baseSeconds = median(baseline.map((m) => m.seconds));
  const baseRss = baseline.every((m) => m.rssKiB !== null) ? median(baseline.map((m) => m.rssKiB!)) : null;
  const lines = [
    `live-read: ${nodes} nodes, ${nodes * podsPerNode} pods in the lab (median of ${runs}); ratios against kubectl get -o json`,
  ];
  for (const [name, measures] of results) {
    const seconds = median(measures.map((m) => m.seconds));
    const rss = measures.every((m) => m.rssKiB !== null) ? median(measures.map((m) => m.rssKiB!)) : null;
    const rssText = rss === null ? '' : `  peak RSS ${(rss / 1024).toFixed(0)} MiB`;
    const rssRatio = rss === null || baseRss === null ? '' : ` (${ratio(rss / baseRss)}×)`;
    lines.push(
      `  ${name.padEnd(32)} ${seconds.toFixed(2).padStart(7)}s (${ratio(seconds / baseSeconds)}×)${rssText}${rssRatio}`,
    );
  }
  return lines.join('\n');
}
