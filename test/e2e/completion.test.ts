import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labEnv, seedScenario } from './lab.js';

// Completion as an operator gets it: kubectl's own `__complete` (what `source <(kubectl completion bash)`
// calls on <TAB>) finds the plugin and kubectl_complete-maint on PATH, and the plugin reads the lab's
// nodes. From source here (bin/, an npm install's layout); krew-install.test.ts does it for the release.
const REPO = resolve(import.meta.dirname, '../..');
let tools: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  await seedScenario('hello');
  const lab = await labEnv();
  tools = mkdtempSync(join(tmpdir(), 'maint-completion-'));
  symlinkSync(join(lab.labBin, 'kubectl'), join(tools, 'kubectl'));
  // kubectl-maint as npm links it (a wrapper here, so that the pinned Node.js runs it), and the
  // completion executable beside it.
  writeFileSync(
    join(tools, 'kubectl-maint'),
    `#!/bin/sh\nexec "${process.execPath}" "${join(REPO, 'bin/kubectl-maint.js')}" "$@"\n`,
  );
  chmodSync(join(tools, 'kubectl-maint'), 0o755);
  copyFileSync(join(REPO, 'bin/kubectl_complete-maint'), join(tools, 'kubectl_complete-maint'));
  env = { HOME: tools, KUBECONFIG: lab.KUBECONFIG, PATH: `${tools}:/usr/bin:/bin` };
}, 300_000);

afterAll(() => {
  if (tools) rmSync(tools, { recursive: true, force: true });
});

function kubectlComplete(...args: string[]): string[] {
  const result = spawnSync('kubectl', ['__complete', ...args], { env, encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout.trim().split('\n');
}

describe("kubectl's completion of `kubectl maint`, through kubectl_complete-maint", () => {
  it('lists the lab nodes for `kubectl maint drain k8s-`', () => {
    const lines = kubectlComplete('maint', 'drain', 'k8s-');
    expect(lines.at(-1)).toBe(':4');
    expect(lines.slice(0, -1).sort()).toEqual(['k8s-master-1', 'k8s-node-1', 'k8s-node-2']);
  });

  it('leaves out the nodes already given, and the cordon command lists them too', () => {
    const lines = kubectlComplete('maint', 'cordon', 'k8s-node-1', 'k8s-');
    expect(lines.slice(0, -1).sort()).toEqual(['k8s-master-1', 'k8s-node-2']);
  });

  it('completes subcommands, flags and -o values', () => {
    expect(kubectlComplete('maint', 'dr')[0]).toMatch(/^drain\t/);
    expect(kubectlComplete('maint', 'drain', '--ignore-d')[0]).toMatch(/^--ignore-daemonsets\t/);
    expect(kubectlComplete('maint', 'plan', '-o', '')).toEqual(['text', 'json', 'yaml', ':4']);
  });

  it('a cluster that cannot be reached gives no node, no error, at once', () => {
    const result = spawnSync('kubectl', ['__complete', 'maint', 'drain', 'k8s-'], {
      env: { ...env, KUBECONFIG: join(tools, 'no-such-kubeconfig') },
      encoding: 'utf8',
    });
    expect(result.stdout.trim()).toBe(':4');
  });
});
