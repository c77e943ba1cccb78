import { execa, type Options } from 'execa';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LabApi, seedScenario as seedLab } from '../../scripts/lab/seed.js';
import { signLeaf } from '../support/pki.js';
import os from 'node:os';
import path from 'node:path';

/** Helpers for e2e tests: the lab's kubectl and kubeconfig, and scenario seeding. */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const labScript = path.join(repoRoot, 'scripts/lab/lab.sh');

/**
 * The e2e project runs its files in parallel, E2E_LABS at a time, each worker on a lab of its own:
 * the scenarios reuse node names and reset the whole cluster, so two files can never share a lab.
 * Most of an e2e test's time is real waiting (budgets, grace periods, tolerationSeconds), which is
 * why two labs on two cores nearly halve the run.
 */
export const E2E_LABS = Math.max(1, Number(process.env.E2E_LABS ?? 2));

/** The directory of the lab that serves vitest worker `slot` (VITEST_POOL_ID, 1…E2E_LABS). */
export function labDirFor(slot: number): string {
  return path.join(process.env.TMPDIR ?? os.tmpdir(), `kubectl-maint-lab-e2e-${slot}`);
}

/** The environment for lab.sh in this worker: its own LAB_DIR. */
export function labProcessEnv(slot = Number(process.env.VITEST_POOL_ID ?? 1)): NodeJS.ProcessEnv {
  return { ...process.env, LAB_DIR: labDirFor(slot) };
}

interface LabEnv {
  readonly KUBECONFIG: string;
  readonly PATH: string;
  readonly labBin: string;
}

let cached: LabEnv | undefined;

/** KUBECONFIG and PATH (the lab's bin first) as `npm run lab -- env` prints them. */
export async function labEnv(): Promise<LabEnv> {
  if (cached) return cached;
  const { stdout } = await execa('bash', [labScript, 'env'], { env: labProcessEnv() });
  const kubeconfig = /export KUBECONFIG=(\S+)/.exec(stdout)?.[1];
  const labBin = /export PATH=(\S+):/.exec(stdout)?.[1];
  if (!kubeconfig || !labBin) throw new Error(`unexpected output of lab env: ${stdout}`);
  cached = { KUBECONFIG: kubeconfig, labBin, PATH: `${labBin}:${process.env.PATH ?? ''}` };
  return cached;
}

/** Runs the lab's kubectl against the lab. Rejects on a non-zero exit unless `reject: false`. */
export async function kubectl(args: readonly string[], options: Options = {}) {
  const env = await labEnv();
  return execa(path.join(env.labBin, 'kubectl'), [...args], {
    ...options,
    env: { ...process.env, KUBECONFIG: env.KUBECONFIG, PATH: env.PATH, ...(options.env ?? {}) },
  });
}

let api: LabApi | undefined;

/**
 * This worker's lab API server as a client (seed.ts's: the admin kubeconfig, one kept-alive connection),
 * for what a test reads or writes in a loop: a request takes milliseconds, where each `kubectl` is a process
 * that takes a second or two of a loaded 2-core machine.
 */
export async function labApi(): Promise<LabApi> {
  api ??= new LabApi((await labEnv()).KUBECONFIG);
  return api;
}

/** GETs `url` (an API path) from the lab: the object as `kubectl get -o json` prints it. */
export async function labGet<T>(url: string): Promise<T> {
  return (await (await labApi()).must('GET', url)) as T;
}

/** The fields of API objects that e2e tests read from `kubectl get -o json`. */
export interface KubeObject {
  metadata: {
    name: string;
    namespace?: string;
    uid: string;
    generation?: number;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    deletionTimestamp?: string;
  };
  spec: { nodeName?: string; unschedulable?: boolean; [field: string]: unknown };
  status: {
    phase?: string;
    conditions?: Array<{ type: string; status: string; reason?: string; message?: string }>;
    [field: string]: unknown;
  };
}

/** Parsed `kubectl get -o json`. */
export async function kubectlJson<T = { items: KubeObject[] }>(args: readonly string[]): Promise<T> {
  const { stdout } = await kubectl([...args, '-o', 'json']);
  return JSON.parse(String(stdout)) as T;
}

