import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import type { RunEvent } from '../../src/run/events.js';
import { bin } from './drain-run.js';
import { eventually, kubectl, kubectlJson, labEnv, seedScenario } from './lab.js';

// What the `kubectl maint run` e2e files share: the lab's `pool` scenario (six KWOK workers in three zones,
// three budgeted workloads) and scripts/lab/reboot-node.sh as the operator's command (NotReady, then Ready
// with a new bootID).

export const root = path.resolve(import.meta.dirname, '../..');
export const reboot = path.join(root, 'scripts/lab/reboot-node.sh');
/** A scratch directory for one test file (the caller removes it). */
export const scratch = () => mkdtempSync(path.join(tmpdir(), 'maint-run-e2e-'));
/** Where the runs started here keep their command output ($XDG_STATE_HOME): not the operator's home. */
const stateHome = path.join(tmpdir(), 'maint-run-e2e-state');

export const POOL = ['pool-1', 'pool-2', 'pool-3', 'pool-4', 'pool-5', 'pool-6'];

/**
 * Seeds `pool` and deletes every run's Lease (the seed keeps Leases, which live in the state namespace, kubectl-maint): each
 * test starts with no run in the cluster.
 */
export async function seedPool(): Promise<void> {
  await seedScenario('pool');
  await kubectl(['delete', 'leases', '-n', 'kubectl-maint', '-l', 'maint.kubectl.io/run', '--ignore-not-found']);
}

export interface Started {
  readonly child: ResultPromise<{ reject: false }>;
  /** Events seen so far (stdout lines), filled as they come. */
  readonly events: RunEvent[];
  /** Whether the process has ended. */
  readonly ended: () => boolean;
}

/**
 * Starts `kubectl maint ARGS…` in `cwd` with the lab's kubectl and the reboot script's settings; `nodeArgs`
 * go to the Node.js that runs bin/kubectl-maint.js.
 */
export async function start(
  args: readonly string[],
  env: Record<string, string> = {},
  cwd = root,
  nodeArgs: readonly string[] = [],
): Promise<Started> {
  const lab = await labEnv();
  const child = execa(process.execPath, [...nodeArgs, bin, ...args], {
    reject: false,
    cwd,
    env: {
      ...process.env,
      KUBECONFIG: lab.KUBECONFIG,
      PATH: lab.PATH,
      NO_COLOR: '1',
      XDG_STATE_HOME: stateHome,
      ...env,
    },
  });
  const events: RunEvent[] = [];
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const lines = (pending + chunk.toString()).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line.startsWith('{"type":')) events.push(JSON.parse(line) as RunEvent);
  });
  let ended = false;
  void child.finally(() => {
    ended = true;
  });
  return { child, events, ended: () => ended };
}

/**
 * Until an event of `run` meets `seen` (and returns what `seen` returned). A run that ends first fails the
 * wait at once with the run described, rather than after `timeoutMs` with nothing to go on.
 */
export async function untilEvent<T>(
  run: Started,
  seen: (events: readonly RunEvent[]) => T | undefined | false,
  timeoutMs: number,
  what: string,
): Promise<T> {
  return eventually(
    async () => {
      const value = seen(run.events);
      if (value) return value;
      if (!run.ended()) return undefined;
      throw new Error(`the run ended before ${what}:\n${described(await finish(run))}`);
    },
    timeoutMs,
    what,
  );
}

export async function finish(run: Started) {
  const r = await run.child;
  return { exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr), events: run.events };
}

/**
 * A finished run as an assertion's message, so that a failure explains itself: its exit code, stderr and
 * events (the drain's own events shortened to their type and pod or node).
 */
export function described(r: { exitCode?: number | undefined; stderr: string; events: readonly RunEvent[] }): string {
  const line = (e: RunEvent) => {
    if (e.type !== 'drain') return JSON.stringify({ ...e, atMs: undefined });
    const d = e.event as { type: string; pod?: { name: string }; state?: unknown; node?: string; result?: string };
    return `drain ${d.type} ${d.pod?.name ?? d.node ?? d.result ?? ''}${d.state ? ` ${JSON.stringify(d.state)}` : ''}`;
  };
  return [`exit ${r.exitCode}, stderr: ${JSON.stringify(r.stderr)}`, ...r.events.map(line)].join('\n');
}

export const finishedOf = (events: readonly RunEvent[]) =>
  events.find((e): e is Extract<RunEvent, { type: 'run-finished' }> => e.type === 'run-finished');

export interface NodeObject {
  metadata: { name: string; annotations?: Record<string, string> };
  spec: { unschedulable?: boolean };
}
export async function poolNodes(): Promise<NodeObject[]> {
  return (await kubectlJson<{ items: NodeObject[] }>(['get', 'nodes', '-l', 'pool=blue'])).items;
}

/**
 * The pool node holding the most budgeted pods (namespace shop) that its budgets let go all at once, as
 * they allow now: a drain of it evicts each pod at once and needs no disruption controller to finish, and
 * the budgets it leaves down give the run something to wait for. A node holding two pods of web (one
 * disruption allowed) would wait for that controller to count the first gone.
 */
