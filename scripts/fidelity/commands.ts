/**
 * The commands the harness runs: the plan it judges, the same whether a live run asks the lab
 * (harness.ts) or a replay reads the cluster a run saved (replay.ts, `--snapshot`).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import type { DrainPlan } from '../../src/plan/types.js';

/** The CLI as `npm run fidelity` runs it: the build (bin/kubectl-maint.js runs dist/bundle). */
export const CLI: readonly string[] = [
  process.execPath,
  path.resolve(import.meta.dirname, '../../bin/kubectl-maint.js'),
];

/**
 * `kubectl maint plan NODE --ignore-daemonsets -o json`, and `more` (`--snapshot FILE`): the plan of the
 * drained node. It reads no clock with these flags (only --skip-wait-for-delete-timeout compares a
 * timestamp with now), so a plan made later from the same snapshot is the plan made then.
 */
export async function planDrain(
  node: string,
  env: Readonly<Record<string, string>>,
  more: readonly string[] = [],
  cli: readonly string[] = CLI,
): Promise<DrainPlan> {
  const planned = await run(cli, ['plan', node, '--ignore-daemonsets', '-o', 'json', ...more], env);
  if (planned.stdout.trim() === '')
    throw new Error(`plan printed nothing (exit ${planned.code}): ${planned.stderr.trim()}`);
  return JSON.parse(planned.stdout) as DrainPlan;
}

/** Runs `command` with `args`; never rejects (the exit code comes back with what was printed). */
export function run(
  command: readonly string[],
  args: readonly string[],
  env: Readonly<Record<string, string>>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      command[0]!,
      [...command.slice(1), ...args],
      { env: { ...process.env, NO_COLOR: '1', ...env }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}
