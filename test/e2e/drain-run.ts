import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { expect } from 'vitest';
import type { DrainEvent, PodRef } from '../../src/drain/events.js';
import { eventually, kubectl, kubectlJson, labEnv, labUserWithRules } from './lab.js';

/** Runs the built `kubectl maint` against the lab, as kubectl runs a plugin. Shared by the drain e2e tests. */

const root = path.resolve(import.meta.dirname, '../..');
export const bin = path.join(root, 'bin/kubectl-maint.js');

export type Finished = Extract<DrainEvent, { type: 'finished' }>;

export interface DrainRun {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly events: DrainEvent[];
  readonly finished: Finished | undefined;
}

/**
 * Starts `kubectl maint ARGS…` (not awaited), stdout and stderr piped, no terminal. The process is wrapped
 * in an object: returned bare from an async function, execa's promise would be awaited to the process's end.
 */
export async function startMaint(
  args: readonly string[],
  options: MaintOptions = {},
): Promise<{ child: ResultPromise<{ reject: false }> }> {
  const env = await labEnv();
  const child = execa(process.execPath, [bin, ...args], {
    reject: false,
    env: { ...process.env, KUBECONFIG: options.kubeconfig ?? env.KUBECONFIG, NO_COLOR: '1' },
  });
  return { child };
}

export interface MaintOptions {
  /** Another kubeconfig than the lab admin's (a user with fewer rights). */
  readonly kubeconfig?: string;
}

export async function runMaint(args: readonly string[], options: MaintOptions = {}): Promise<DrainRun> {
  const result = await (await startMaint(args, options)).child;
  return asRun(result.exitCode ?? -1, String(result.stdout), String(result.stderr));
}

/** `kubectl maint plan ARGS…` to the end: a plan's pretty JSON is not event lines, so nothing is parsed. */
export async function planRun(
  args: readonly string[],
  options: MaintOptions = {},
): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const result = await (await startMaint(['plan', ...args], options)).child;
  return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}

/** List rights on the kinds every plan reads: Nodes, Pods, Services, the controllers, Jobs and budgets. */
const PLAN_LIST_RULES = [
  '{apiGroups: [""], resources: [nodes, pods, services, replicationcontrollers], verbs: [list]}',
  '{apiGroups: [apps], resources: [replicasets, deployments, statefulsets, daemonsets], verbs: [list]}',
  '{apiGroups: [batch], resources: [jobs], verbs: [list]}',
  '{apiGroups: [policy], resources: [poddisruptionbudgets], verbs: [list]}',
];

/**
 * `kubectl maint plan k8s-node-1 --ignore-daemonsets -o json` as a lab user (its kubeconfig in `dir`) who
 * may list the kinds every plan reads and what `rules` add: what a plan says of the kinds it may not list.
 */
export async function planNode1AsLimitedUser(user: string, rules: readonly string[], dir: string) {
  const kubeconfig = await labUserWithRules(user, [...PLAN_LIST_RULES, ...rules], dir);
  return planRun(['k8s-node-1', '--ignore-daemonsets', '-o', 'json'], { kubeconfig });
}

/** `kubectl maint drain k8s-node-1 --ignore-daemonsets FLAGS… -o json`, the drain most tests run. */
export function drainNode1(...flags: string[]): Promise<DrainRun> {
  return runMaint(['drain', 'k8s-node-1', '--ignore-daemonsets', ...flags, '-o', 'json']);
}

/**
 * Starts `kubectl maint ARGS…` (-o json) and calls `act` once `ready` holds for the events so far: in the
 * same turn as the output that made it hold, so the command has not gone further than the test meant. A
 * failed `act` stops the command and fails the test.
 */
export async function actWhen(
  args: readonly string[],
  ready: (events: DrainEvent[]) => boolean,
  act: (child: ResultPromise<{ reject: false }>) => void | Promise<void>,
  what: string,
): Promise<DrainRun> {
  const { child } = await startMaint(args);
  let stdout = '';
  let acted: Promise<void> | undefined;
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    // Only whole lines: a chunk may end in the middle of an event.
    if (acted || !ready(asRun(0, stdout.slice(0, stdout.lastIndexOf('\n') + 1), '').events)) return;
    acted = Promise.resolve(act(child)).catch((error: unknown) => {
      child.kill('SIGTERM');
      throw error;
    });
    acted.catch(() => undefined); // awaited below, once the command has ended
  });
  const result = await child;
  expect(acted, `the command ended before ${what}`).toBeDefined();
  await acted;
  return asRun(result.exitCode ?? -1, String(result.stdout), String(result.stderr));
}