export async function nodeBudgetsLetGoAtOnce(): Promise<string> {
  type Labelled = { metadata: { labels?: Record<string, string> } };
  const pods = await kubectlJson<{ items: (Labelled & { spec: { nodeName?: string } })[] }>([
    'get',
    'pods',
    '-n',
    'shop',
  ]);
  const budgets = await kubectlJson<{
    items: (Budget & { spec: { selector: { matchLabels: Record<string, string> } } })[];
  }>(['get', 'pdb', '-n', 'shop']);
  const budgetOf = (pod: Labelled) =>
    budgets.items.find((b) =>
      Object.entries(b.spec.selector.matchLabels).every(([k, v]) => pod.metadata.labels?.[k] === v),
    );
  const byNode = new Map<string, Map<string, number>>();
  for (const pod of pods.items) {
    const node = pod.spec.nodeName;
    const budget = budgetOf(pod);
    if (!node || !POOL.includes(node) || !budget) continue;
    const counts = byNode.get(node) ?? new Map<string, number>();
    counts.set(budget.metadata.name, (counts.get(budget.metadata.name) ?? 0) + 1);
    byNode.set(node, counts);
  }
  const allowed = (name: string) =>
    budgets.items.find((b) => b.metadata.name === name)?.status?.disruptionsAllowed ?? 0;
  const atOnce = [...byNode].filter(([, counts]) => [...counts].every(([name, n]) => n <= allowed(name)));
  const total = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);
  const busiest = atOnce.sort((a, b) => total(b[1]) - total(a[1]) || a[0].localeCompare(b[0]))[0];
  if (!busiest)
    throw new Error(
      `no pool node's budgeted pods may all go at once: ${JSON.stringify([...byNode].map(([node, counts]) => [node, Object.fromEntries(counts)]))}`,
    );
  return busiest[0];
}

interface Budget {
  metadata: { name: string };
  status?: { currentHealthy?: number; desiredHealthy?: number; disruptionsAllowed?: number };
}

/** Every budget of the pool's namespace allows a disruption again: the cluster has recovered from a drain. */
export async function budgetsAllow(): Promise<boolean> {
  const list = await kubectlJson<{ items: Budget[] }>(['get', 'pdb', '-n', 'shop']);
  return list.items.length > 0 && list.items.every((b) => (b.status?.disruptionsAllowed ?? 0) > 0);
}

/** Samples every budget of the pool's namespace until stopped; records each sample below desired health. */
export function watchBudgets(): { stop: () => Promise<{ samples: number; below: string[] }> } {
  let stopped = false;
  let samples = 0;
  const below: string[] = [];
  const loop = (async () => {
    while (!stopped) {
      const list = await kubectlJson<{ items: Budget[] }>(['get', 'pdb', '-n', 'shop']);
      samples += 1;
      for (const b of list.items) {
        const { currentHealthy = 0, desiredHealthy = 0 } = b.status ?? {};
        if (currentHealthy < desiredHealthy) below.push(`${b.metadata.name}: ${currentHealthy} < ${desiredHealthy}`);
      }
      await new Promise((r) => setTimeout(r, 200));
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

export async function deploymentsReady(): Promise<boolean> {
  const list = await kubectlJson<{ items: Array<{ spec: { replicas: number }; status: { readyReplicas?: number } }> }>([
    'get',
    'deployments',
    '-n',
    'shop',
  ]);
  return list.items.length === 3 && list.items.every((d) => d.status.readyReplicas === d.spec.replicas);
}

/**
 * Watches the pool's nodes' spec.unschedulable (`kubectl get --watch`) from its first list until stopped:
 * the most nodes cordoned at once and which they were. `cordoned()` is what the watch sees now.
 */
export async function watchCordons() {
  const lab = await labEnv();
  const child = execa(
    path.join(lab.labBin, 'kubectl'),
    [
      'get',
      'nodes',
      '-l',
      'pool=blue',
      '--watch',
      '--no-headers',
      '-o',
      'custom-columns=N:.metadata.name,U:.spec.unschedulable',
    ],
    { reject: false, env: { ...process.env, KUBECONFIG: lab.KUBECONFIG, PATH: lab.PATH } },
  );
  const unschedulable = new Map<string, boolean>();
  const cordoned = () => new Set([...unschedulable].filter(([, u]) => u).map(([n]) => n));
  let most: string[] = [];
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const lines = (pending + chunk.toString()).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const [name, value] = line.trim().split(/\s+/);
      if (!name) continue;
      unschedulable.set(name, value === 'true');
      const now = cordoned();
      if (now.size > most.length) most = [...now].sort();
    }
  });
  // Every pool node listed: the watch runs from here on.
  await eventually(async () => unschedulable.size === POOL.length, 30_000, 'the watch of the pool nodes to list them');
  return {
    cordoned,
    async stop() {
      child.kill();
      await child;
      return { most };
    },
  };
}
