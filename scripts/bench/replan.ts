/**
 * A run's per-batch re-plan on the live-read lab: the cluster read once into the cache the run keeps
 * (dist/snapshot/load-live.js openLiveCluster), then, `runs` times, a pod changed with kubectl and, once
 * the watch has delivered it, the time to the new plan of one node (a new snapshot from the cache, its
 * indexes, the plan) as the runner makes it (dist/run/batch-drain.js planBatch). Printed as JSON:
 * { firstReadSeconds, replanSeconds: [...] }. Run by live-read.ts with KUBECONFIG set to the lab's.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RunOptions } from '../../src/run/state.js';

const root = path.resolve(import.meta.dirname, '../..');
const load = async <T>(file: string) => (await import(pathToFileURL(path.join(root, 'dist', file)).href)) as T;

interface Modules {
  connect: (values: object) => Promise<unknown>;
  openLiveCluster: (
    client: unknown,
    options: object,
  ) => Promise<{
    snapshot(): Promise<unknown>;
    cache: { generation(): number };
    stop(): void;
  }>;
  planBatch: (snapshot: unknown, nodes: readonly string[], options: RunOptions, nowMs: number) => unknown;
}

const [{ connect }, { openLiveCluster }, { planBatch }, defaults] = await Promise.all([
  load<Pick<Modules, 'connect'>>('cli/kube-connect.js'),
  load<Pick<Modules, 'openLiveCluster'>>('snapshot/load-live.js'),
  load<Pick<Modules, 'planBatch'>>('run/batch-drain.js'),
  load<{ DEFAULT_MAINTENANCE_TAINT_KEY: string; DEFAULT_NODE_MONITOR_GRACE_PERIOD_SECONDS: number }>(
    'plan/defaults.js',
  ),
]);
const [kubectlBin, node, namespace, pod, runsText] = process.argv.slice(2);
const runs = Number(runsText ?? 3);
/** A run's RunOptions (src/run/state.ts) as `run NODE --ignore-daemonsets --force` records them. */
const options: RunOptions = {
  drain: {
    ignoreDaemonSets: true,
    deleteEmptyDirData: false,
    force: true,
    disableEviction: false,
    skipWaitForDeleteTimeoutSeconds: 0,
    taint: { key: defaults.DEFAULT_MAINTENANCE_TAINT_KEY },
    nodeMonitorGracePeriodSeconds: defaults.DEFAULT_NODE_MONITOR_GRACE_PERIOD_SECONDS,
    gracePeriodSeconds: -1,
    timeoutMs: 0,
    concurrency: 0,
  },
  commandTimeoutMs: 0,
  nodeReadyTimeoutMs: 0,
  budgetTimeoutMs: 0,
  expectReboot: false,
  uncordon: true,
  keepGoing: false,
};

const started = performance.now();
const live = await openLiveCluster(await connect({}), {});
planBatch(await live.snapshot(), [node!], options, Date.now());
const firstReadSeconds = (performance.now() - started) / 1000;
const replanSeconds: number[] = [];
for (let i = 0; i < runs; i += 1) {
  const before = live.cache.generation();
  const label = spawnSync(kubectlBin!, ['label', 'pod', '-n', namespace!, pod!, `bench-replan=${i}`, '--overwrite']);
  if (label.status !== 0) throw new Error(`kubectl label failed: ${String(label.stderr)}`);
  while (live.cache.generation() === before) await new Promise((resolve) => setTimeout(resolve, 10));
  const t = performance.now();
  planBatch(await live.snapshot(), [node!], options, Date.now());
  replanSeconds.push((performance.now() - t) / 1000);
}
live.stop();
console.log(JSON.stringify({ firstReadSeconds, replanSeconds }));
