/**
 * The start-up benchmark: how long `kubectl maint` takes for short commands, against kubectl doing the
 * same in the same run, for the release binary (the single executable krew installs) and from source
 * (`node bin/kubectl-maint.js`, what an npm install runs). Each pair runs alternately, `runs` times; the
 * medians are compared.
 *
 *   version       `kubectl-maint version` against `kubectl version --client`            target <= 1.5
 *   cordon        `cordon` + `uncordon` of a node against kubectl's                      target <= 1.5
 *   plan          `plan k8s-node-1 -o json` on a 20-node lab against `kubectl get` of
 *                 every kind the plan reads (-A -o json)                                  target <= 1.2
 *   kubeconfig    a fresh process loading js-yaml and parsing the lab's kubeconfig, against `yaml` doing
 *                 the same: the reason the CLI keeps a second YAML library. Reported, a ratio.
 *   demo          time to the first screen (first bytes on stdout) of `npm run demo`, warm: dist/ built,
 *                 compile cache filled. Reported, no baseline.
 *
 * The plugin is run as kubectl runs it, by its own path: `kubectl maint X` adds kubectl's own start-up
 * (a full `kubectl` process that finds the plugin on PATH and execs it) to both sides of no comparison
 * here, so it is reported once, for scale, as `via kubectl`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type * as LiveRead from './live-read.js';
import type * as Stats from './stats.js';

// Imported by URL: node runs these scripts from source and resolves a .ts file only by its own name.
const { median, ratio } = (await import(new URL('./stats.ts', import.meta.url).href)) as typeof Stats;
const { populate, snapshotRead } = (await import(new URL('./live-read.ts', import.meta.url).href)) as typeof LiveRead;

export interface StartupOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly kubectlBin: string;
  readonly labScript: string;
  readonly root: string;
  readonly runs: number;
  /** The single executable to measure; built with `npm run release` for this machine when absent. */
  readonly releaseBinary?: string;
}

const TARGETS = { version: 1.5, cordon: 1.5, plan: 1.2 } as const;
/** hello's three nodes and these: 20. */
const EXTRA_NODES = 17;
const PODS_PER_NODE = 30;
const CORDONED = 'k8s-node-2';

export async function runStartupBench(options: StartupOptions): Promise<{ text: string; passed: boolean }> {
  const work = mkdtempSync(path.join(tmpdir(), 'kubectl-maint-startup-'));
  try {
    const release = options.releaseBinary ?? buildRelease(options.root, work);
    const fromSource = [process.execPath, path.join(options.root, 'bin/kubectl-maint.js')];
    const plugins: Record<string, string[]> = { release: [release], source: fromSource };
    await populate(options, EXTRA_NODES, PODS_PER_NODE);
    const kubectl = [options.kubectlBin];
    const lines = [`startup: median of ${options.runs} runs each, alternating; ratios against kubectl in the same run`];
    let passed = true;
    for (const [build, plugin] of Object.entries(plugins)) {
      run(plugin, ['version'], options.env); // fills the compile cache
      const pairs: Array<[keyof typeof TARGETS, string[][], string[][]]> = [
        ['version', [[...plugin, 'version']], [[...kubectl, 'version', '--client']]],
        [
          'cordon',
          [
            [...plugin, 'cordon', CORDONED],
            [...plugin, 'uncordon', CORDONED],
          ],
          [
            [...kubectl, 'cordon', CORDONED],
            [...kubectl, 'uncordon', CORDONED],
          ],
        ],
        [
          'plan',
          [[...plugin, 'plan', 'k8s-node-1', '--ignore-daemonsets', '-o', 'json']],
          [[...kubectl, ...snapshotRead()]],
        ],
      ];
      for (const [name, ours, theirs] of pairs) {
        const [oursMs, theirsMs] = alternate(ours, theirs, options);
        const r = oursMs / theirsMs;
        const met = r <= TARGETS[name];
        if (!met) passed = false;
        lines.push(
          `  ${build.padEnd(8)} ${name.padEnd(8)} ${ms(oursMs)} vs ${ms(theirsMs)}  ratio ${ratio(r)}  target <= ${TARGETS[name]}: ${met ? 'met' : 'MISSED'}`,
        );
      }
    }
    const onPath = { ...options.env, PATH: `${path.dirname(release)}:${options.env.PATH ?? ''}` };
    const viaKubectl = median(repeat(options.runs, () => time([...kubectl, 'maint', 'version'], onPath)));
    lines.push(`  for scale: kubectl maint version (kubectl finding the release plugin on PATH) ${ms(viaKubectl)}`);
    lines.push(kubeconfigParsers(options));
    const demo = median(await repeatAsync(options.runs, () => firstScreenOfDemo(options.root)));
    lines.push(`  demo     first screen of npm run demo, warm: ${ms(demo)}`);
    return { text: lines.join('\n'), passed };
  } finally {
    rmSync(work, { recursive: true, force: true });
    spawnSync('bash', [options.labScript, 'seed', 'hello'], { env: options.env, stdio: 'ignore' });
  }
}

