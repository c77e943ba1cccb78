import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { expect } from 'vitest';
import type { DrainEvent } from '../../../src/drain/events.js';
import { auditMark, maintWritesSince } from '../audit.js';
import {
  asRun,
  podsIn,
  setHelloMaxUnavailable,
  startMaint,
  unschedulable,
  waitingPods,
  type DrainRun,
  type MaintOptions,
} from '../drain-run.js';
import { eventually, kubectl, labProcessEnv, labScript, seedScenario } from '../lab.js';

/** What the fault tests share: a drain whose output they wait on, lab components to stop, RBAC users. */

/** A drain running in the background, whose output the test waits on before injecting a fault. */
export interface WatchedDrain {
  readonly pid: number;
  /** The events printed so far (-o json), whole lines only. */
  events(): DrainEvent[];
  /**
   * Resolves once `ready` holds for the output so far; rejects if the drain exits first, or when nothing
   * happened for `guardMs` (a guard against a hung test, not a timing assumption).
   */
  until(ready: (output: DrainOutput) => boolean, what: string, guardMs?: number): Promise<DrainOutput>;
  /** Sends a signal to the drain process. */
  kill(signal: NodeJS.Signals): void;
  /** Waits for the process to end. */
  finish(): Promise<DrainRun & { readonly signal: string | undefined }>;
}

export interface DrainOutput {
  readonly events: DrainEvent[];
  readonly stdout: string;
  readonly stderr: string;
}

export async function watchDrain(args: readonly string[], options: MaintOptions = {}): Promise<WatchedDrain> {
  const { child } = await startMaint(args, options);
  let stdout = '';
  let stderr = '';
  let exited = false;
  let exitCode: number | undefined;
  const checks = new Set<() => void>();
  const output = (): DrainOutput => ({
    events: asRun(0, stdout.slice(0, stdout.lastIndexOf('\n') + 1), '').events,
    stdout,
    stderr,
  });
  const recheck = () => {
    for (const check of [...checks]) check();
  };
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    recheck();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    recheck();
  });
  const ended = child.then((result) => {
    exited = true;
    exitCode = result.exitCode;
    recheck();
    return result;
  });
  return {
    pid: child.pid ?? -1,
    events: () => output().events,
    until(ready, what, guardMs = 180_000) {
      return new Promise<DrainOutput>((resolve, reject) => {
        const guard = setTimeout(() => {
          checks.delete(check);
          reject(new Error(`no ${what} after ${guardMs} ms; stderr so far:\n${stderr}`));
        }, guardMs);
        const check = () => {
          const now = output();
          if (ready(now)) {
            checks.delete(check);
            clearTimeout(guard);
            resolve(now);
          } else if (exited) {
            checks.delete(check);
            clearTimeout(guard);
            // The exit code and the last events say why it ended: what a failure on a loaded machine needs.
            const last = stdout.trimEnd().split('\n').slice(-4).join('\n');
            reject(
              new Error(`the drain exited (${exitCode}) before ${what}; its last events:\n${last}\nstderr:\n${stderr}`),
            );
          }
        };
        checks.add(check);
        check();
      });
    },
    kill: (signal) => child.kill(signal),
    async finish() {
      const result = await ended;
      return {
        ...asRun(result.exitCode ?? -1, String(result.stdout), String(result.stderr)),
        signal: result.signal ?? undefined,
      };
    },
  };
}

export const DRAIN_NODE1_JSON = ['drain', 'k8s-node-1', '--ignore-daemonsets', '-o', 'json'] as const;

/** The hello pods on k8s-node-1. */
export async function helloOnNode1(): Promise<Array<{ name: string; uid: string; deleting: boolean }>> {
  return (await podsIn('demo')).filter((p) => p.node === 'k8s-node-1');
}

/** What the audit log must show after a drain of these pods: one admitted eviction each. */
export const oncePerPod = (pods: ReadonlyArray<{ name: string }>) =>
  Object.fromEntries(pods.map((p) => [`demo/${p.name}`, 1]));

export async function noHelloLeftOnNode1(): Promise<void> {
  await eventually(async () => (await helloOnNode1()).length === 0, 60_000, 'the hello pods to leave k8s-node-1');
}

/**
 * Seeds hello with its budget closed (maxUnavailable 0), marks the audit log and starts a drain of
 * k8s-node-1 (`args`, -o json unless told), returning once both hello pods there wait for the budget:
 * the moment the fault tests inject their fault.
 */
export async function drainWaitingOnClosedBudget(args: readonly string[] = DRAIN_NODE1_JSON) {
  await seedScenario('hello');
  await setHelloMaxUnavailable(0);
  const pods = await helloOnNode1();
  const mark = await auditMark();
  const drain = await watchDrain(args);
  await drain.until(({ events }) => waitingPods(events).size === 2, 'both hello pods waiting for their budget');
  return { drain, pods, mark };
}

/** What a drain that finished despite a fault must show: done, every pod evicted once, none deleted. */
export async function expectDrainedOnce(
  run: DrainRun,
  pods: ReadonlyArray<{ name: string }>,
  mark: number,
): Promise<void> {
  expect(run.exitCode, run.stderr).toBe(0);
  expect(run.finished).toMatchObject({ result: 'drained', remaining: [], failed: [] });
  expect(run.stderr).not.toMatch(/^error:/m);
  expect(await unschedulable('k8s-node-1')).toBe(true);
  await noHelloLeftOnNode1();
  const writes = await maintWritesSince(mark);
  expect(writes.evicted).toEqual(oncePerPod(pods));
  expect(writes.deletes).toEqual([]);
}

