import { execa, type Options } from 'execa';
import { fileURLToPath } from 'node:url';
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

/** The fields of API objects that e2e tests read from `kubectl get -o json`. */
export interface KubeObject {
  metadata: {
    name: string;
    namespace?: string;
    uid: string;
    generation?: number;
    labels?: Record<string, string>;
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

/** Resets the lab and applies a scenario of scripts/lab/scenarios, waiting until it settles. */
export async function seedScenario(name: string): Promise<void> {
  await execa('bash', [labScript, 'seed', name], { stdio: ['ignore', 'pipe', 'pipe'], env: labProcessEnv() });
}

/** Polls until `check` returns a truthy value, or throws after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}