/**
 * Why the kubeconfig is read with js-yaml while every other YAML the CLI reads or writes goes through
 * `yaml`: a fresh Node process loading each library and parsing the lab's kubeconfig, alternating. Every
 * command reads the kubeconfig, and the short ones (cordon, uncordon, runs) read no other YAML; the second
 * library earns its place only while it costs a short command markedly less (a ratio under 0.8).
 */
function kubeconfigParsers(options: StartupOptions): string {
  const kubeconfig = options.env.KUBECONFIG ?? '';
  const parse = (specifier: string, fn: string) => [
    process.execPath,
    '--input-type=module',
    '-e',
    `import { readFileSync } from 'node:fs'; const m = await import(${JSON.stringify(import.meta.resolve(specifier))}); m.${fn}(readFileSync(${JSON.stringify(kubeconfig)}, 'utf8'));`,
  ];
  const empty = [process.execPath, '--input-type=module', '-e', ''];
  const [jsYaml, yaml] = alternate([parse('js-yaml', 'load')], [parse('yaml', 'parse')], options);
  const [node] = alternate([empty], [empty], options);
  const r = (jsYaml - node) / (yaml - node);
  return `  kubeconfig read  js-yaml ${ms(jsYaml)} vs yaml ${ms(yaml)} (Node alone ${ms(node)}): load and parse ${ratio(r)} of yaml's, ${r < 0.8 ? 'js-yaml kept for the kubeconfig' : 'NOT worth a second YAML library'}`;
}

/** Runs each command sequence `runs` times, ours and theirs in turn; median milliseconds of each. */
function alternate(ours: string[][], theirs: string[][], options: StartupOptions): [number, number] {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < options.runs; i += 1) {
    a.push(ours.reduce((sum, argv) => sum + time(argv, options.env), 0));
    b.push(theirs.reduce((sum, argv) => sum + time(argv, options.env), 0));
  }
  return [median(a), median(b)];
}

function time(argv: string[], env: NodeJS.ProcessEnv): number {
  const started = process.hrtime.bigint();
  run(argv.slice(0, 1), argv.slice(1), env);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

function run(command: string[], args: string[], env: NodeJS.ProcessEnv): void {
  const result = spawnSync(command[0]!, [...command.slice(1), ...args], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (result.status !== 0)
    throw new Error(`${[...command, ...args].join(' ')}: exit ${result.status}\n${result.stderr}`);
}

/** Milliseconds from `npm run demo` starting to its first output. */
function firstScreenOfDemo(root: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn('npm', ['run', '--silent', 'demo'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] });
    let first: number | undefined;
    child.stdout.on('data', () => {
      first ??= Number(process.hrtime.bigint() - started) / 1e6;
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 && first !== undefined ? resolve(first) : reject(new Error(`npm run demo: exit ${code}`)),
    );
  });
}

function buildRelease(root: string, work: string): string {
  const out = path.join(work, 'release');
  const version = `v${JSON.parse(spawnSync('npm', ['pkg', 'get', 'version'], { cwd: root, encoding: 'utf8' }).stdout) as string}`;
  const result = spawnSync(
    process.execPath,
    [path.join(root, 'scripts/release/release.ts'), '--version', version, '--platforms', hostPlatform(), '--out', out],
    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] },
  );
  if (result.status !== 0) throw new Error(`npm run release failed:\n${result.stderr}`);
  const archive = readdirSync(out).find((f) => f.endsWith('.tar.gz'));
  if (!archive) throw new Error(`no archive in ${out}`);
  const dir = path.join(work, 'extracted');
  spawnSync('mkdir', ['-p', dir]);
  const untar = spawnSync('tar', ['-xzf', path.join(out, archive), '-C', dir], { encoding: 'utf8' });
  if (untar.status !== 0) throw new Error(`tar: ${untar.stderr}`);
  return path.join(dir, 'kubectl-maint');
}

function hostPlatform(): string {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  return `${process.platform}/${arch}`;
}

function repeat(n: number, f: () => number): number[] {
  return Array.from({ length: n }, f);
}

async function repeatAsync(n: number, f: () => Promise<number>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i += 1) out.push(await f());
  return out;
}

function ms(value: number): string {
  return `${value.toFixed(0).padStart(5)} ms`;
}
