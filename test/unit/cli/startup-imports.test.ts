import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePki } from '../../support/pki.js';
import { scratchDir } from './cli-from-source.js';

// Start-up: a command loads only what it needs. The sources are compiled file by file
// (as `npm run build` lays out dist/, here by esbuild, in a second) into a scratch package, run with a
// module hook that records every file Node loads, and the heavy packages must be absent from the list.
const root = path.resolve(import.meta.dirname, '../../..');
let pkg: string;

beforeAll(async () => {
  pkg = scratchDir();
  const sources = (readdirSync(path.join(root, 'src'), { recursive: true }) as string[])
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => path.join(root, 'src', f));
  await build({
    entryPoints: sources,
    outdir: path.join(pkg, 'dist'),
    outbase: path.join(root, 'src'),
    format: 'esm',
    platform: 'node',
    target: 'node26',
    jsx: 'automatic',
    logLevel: 'warning',
  });
  mkdirSync(path.join(pkg, 'bin'));
  for (const file of ['kubectl-maint.js', 'pinned-node.js']) {
    copyFileSync(path.join(root, 'bin', file), path.join(pkg, 'bin', file));
  }
  copyFileSync(path.join(root, 'package.json'), path.join(pkg, 'package.json'));
  symlinkSync(path.join(root, 'node_modules'), path.join(pkg, 'node_modules'));
  symlinkSync(path.join(root, 'examples'), path.join(pkg, 'examples'));
  writeFileSync(
    path.join(pkg, 'pretend-node-20.mjs'),
    "Object.defineProperty(process.versions, 'node', { value: '20.19.0' });\n",
  );
  writeFileSync(
    path.join(pkg, 'record-loads.mjs'),
    [
      "import { registerHooks } from 'node:module';",
      "import { writeFileSync } from 'node:fs';",
      'const loaded = [];',
      'registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });',
      "process.on('exit', () => writeFileSync(process.env.LOADED_LIST, loaded.join('\\n')));",
    ].join('\n'),
  );
}, 120_000);

/** The packages under node_modules that `kubectl-maint ARGS` loads, by name (the command exits `status`). */
function packagesLoadedBy(args: string[], status = 0): string[] {
  return packagesIn(loadedBy(args, status));
}

/** The packages under node_modules among these file URLs, by name. */
function packagesIn(urls: readonly string[]): string[] {
  const names = urls
    .map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1])
    .filter((name): name is string => name !== undefined);
  return [...new Set(names)].sort();
}

/** The project's modules among these file URLs, by their path under dist/ (`plan/defaults.js`). */
function projectModulesIn(urls: readonly string[]): string[] {
  const dist = `${pathToFileURL(path.join(pkg, 'dist')).href}/`;
  const modules = urls.filter((url) => url.startsWith(dist)).map((url) => url.slice(dist.length));
  return [...new Set(modules)].sort();
}

/** The project's layers (dist/plan, dist/drain, …) whose modules `kubectl-maint ARGS` loads. */
function layersLoadedBy(args: string[], status = 0): string[] {
  const layers = loadedBy(args, status)
    .map((url) => /\/dist\/([a-z-]+)\//.exec(url)?.[1])
    .filter((name): name is string => name !== undefined);
  return [...new Set(layers)].sort();
}

/** Every file URL that `kubectl-maint ARGS` loads (the command exits `status`). */
function loadedBy(args: string[], status: number): string[] {
  const list = path.join(pkg, `loaded-${args.join('-').replace(/[^a-z0-9-]/gi, '_')}.txt`);
  const result = spawnSync(
    process.execPath,
    ['--import', path.join(pkg, 'record-loads.mjs'), path.join(pkg, 'bin/kubectl-maint.js'), ...args],
    { cwd: pkg, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: pkg, KUBECONFIG: '', LOADED_LIST: list } },
  );
  expect(result.status, result.stderr).toBe(status);
  return readFileSync(list, 'utf8').split('\n');
}

const HEAVY = ['@kubernetes/client-node', 'ink', 'react', 'ora', 'execa'];

describe('what each command loads at start-up', () => {
  // Help, version and completion build the command tree: each command's flags and their defaults, never
  // what its action runs. The planner (and with it the CEL engine of DRA selectors), the drain engine, the
  // run driver and the views are loaded by the action alone.
  const WIRING_ONLY = [
    ['--help'],
    ...['plan', 'audit', 'drain', 'run', 'runs', 'cordon', 'uncordon', 'rbac', 'demo', 'version', 'completion'].map(
      (command) => [command, '--help'],
    ),
    ['version'],
    ['completion', 'bash'],
    ['__complete', 'plan', '--'],
  ];
  it.each(WIRING_ONLY.map((args) => [args.join(' '), args]))(
    '%s loads commander only, and of the layers below cli/ only flag defaults',
    (_, args) => {
      const loaded = loadedBy(args, 0);
      expect(packagesIn(loaded)).toEqual(['commander']);
      const belowCli = projectModulesIn(loaded).filter((module) => !module.startsWith('cli/'));
      const heavy = belowCli.filter((module) => /^(plan|drain|run|ui)\//.test(module) && module !== 'plan/defaults.js');
      expect(heavy).toEqual([]);
    },
  );

  it.each([
    ['a plan', ['plan', 'k8s-node-1']],
    ['an audit', ['audit']],
  ])('%s from a snapshot file, off a terminal, loads no Kubernetes client and no Ink/React', (_, command) => {
    const loaded = packagesLoadedBy([
      ...command,
      '--snapshot',
      'examples/hello.json',
      '--ignore-daemonsets',
      '-o',
      'json',
    ]);
    expect(loaded.filter((name) => HEAVY.includes(name))).toEqual([]);
  });
});

describe('cordon and uncordon, through to the request (here refused: nothing listens on the port)', () => {
  it('load no Kubernetes client, no undici and no commander: the flags, the kubeconfig, the credentials and the request are our own', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    for (const verb of ['cordon', 'uncordon']) {
      expect(
        packagesLoadedBy([verb, 'k8s-node-1', '--server', `https://127.0.0.1:${port}`, '--token', 't'], 1),
      ).toEqual(['js-yaml']);
    }
    // A command line that is not a plain one (here a selector) is commander's.
    expect(
      packagesLoadedBy(['cordon', '-l', 'a=b', '--server', `https://127.0.0.1:${port}`, '--token', 't'], 1),
    ).toEqual(['commander', 'js-yaml']);
  });

  it('load none of the planner, the drain engine or the views: only their own command is registered', () => {
    // Port 1 refuses at once: what matters here is which layers were loaded on the way to the request.
    for (const verb of ['cordon', 'uncordon']) {
      expect(layersLoadedBy([verb, 'k8s-node-1', '--server', 'https://127.0.0.1:1', '--token', 't'], 1)).toEqual([
        'cli',
        'kube',
        'snapshot',
      ]);
    }
    expect(layersLoadedBy(['version'])).toEqual(['cli']);
  });
});