/** Starts `kubectl maint ARGS…` (-o json) and sends `signal` as soon as `ready` holds for the events so far. */
export function signalWhen(
  args: readonly string[],
  signal: NodeJS.Signals,
  ready: (events: DrainEvent[]) => boolean,
): Promise<DrainRun> {
  return actWhen(args, ready, (child) => void child.kill(signal), `the point where the test sends it ${signal}`);
}

export function asRun(exitCode: number, stdout: string, stderr: string): DrainRun {
  const events = stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as DrainEvent);
  const finished = events.find((e): e is Finished => e.type === 'finished');
  return { exitCode, stdout, stderr, events, finished };
}

/** The uids of the pods whose latest state is a wait for their budget. */
export function waitingPods(events: readonly DrainEvent[]): Set<string> {
  const last = new Map<string, string>();
  for (const e of events) if (e.type === 'pod') last.set(e.pod.uid, e.state.phase);
  return new Set([...last].filter(([, phase]) => phase === 'waiting-for-budget').map(([uid]) => uid));
}

/** Every state a pod went through, in order. */
export function statesOf(run: DrainRun, name: string) {
  return run.events.flatMap((e) => (e.type === 'pod' && e.pod.name === name ? [e.state] : []));
}

interface PodSummary {
  readonly name: string;
  readonly uid: string;
  readonly node: string;
  readonly ready: boolean;
  readonly deleting: boolean;
}

export async function podsIn(namespace: string): Promise<PodSummary[]> {
  const list = await kubectlJson(['get', 'pods', '-n', namespace]);
  return list.items.map((p) => ({
    name: p.metadata.name,
    uid: p.metadata.uid,
    node: p.spec.nodeName ?? '',
    ready: (p.status.conditions ?? []).some(
      (c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'True',
    ),
    deleting: Boolean(p.metadata.deletionTimestamp),
  }));
}

/**
 * Where a namespace's pods are and what the nodes' taints are, for a failed precondition on a seeded
 * placement: the one line CI prints then says which pod went where.
 */
export async function placementOf(namespace: string): Promise<string> {
  const pods = (await podsIn(namespace)).map(
    (p) => `${p.name}@${p.node || 'unscheduled'}${p.ready ? '' : ' (not ready)'}${p.deleting ? ' (deleting)' : ''}`,
  );
  const nodes = await kubectlJson<{
    items: Array<{ metadata: { name: string }; spec?: { taints?: Array<{ key: string }> } }>;
  }>(['get', 'nodes']);
  const taints = nodes.items.map(
    (n) => `${n.metadata.name}: ${(n.spec?.taints ?? []).map((t) => t.key).join(' ') || 'no taints'}`,
  );
  return `pods ${pods.join(', ')}; nodes ${taints.join(', ')}`;
}

export async function unschedulable(node: string): Promise<boolean> {
  const n = await kubectlJson<{ spec?: { unschedulable?: boolean } }>(['get', 'node', node]);
  return n.spec?.unschedulable === true;
}

/** The pods whose eviction the API server admitted, as the engine reported them. */
export function admitted(run: DrainRun): PodRef[] {
  const seen = new Map<string, PodRef>();
  for (const e of run.events) {
    if (e.type !== 'pod') continue;
    if (e.state.phase === 'terminating' || (e.state.phase === 'gone' && e.state.how === 'evicted'))
      seen.set(e.pod.uid, e.pod);
  }
  return [...seen.values()];
}

/** Sets budget demo/hello's maxUnavailable and waits until the disruption controller has observed it. */
export async function setHelloMaxUnavailable(value: number): Promise<void> {
  const patch = JSON.stringify({ spec: { maxUnavailable: value } });
  await kubectl(['patch', 'pdb', 'hello', '-n', 'demo', '--type=merge', '-p', patch]);
  await eventually(
    async () => {
      const pdb = await kubectlJson<{ metadata: { generation: number }; status?: { observedGeneration?: number } }>([
        'get',
        'pdb',
        'hello',
        '-n',
        'demo',
      ]);
      return pdb.status?.observedGeneration === pdb.metadata.generation;
    },
    20_000,
    'the disruption controller to observe budget hello',
  );
}