/** Stops or starts one component of this worker's lab (`npm run lab -- stop-component NAME`). */
export async function labComponent(action: 'stop' | 'start', name: string): Promise<void> {
  await execa('bash', [labScript, `${action}-component`, name], { env: labProcessEnv() });
}

/**
 * Starts the stopped kube-apiserver again, then restarts kube-controller-manager and kube-scheduler: their
 * watches broke with the API server and come back only after their reflectors' back-off, which on a loaded
 * machine outlasts a seed's wait for the disruption controller, and leaves the scheduler binding pods to a
 * node cordoned since (the next test's drain then fails: something binds pods to it despite the cordon).
 * Fresh ones list at once, so the control plane is whole.
 */
export async function restartedApiServer(): Promise<void> {
  await labComponent('start', 'kube-apiserver');
  for (const component of ['kube-controller-manager', 'kube-scheduler']) {
    await labComponent('stop', component);
    await labComponent('start', component);
  }
}

/** The lines of stderr that are errors (kubectl's "error: …" lines). */
export function errorLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.startsWith('error:'));
}

/** Asserts stderr holds exactly one line besides warnings, an error, and returns it. */
export function theOneErrorLine(stderr: string): string {
  const lines = stderr.split('\n').filter((line) => line !== '' && !/^warning: /i.test(line));
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: /);
  return lines[0]!;
}

/**
 * Users with fewer rights than the lab's admin, as ServiceAccounts with a token: `reader` may read
 * everything the plugin reads; `cordoner` may also patch nodes, but not evict; `node-reader` may read only
 * nodes and pods; `drainer` may drain and run (a second operator, told apart in the audit log by name).
 */
export type LabUser = 'reader' | 'cordoner' | 'node-reader' | 'drainer';

const READ_RULES = `
  - apiGroups: ['']
    resources: [nodes, pods, services, replicationcontrollers]
    verbs: [get, list, watch]
  - apiGroups: [apps]
    resources: [replicasets, deployments, statefulsets, daemonsets]
    verbs: [get, list, watch]
  - apiGroups: [batch]
    resources: [jobs]
    verbs: [get, list, watch]
  - apiGroups: [policy]
    resources: [poddisruptionbudgets]
    verbs: [get, list, watch]`;

const DRAIN_RULES = `
  - apiGroups: ['']
    resources: [nodes, nodes/status]
    verbs: [patch]
  - apiGroups: ['']
    resources: [pods/eviction]
    verbs: [create]
  - apiGroups: [coordination.k8s.io]
    resources: [leases]
    verbs: [get, list, watch, create, update, delete]`;

const NODE_READ_RULES = `
  - apiGroups: ['']
    resources: [nodes, pods]
    verbs: [get, list, watch]`;

function rbacFor(user: LabUser): string {
  const name = `maint-${user}`;
  const extra = user === 'cordoner' ? `\n  - apiGroups: ['']\n    resources: [nodes]\n    verbs: [patch]` : '';
  const drainer = user === 'drainer' ? DRAIN_RULES : '';
  const rules = user === 'node-reader' ? NODE_READ_RULES : `${READ_RULES}${extra}${drainer}`;
  return `
apiVersion: v1
kind: ServiceAccount
metadata: {name: ${name}, namespace: default}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: ${name}}
rules:${rules}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: ${name}}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: ${name}}
subjects: [{kind: ServiceAccount, name: ${name}, namespace: default}]
`;
}

/** The user's name as the API server knows it. */
export const userName = (user: LabUser) => `system:serviceaccount:default:maint-${user}`;

/** Creates the user (idempotent) and writes a kubeconfig for it; returns the kubeconfig's path. */
export async function kubeconfigFor(user: LabUser): Promise<string> {
  await kubectl(['apply', '-f', '-'], { input: rbacFor(user) });
  return serviceAccountKubeconfig(`maint-${user}`, 'default');
}

/**
 * A kubeconfig (under TMPDIR) that authenticates as a ServiceAccount with a token the API server issues
 * for it (TokenRequest, `kubectl create token`); returns its path.
 */
export async function serviceAccountKubeconfig(name: string, namespace: string): Promise<string> {
  const token = String((await kubectl(['create', 'token', name, '-n', namespace])).stdout).trim();
  const view = (jsonpath: string) =>
    kubectl(['config', 'view', '--raw', '--minify', '-o', `jsonpath=${jsonpath}`]).then((r) => String(r.stdout));
  const server = await view('{.clusters[0].cluster.server}');
  const ca = await view('{.clusters[0].cluster.certificate-authority-data}');
  const file = path.join(process.env.TMPDIR ?? os.tmpdir(), `kubeconfig-${namespace}-${name}-${process.pid}`);
  await writeFile(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      `clusters: [{name: lab, cluster: {server: '${server}', certificate-authority-data: '${ca}'}}]`,
      `users: [{name: ${name}, user: {token: '${token}'}}]`,
      `contexts: [{name: ${name}, context: {cluster: lab, user: ${name}}}]`,
      `current-context: ${name}`,
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  return file;
}