describe('bin/kubectl-maint.js started by an older Node.js', () => {
  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(
      process.execPath,
      ['--import', path.join(pkg, 'pretend-node-20.mjs'), path.join(pkg, 'bin/kubectl-maint.js'), ...args],
      { cwd: pkg, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: pkg, KUBECONFIG: '', ...env } },
    );

  it('runs itself again with the pinned Node.js 26 from node_modules, same arguments and exit code', () => {
    const version = run(['version', '-o', 'json']);
    expect(version.status, version.stderr).toBe(0);
    expect(JSON.parse(version.stdout)).toMatchObject({ node: process.version, build: 'dev' });
    const usage = run(['drain', '--no-such-flag']);
    expect([usage.status, usage.stderr.split('\n')[0]]).toEqual([2, 'error: unknown flag: --no-such-flag']);
  });

  it('refuses in one line when the pinned Node.js cannot be used (here: it reported an old version too)', () => {
    const r = run(['version'], { KUBECTL_MAINT_PINNED_NODE: '1' });
    expect(r.stderr).toMatch(/^error: kubectl-maint needs Node.js 26 or newer, this is v\d+/);
    expect(r.status).toBe(1);
  });
});

describe('pinnedNodePath', () => {
  it('is the node binary of the `node` devDependency, beside the entry point, when it exists', async () => {
    const { pinnedNodePath } = await import('../../../bin/pinned-node.js');
    const entry = 'file:///opt/kubectl-maint/bin/kubectl-maint.js';
    expect(pinnedNodePath(entry, 'linux', () => true)).toBe('/opt/kubectl-maint/node_modules/node/bin/node');
    expect(pinnedNodePath(entry, 'linux', () => false)).toBeNull();
  });
});

// The launcher itself, run by an older Node.js without process.execve (as Node before 22.15): the pinned
// child must not outlive it.
describe('bin/kubectl-maint.js under an older Node.js', () => {
  let server: tls.Server;
  let port = 0;
  let connections = 0;
  let caFile = '';
  beforeAll(async () => {
    // An API server that completes the TLS handshake (a certificate from the test CA, which the command
    // trusts) and never answers: the command waits on it until stopped.
    const pki = makePki(scratchDir());
    const { cert, key } = pki.leaf('apiserver', { cn: '127.0.0.1', san: 'IP:127.0.0.1' });
    caFile = pki.caFile;
    server = tls.createServer({ cert: readFileSync(cert), key: readFileSync(key) }, () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(() => server.close());

  // As Node before 22.15: no process.execve, so the launcher runs the pinned Node.js as its child.
  const older = () => {
    const file = path.join(pkg, 'older-node.mjs');
    writeFileSync(
      file,
      "Object.defineProperty(process.versions, 'node', { value: '20.19.0' });\nObject.defineProperty(process, 'execve', { value: undefined });\n",
    );
    return file;
  };
  const launch = () =>
    spawn(
      process.execPath,
      [
        '--import',
        older(),
        path.join(pkg, 'bin/kubectl-maint.js'),
        'cordon',
        'k8s-node-1',
        '--server',
        `https://127.0.0.1:${port}`,
        '--token',
        't',
        '--certificate-authority',
        caFile,
      ],
      { cwd: pkg, stdio: 'ignore', env: { PATH: process.env.PATH, HOME: pkg, KUBECONFIG: '' } },
    );
  const childOf = async (pid: number): Promise<number> => {
    for (;;) {
      const found = spawnSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' }).stdout.trim();
      if (found) return Number(found.split('\n')[0]);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const gone = async (pid: number) => {
    for (;;) {
      try {
        process.kill(pid, 0);
      } catch {
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  it('SIGKILL of the launcher stops the pinned child too', async () => {
    const launcher = launch();
    const child = await childOf(launcher.pid!);
    launcher.kill('SIGKILL');
    await gone(child);
  }, 60_000);

  it.each(['SIGINT', 'SIGTERM'] as const)(
    '%s sent to the launcher alone reaches the child',
    async (signal) => {
      const before = connections;
      const launcher = launch();
      const child = await childOf(launcher.pid!);
      // The child follows its parent before it runs the command: once it waits on the server.
      while (connections === before) await new Promise((resolve) => setTimeout(resolve, 50));
      launcher.kill(signal);
      const [, ended] = await new Promise<[number | null, string | null]>((resolve) =>
        launcher.on('exit', (c, s) => resolve([c, s])),
      );
      expect(ended).toBe(signal);
      await gone(child);
    },
    60_000,
  );
});