/**
 * Resets the lab and applies a scenario of scripts/lab/scenarios, waiting until it settles: what
 * `npm run lab -- seed NAME` does, in this process (no kubectl started but the first kustomize render).
 */
export async function seedScenario(name: string): Promise<void> {
  const env = await labEnv();
  await seedLab(name, { kubeconfig: env.KUBECONFIG, kubectl: path.join(env.labBin, 'kubectl') });
}

/** The least a wait on state is given before it fails: what a loaded 2-core CI machine may need. */
const LEAST_GUARD_MS = 60_000;
const POLL_MIN_MS = 100;
const POLL_MAX_MS = 500;

/**
 * Polls until `check` returns a truthy value, or throws after `timeoutMs`. The deadline guards against a
 * hung test; it is no speed check, so it is never shorter than LEAST_GUARD_MS. Between two checks it waits
 * as long as the last check took, from POLL_MIN_MS to POLL_MAX_MS: a check of the test's own state (events
 * already read, a terminal's screen) runs every 100 ms, while one that starts kubectl is never run back to
 * back, which leaves the loaded machine's CPU to the lab.
 */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs: number,
  what: string,
): Promise<T> {
  timeoutMs = Math.max(timeoutMs, LEAST_GUARD_MS);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const checked = Date.now();
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    const pause = Math.min(POLL_MAX_MS, Math.max(POLL_MIN_MS, Date.now() - checked));
    await new Promise((r) => setTimeout(r, pause));
  }
}

/** The lab's API server address and PKI files (its CA signs client certificates: CN = user name). */
export async function labConnection(): Promise<{ server: string; pki: string; caFile: string }> {
  const kubeconfig = (await labEnv()).KUBECONFIG;
  const server = /server: (\S+)/.exec(readFileSync(kubeconfig, 'utf8'))?.[1];
  if (!server) throw new Error(`no server in the lab kubeconfig ${kubeconfig}`);
  const pki = path.join(path.dirname(kubeconfig), 'pki');
  return { server, pki, caFile: path.join(pki, 'ca.crt') };
}

/** A client certificate and key for `user`, signed by the lab's CA, written to `dir`. */
export async function labUserCertificate(user: string, dir: string): Promise<{ cert: string; key: string }> {
  const { pki, caFile } = await labConnection();
  return signLeaf({ caFile, caKey: path.join(pki, 'ca.key') }, dir, user, { cn: user, clientAuth: true });
}

/** A kubeconfig (in `dir`) for a user whose client certificate the lab's CA signs: CN is the user name. */
export async function labUserKubeconfig(user: string, dir: string): Promise<string> {
  const { server, caFile } = await labConnection();
  const { cert, key } = await labUserCertificate(user, dir);
  const b64 = (file: string) => readFileSync(file).toString('base64');
  const file = path.join(dir, `${user}.kubeconfig`);
  writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- name: lab',
      '  cluster:',
      `    server: ${server}`,
      `    certificate-authority-data: ${b64(caFile)}`,
      'users:',
      `- name: ${user}`,
      '  user:',
      `    client-certificate-data: ${b64(cert)}`,
      `    client-key-data: ${b64(key)}`,
      'contexts:',
      `- name: ${user}`,
      `  context: {cluster: lab, user: ${user}}`,
      `current-context: ${user}`,
      '',
    ].join('\n'),
  );
  return file;
}

/**
 * Gives the certificate user `user` exactly `rules` (each a YAML flow mapping: `{apiGroups: [""],
 * resources: [nodes], verbs: [list]}`) through a ClusterRole and ClusterRoleBinding of its name, and
 * returns a kubeconfig for it (in `dir`).
 */
export async function labUserWithRules(user: string, rules: readonly string[], dir: string): Promise<string> {
  const rbac = [
    'apiVersion: rbac.authorization.k8s.io/v1',
    'kind: ClusterRole',
    `metadata: {name: ${user}}`,
    'rules:',
    ...rules.map((rule) => `- ${rule}`),
    '---',
    'apiVersion: rbac.authorization.k8s.io/v1',
    'kind: ClusterRoleBinding',
    `metadata: {name: ${user}}`,
    `roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: ${user}}`,
    `subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: ${user}}]`,
    '',
  ].join('\n');
  await kubectl(['apply', '-f', '-'], { input: rbac });
  return labUserKubeconfig(user, dir);
}
