import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archiveName, parseTarget } from '../../scripts/release/targets.js';
import { goPlatform } from '../../src/version.js';
import { eventually, kubectlJson, labEnv, seedScenario, type KubeObject } from './lab.js';

// The path a user takes: krew installs the release archive (here offline, from the rendered manifest
// and a local archive), kubectl finds the plugin on PATH, and the single executable runs without a
// Node.js of its own. The executable is built for this machine's platform only; `npm run release`
// builds them all.

const REPO = resolve(import.meta.dirname, '../..');
const VERSION = `v${(JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version}`;
const TARGET = parseTarget(goPlatform(process.platform, process.arch));

let work: string;
let krewRoot: string;
let krewBin: string;
let manifest: string;
let env: NodeJS.ProcessEnv;
let kubectl: string;
let labKubeconfig: string;
let install: SpawnSyncReturns<string>;

function run(command: string, args: readonly string[], runEnv: NodeJS.ProcessEnv = env): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd: REPO, env: runEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Runs a setup step that must succeed and returns its stdout. */
function setup(command: string, args: readonly string[], runEnv: NodeJS.ProcessEnv = process.env): string {
  const result = run(command, args, runEnv);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status}):\n${result.stderr}`);
  return result.stdout;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kubectl-maint-krew-'));
  // This worker's lab may be fresh: give it the scenario the live plan below reads.
  await seedScenario('hello');
  // The lab's own kubectl, never the machine's (/usr/bin/kubectl may be another version or absent).
  const lab = await labEnv();
  kubectl = join(lab.labBin, 'kubectl');
  labKubeconfig = lab.KUBECONFIG;
  krewBin =
    setup('bash', [join(REPO, 'scripts/lab/build-krew.sh')])
      .trim()
      .split('\n')
      .pop() ?? '';

  const out = join(work, 'release');
  setup(process.execPath, [
    'scripts/release/release.ts',
    '--version',
    VERSION,
    '--platforms',
    TARGET.os + '/' + TARGET.arch,
    '--out',
    out,
  ]);
  // krew's validator takes the plugin name from the file name.
  manifest = join(work, 'maint.yaml');
  copyFileSync(join(out, 'plugin.yaml'), manifest);

  // A PATH holding only what the test means kubectl to find: krew's bin dir, kubectl, and krew itself
  // as the kubectl-krew plugin. HOME is empty, so no ~/.krew or ~/.kube leaks in.
  krewRoot = join(work, 'krew');
  const tools = join(work, 'tools');
  mkdirSync(tools);
  symlinkSync(kubectl, join(tools, 'kubectl'));
  symlinkSync(join(krewBin, 'krew'), join(tools, 'kubectl-krew'));
  env = { HOME: join(work, 'home'), KREW_ROOT: krewRoot, KREW_NO_UPGRADE_CHECK: '1', PATH: `${krewRoot}/bin:${tools}` };
  install = run('kubectl', [
    'krew',
    'install',
    `--manifest=${manifest}`,
    `--archive=${join(out, archiveName(VERSION, TARGET))}`,
  ]);
}, 600_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe(`installing kubectl maint ${VERSION} (${TARGET.os}/${TARGET.arch}) with krew, offline`, () => {
  it('uses the lab kubectl, not the one on the machine', () => {
    expect(kubectl).not.toBe('/usr/bin/kubectl');
    expect(existsSync(kubectl)).toBe(true);
  });

  it('the rendered manifest passes krew’s own validator (structure, selectors, no overlap)', () => {
    const result = run(join(krewBin, 'validate-krew-manifest'), ['-manifest', manifest, '-skip-install']);
    expect(result.stderr).toContain('structural validation OK');
    expect(result.status).toBe(0);
  });

  it('krew installs the archive and links kubectl-maint into KREW_ROOT/bin', () => {
    expect(install.stderr + install.stdout).toContain('Installed plugin: maint');
    expect(install.status).toBe(0);
    expect(existsSync(join(krewRoot, 'bin', 'kubectl-maint'))).toBe(true);
  });

  it('kubectl completes `kubectl maint` through kubectl_complete-maint from the archive, copied as the caveats say', () => {
    const store = join(krewRoot, 'store', 'maint', VERSION);
    copyFileSync(join(store, 'kubectl_complete-maint'), join(krewRoot, 'bin', 'kubectl_complete-maint'));
    chmodSync(join(krewRoot, 'bin', 'kubectl_complete-maint'), 0o755);
    const result = run('kubectl', ['__complete', 'maint', 'drain', 'k8s-'], { ...env, KUBECONFIG: labKubeconfig });
    expect(result.stdout.split('\n')).toEqual(expect.arrayContaining(['k8s-node-1', 'k8s-node-2', ':4']));
    expect(run('kubectl', ['__complete', 'maint', 'pl']).stdout).toMatch(/^plan\t/);
  });

  it('krew extracts a LICENSE from the archive, which krew-index requires of every plugin, and the ClusterRoles', () => {
    const installed = join(krewRoot, 'store', 'maint', VERSION);
    expect(readdirSync(installed).sort()).toEqual(
      [
        'LICENSE',
        'THIRD_PARTY_LICENSES',
        'kubectl-maint',
        'kubectl_complete-maint',
        'rbac-drain.yaml',
        'rbac-plan.yaml',
        'rbac-run.yaml',
      ].sort(),
    );
    // The ClusterRoles shipped are those `kubectl maint rbac` prints and deploy/rbac/ holds.
    for (const command of ['plan', 'drain', 'run']) {
      expect(readFileSync(join(installed, `rbac-${command}.yaml`), 'utf8')).toBe(
        readFileSync(join(REPO, 'deploy/rbac', `${command}.yaml`), 'utf8'),
      );
    }
    expect(readFileSync(join(installed, 'LICENSE'), 'utf8')).toContain('Apache License');
  });

  it('kubectl plugin list finds kubectl-maint through PATH', () => {
    const result = run('kubectl', ['plugin', 'list']);
    expect(result.stdout).toContain(join(krewRoot, 'bin', 'kubectl-maint'));
    expect(result.status).toBe(0);
  });

  it('kubectl maint version reports the release stamp from the single executable', () => {
    const result = run('kubectl', ['maint', 'version', '-o', 'json']);
    expect(result.status, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as { commit: string };
    expect(report).toMatchObject({
      kind: 'Version',
      version: VERSION,
      build: 'release',
      commit: expect.stringMatching(/^[0-9a-f]{40}(-dirty)?$/),
      buildDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      node: process.version,
      platform: `${TARGET.os}/${TARGET.arch}`,
      singleExecutable: true,
    });
    // The stamped commit is this repository's HEAD at build time (others may have committed since).
    const commit = report.commit.replace(/-dirty$/, '');
    expect(run('git', ['merge-base', '--is-ancestor', commit, 'HEAD'], process.env).status).toBe(0);
  });

  it('kubectl maint plan prints a DrainPlan for the bundled example snapshot, without a cluster', () => {
    const snapshot = join(REPO, 'examples/hello.json');
    const args = ['maint', 'plan', 'k8s-node-1', '--ignore-daemonsets', '--snapshot', snapshot, '-o', 'json'];
    const result = run('kubectl', args);
    // Exit 0: the example's drain of k8s-node-1 is clear or slow, never blocked (3) or an error (1).
    expect(result.status, result.stderr).toBe(0);
    const plan = JSON.parse(result.stdout) as { kind: string; apiVersion: string };
    expect(plan).toMatchObject({ kind: 'DrainPlan', apiVersion: 'maint.kubectl.io/v1alpha1' });
  });

  it('kubectl maint plan reaches the lab through its kubeconfig (client certificate, private CA)', async () => {
    // The plan below is of hello as seeded: k8s-node-1 Ready with two Ready hello pods. The seed waited for
    // it, but the krew build since has loaded the machine, and a node whose heartbeats lag is NotReady for
    // a while (its pods too, which the budget then lets go at once): wait until the lab holds it again.
    await eventually(helloSettledOnNode1, 120_000, 'k8s-node-1 and its two hello pods Ready');
    const args = ['maint', 'plan', 'k8s-node-1', '--ignore-daemonsets', '-o', 'json'];
    const result = run('kubectl', args, { ...env, KUBECONFIG: labKubeconfig });
    // hello: the budget lets one pod go at a time, so the drain is slow (exit 0), never an error (1).
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ kind: 'DrainPlan', nodes: ['k8s-node-1'], verdict: 'slow' });
  });
});

const isReady = (o: KubeObject) => o.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;

/** Whether k8s-node-1 is Ready and holds hello's two pods, both Ready. */
async function helloSettledOnNode1(): Promise<boolean> {
  const node = await kubectlJson<KubeObject>(['get', 'node', 'k8s-node-1']);
  const pods = await kubectlJson(['get', 'pods', '-n', 'demo', '-l', 'app=hello']);
  const onNode = pods.items.filter((p) => p.spec.nodeName === 'k8s-node-1' && !p.metadata.deletionTimestamp);
  return isReady(node) && onNode.length === 2 && onNode.every(isReady);
}
