import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archiveName, parseTarget } from '../../scripts/release/targets.js';
import { labEnv, seedScenario } from './lab.js';

// The linux/arm64 release executable, cross-built here, run under qemu-user (Debian's qemu-user-static)
// with arm64's C and C++ runtimes from Debian's cross packages (libc6-arm64-cross, libstdc++6-arm64-cross,
// libatomic1-arm64-cross; .ci/run installs them): it starts, plans the bundled examples and plans against
// the lab over loopback. windows/amd64 cannot run here: docs/install.md says why.

const REPO = resolve(import.meta.dirname, '../..');
const VERSION = `v${(JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version}`;
const TARGET = parseTarget('linux/arm64');
const QEMU = '/usr/bin/qemu-aarch64-static';
/** Where the cross packages put arm64's loader and libraries: qemu-user's -L. */
const SYSROOT = '/usr/aarch64-linux-gnu';

let work: string;
let binary: string;
let kubeconfig: string;

function arm64(args: readonly string[], env: NodeJS.ProcessEnv = {}): SpawnSyncReturns<string> {
  return spawnSync(QEMU, ['-L', SYSROOT, binary, ...args], {
    cwd: work,
    env: { HOME: join(work, 'home'), PATH: '/usr/bin:/bin', NO_COLOR: '1', ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 180_000,
  });
}

beforeAll(async () => {
  for (const needed of [QEMU, join(SYSROOT, 'lib/libstdc++.so.6'), join(SYSROOT, 'lib/libatomic.so.1')]) {
    if (!existsSync(needed)) {
      throw new Error(
        `${needed} is missing: apt-get install qemu-user-static libc6-arm64-cross libstdc++6-arm64-cross libatomic1-arm64-cross`,
      );
    }
  }
  work = mkdtempSync(join(tmpdir(), 'kubectl-maint-arm64-'));
  mkdirSync(join(work, 'home'));
  await seedScenario('hello');
  kubeconfig = (await labEnv()).KUBECONFIG;
  const out = join(work, 'release');
  const release = spawnSync(
    process.execPath,
    ['scripts/release/release.ts', '--version', VERSION, '--platforms', 'linux/arm64', '--out', out],
    { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  if (release.status !== 0) throw new Error(`release failed (${release.status}):\n${release.stderr}`);
  const unpacked = join(work, 'unpacked');
  mkdirSync(unpacked);
  const tar = spawnSync('tar', ['-xzf', join(out, archiveName(VERSION, TARGET)), '-C', unpacked], { encoding: 'utf8' });
  if (tar.status !== 0) throw new Error(`tar: ${tar.stderr}`);
  binary = join(unpacked, 'kubectl-maint');
}, 600_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe(`the linux/arm64 executable of ${VERSION}, under qemu-user`, () => {
  it('is an arm64 ELF executable', () => {
    const header = readFileSync(binary).subarray(0, 20);
    expect(header.subarray(0, 4).toString('latin1')).toBe('\x7fELF');
    expect(header.readUInt16LE(18)).toBe(183); // EM_AARCH64
  });

  it('version: the release stamp, a single executable on linux/arm64', () => {
    const r = arm64(['version', '-o', 'json']);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      version: VERSION,
      build: 'release',
      singleExecutable: true,
      platform: 'linux/arm64',
    });
  });

  it('demo: plans the bundled example clusters, as on amd64', () => {
    const r = arm64(['demo', '--no-tui']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('BLOCKED: draining k8s-node-1 cannot finish');
  });

  it('plans k8s-node-1 of the lab over loopback, the same plan as the host build', () => {
    const r = arm64(['plan', 'k8s-node-1', '--ignore-daemonsets', '-o', 'json'], { KUBECONFIG: kubeconfig });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const plan = JSON.parse(r.stdout) as { verdict: string; nodes: string[]; pods: Array<{ name: string }> };
    expect(plan.nodes).toEqual(['k8s-node-1']);
    expect(plan.verdict).toMatch(/^(clear|slow)$/);
    expect(plan.pods.some((p) => p.name.startsWith('hello-'))).toBe(true);
  });
});
