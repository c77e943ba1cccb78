/**
 * `npm run bench`: drains the same scenarios in the lab with `kubectl maint drain` and with the lab's own
 * `kubectl drain`, in the same run, and prints their completion times and ratio.
 *
 *   hello      4 replicas, 2 on the drained node, budget maxUnavailable 1
 *   budget30   30 pods on the drained node behind one budget (maxUnavailable 1), replacements Ready 2 s
 *              after they start. Target: kubectl maint is no slower than kubectl drain (ratio <= 1); both
 *              are bound by readiness here (see below), so no tool can take half as long.
 *   budget6    the same with 6 pods.
 *   budgets10x3 30 pods on the drained node in 10 Deployments of 3, each behind its own budget
 *              (maxUnavailable 1), replacements Ready 2 s after they start: three waves per budget, run
 *              side by side. Target: ratio <= 0.5.
 *
 * What bounds the ratio (measured in the lab, Kubernetes 1.37): a budget allowing one disruption at a
 * time with replacements Ready 2 s after they start cannot drain N pods faster than about N × 2 s, by
 * any tool. kubectl drain retries each refused pod every 5 s, but its client-side rate limiter (client-go,
 * 5 requests/s) spreads the retries of many waiting pods apart: with 30 pods waiting it asks about every
 * 200 ms, close to reacting at once. The 5 s retry shows when few pods wait (budget6): there kubectl maint,
 * woken by the budget's watch, takes about half as long.
 *
 *   plan-scale the planner on a generated 5,000-node / 150,000-pod snapshot, against JSON.parse of the
 *              same snapshot (scripts/bench/plan-scale.ts; needs no lab).
 *   pool-plan-scale  the pool plan of 500 nodes of that cluster with --max-unavailable 10 %, against
 *              JSON.parse of the same snapshot, and the CLI's peak RSS against the file's size
 *              (scripts/bench/pool-plan-scale.ts; needs no lab). Targets: <= 3 and <= 2.
 *   audit-scale  `kubectl maint audit` of every node of a generated 1,500-node / 45,000-pod cluster against
 *              one node's plan of the same snapshot, end to end (scripts/bench/audit-scale.ts; needs no lab;
 *              AUDIT_SCALE sets the size, a fraction of plan-scale's cluster). Only when asked for by name.
 *              Target: <= 3.
 *   audit-live `kubectl maint audit` of every node of the lab as it is (grown by live-read or fleet-run)
 *              against one node's plan, both read from the API server, end to end (scripts/bench/audit-live.ts;
 *              AUDIT_LIVE_NODE names the node, bench-node-1 by default). Only when asked for by name.
 *              Target: <= 3.
 *   startup    start-up against kubectl in the same run, release binary and from source: version,
 *              cordon + uncordon, plan -o json on a 20-node lab, and the demo's first screen
 *              (scripts/bench/startup.ts; STARTUP_RUNS runs each, default 15; RELEASE_BINARY to skip
 *              building one).
 *   surge      `kubectl maint drain --surge` on one replica under minAvailable 1, against the physical floor
 *              (replacement start-to-Ready + the old pod's grace period) in the same run. Target: ≤ 1.3×.
 *   eta        the plan's estimate against the measured drain, replacements Ready after 2, 5 and 10 s: the
 *              error of each (scripts/bench/strategies.ts). Bound: ±25 %.
 *   run        `kubectl maint run` over an 8-node pool (10 s simulated reboots) against the shell loop of
 *              kubectl drain / the command / kubectl uncordon (scripts/bench/run-pool.ts). Only when asked
 *              for by name. Target: ratio <= 0.5, no budget below its desired health in either.
 *   fleet-run  `kubectl maint run -l POOL --max-unavailable 10%` over 150 nodes of the live-read lab with
 *              budgeted Deployments and a simulated reboot, against its floor (each batch's slowest drain +
 *              command + return): overhead per batch, RSS over the run, requests and writes per node, LISTs
 *              per kind (scripts/bench/fleet-run.ts). Only when asked for by name. Targets: ≤ 1.1× the floor,
 *              ≤ 1 s overhead per batch, RSS flat, one LIST per kind.
 *   live-read  `kubectl maint plan` on a lab grown to 500 nodes and 15,000 pods, against `kubectl get …
 *              -o json` of the same apiserver (scripts/bench/live-read.ts). Only when asked for by name:
 *              growing the lab takes a few minutes.
 *
 * Options: --runs N (drains per tool and scenario, default 1; the medians are compared), --scenario NAME
 * (repeatable), --write-docs (each benchmark's figures written into docs/benchmarks.md between its
 * markers, with the machine and the load; scripts/bench/docs-writer.ts). Needs the lab (`npm run lab --
 * up`; LAB_DIR selects which). Exits 1 when a target is missed.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type * as AuditLive from './audit-live.js';
import type * as AuditScale from './audit-scale.js';
import type * as DocsWriter from './docs-writer.js';
import type * as FleetRun from './fleet-run.js';
import type * as LiveRead from './live-read.js';
import type * as PlanScale from './plan-scale.js';
import type * as PoolPlanScale from './pool-plan-scale.js';
import type * as RunPool from './run-pool.js';
import type * as Startup from './startup.js';
import type * as Strategies from './strategies.js';
import type * as Stats from './stats.js';

// Imported by URL: node runs these scripts from source and resolves a .ts file only by its own name.
const { median } = (await import(new URL('./stats.ts', import.meta.url).href)) as typeof Stats;
const docs = (await import(new URL('./docs-writer.ts', import.meta.url).href)) as typeof DocsWriter;

const root = path.resolve(import.meta.dirname, '../..');
const labScript = path.join(root, 'scripts/lab/lab.sh');
const maint = path.join(root, 'bin/kubectl-maint.js');
const NODE = 'k8s-node-1';
const TARGET_RATIO = 0.5;
/** Where readiness, not the retry, bounds both tools: kubectl maint must only not be slower. */
const NOT_SLOWER = 1;

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '1' },
    scenario: { type: 'string', multiple: true },
    'write-docs': { type: 'boolean', default: false },
  },
});
const runs = Math.max(1, Number(values.runs));
const loadAtStart = loadavg()[0] ?? 0;
const docPath = path.join(root, 'docs/benchmarks.md');
/** The figures each benchmark that ran gives the doc (--write-docs). */
const written: DocsWriter.DocFigures[] = [];
/** `npm run bench` of one benchmark, as the doc gives it to reproduce its figures. */
const benchCommand = (names: readonly string[], withRuns = true) =>
  `npm run bench -- ${names.map((name) => `--scenario ${name}`).join(' ')}${withRuns && runs > 1 ? ` --runs ${runs}` : ''}`;

/** KUBECONFIG and the lab's bin directory, as `lab env` prints them. */
function labEnv(): { kubeconfig: string; labBin: string } {
  const out = execFileSync('bash', [labScript, 'env'], { encoding: 'utf8' });
  const kubeconfig = /export KUBECONFIG=(\S+)/.exec(out)?.[1];
  const labBin = /export PATH=([^:\s]+):/.exec(out)?.[1];
  if (!kubeconfig || !labBin) throw new Error(`unexpected output of lab env:\n${out}`);
  return { kubeconfig, labBin };
}

const lab = labEnv();
const env = { ...process.env, KUBECONFIG: lab.kubeconfig, NO_COLOR: '1' };
const kubectlBin = path.join(lab.labBin, 'kubectl');

function run(command: string, args: readonly string[], what: string): void {
  const result = spawnSync(command, args, { env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${what} failed (exit ${result.status}):\n${result.stderr}${result.stdout}`);
}
const kubectl = (...args: string[]) => run(kubectlBin, args, `kubectl ${args.join(' ')}`);

/** Seconds a drain command takes, from start to exit; it must succeed. */
function timeDrain(command: string, args: readonly string[], what: string): number {
  const started = process.hrtime.bigint();
  run(command, args, what);
  return Number(process.hrtime.bigint() - started) / 1e9;
}

interface Scenario {
  readonly name: string;
  readonly prepare: () => void;
  readonly target?: number;
}

const seed = (name: string) => run('bash', [labScript, 'seed', name], `lab seed ${name}`);

/**
 * The lab's nodes and DaemonSets, without hello, and `budgets` Deployments of `replicas` pods, each
 * behind its own budget, all on the drained node (the other worker cordoned while they are placed,
 * then open to take the replacements).
 */
function prepareBudget(replicas: number, budgets = 1): void {
  seed('hello');
  kubectl('delete', 'namespace', 'demo', '--wait=true');
  kubectl('cordon', 'k8s-node-2');
  const template = readFileSync(path.join(import.meta.dirname, 'budget.yaml'), 'utf8');
  // The first document is the namespace; the rest (Deployment and budget) is copied once per budget.
  const cut = template.indexOf('\n---\n');
  const [namespace, workload] = [template.slice(0, cut), template.slice(cut + '\n---\n'.length)];
  const names = Array.from({ length: budgets }, (_, i) => (budgets === 1 ? 'budget' : `budget-${i + 1}`));
  const manifest = [
    namespace,
    ...names.map((name) => workload.replaceAll('NAME', name).replace('replicas: REPLICAS', `replicas: ${replicas}`)),
  ].join('\n---\n');
  const applied = spawnSync(kubectlBin, ['apply', '-f', '-'], { env, input: manifest, encoding: 'utf8' });
  if (applied.status !== 0) throw new Error(`kubectl apply failed:\n${applied.stderr}`);
  for (const name of names) kubectl('rollout', 'status', '-n', 'bench', `deployment/${name}`, '--timeout=180s');
  kubectl('wait', '-n', 'bench', '--for=condition=Ready', 'pods', '--all', '--timeout=120s');
  kubectl('uncordon', 'k8s-node-2');
  kubectl('wait', '-n', 'bench', '--for=jsonpath={.status.disruptionsAllowed}=1', 'pdb', '--all', '--timeout=60s');
}

const scenarios: Scenario[] = [
  { name: 'hello', prepare: () => seed('hello') },
  { name: 'budget30', target: NOT_SLOWER, prepare: () => prepareBudget(30) },
  { name: 'budget6', prepare: () => prepareBudget(6) },
  { name: 'budgets10x3', target: TARGET_RATIO, prepare: () => prepareBudget(3, 10) },
];

const tools = {
  'kubectl maint drain': () =>
    timeDrain(
      process.execPath,
      [maint, 'drain', NODE, '--ignore-daemonsets', '--yes', '-o', 'json'],
      'kubectl maint drain',
    ),
  'kubectl drain': () => timeDrain(kubectlBin, ['drain', NODE, '--ignore-daemonsets'], 'kubectl drain'),
};

let missed = false;
const rows: string[] = [];
const tableRows: string[] = [];
const wanted = (name: string) => !values.scenario || values.scenario.includes(name);
/** The doc's block of each benchmark this run measures: its markers are checked before anything runs. */
const DRAIN_BLOCK = 'drain';
const blocks = [
  // One table for the drain scenarios: written only when all of them ran, so none is dropped from it.
  ...(scenarios.every((s) => wanted(s.name)) ? [DRAIN_BLOCK] : []),
  ...['plan-scale', 'pool-plan-scale', 'startup', 'surge', 'eta'].filter(wanted),
  ...['run', 'fleet-run', 'audit-scale', 'audit-live'].filter((name) => values.scenario?.includes(name)),
  ...(values.scenario?.includes('live-read')
    ? [process.env.LIVE_NODES === undefined ? 'live-read' : `live-read-${process.env.LIVE_NODES}`]
    : []),
];
if (values['write-docs']) {
  const missing = docs.missingMarkers(readFileSync(docPath, 'utf8'), blocks);
  if (missing.length > 0) {
    console.error(
      `bench: docs/benchmarks.md lacks the markers of ${missing.join(', ')} (<!-- bench:NAME --> … <!-- /bench:NAME -->)`,
    );
    process.exit(2);
  }
}
for (const scenario of scenarios.filter((s) => wanted(s.name))) {
  const times: Record<keyof typeof tools, number[]> = { 'kubectl maint drain': [], 'kubectl drain': [] };
  for (let i = 0; i < runs; i += 1) {
    for (const [tool, drain] of Object.entries(tools) as Array<[keyof typeof tools, () => number]>) {
      scenario.prepare();
      const seconds = drain();
      times[tool].push(seconds);
      console.error(`bench: ${scenario.name}: ${tool} ${seconds.toFixed(1)}s`);
    }
  }
  const ours = median(times['kubectl maint drain']);
  const theirs = median(times['kubectl drain']);
  const ratio = ours / theirs;
  const verdict =
    scenario.target === undefined
      ? ''
      : ratio <= scenario.target
        ? `target <= ${scenario.target}: met`
        : `target <= ${scenario.target}: MISSED`;
  if (scenario.target !== undefined && ratio > scenario.target) missed = true;
  rows.push(
    `${scenario.name.padEnd(10)} ${ours.toFixed(1).padStart(8)}s ${theirs.toFixed(1).padStart(8)}s ${ratio.toFixed(2).padStart(7)}  ${verdict}`,
  );
  tableRows.push(
    `| \`${scenario.name}\` | ${ours.toFixed(1)} s | ${theirs.toFixed(1)} s | ${ratio.toFixed(2)} | ${scenario.target === undefined ? '—' : `≤ ${scenario.target}${ratio <= scenario.target ? ' met' : ' MISSED'}`} |`,
  );
}
if (tableRows.length > 0 && tableRows.length < scenarios.length && values['write-docs']) {
  console.error(`bench: docs/benchmarks.md: the drain table is written when all its scenarios run`);
}
if (tableRows.length === scenarios.length) {
  written.push({
    name: DRAIN_BLOCK,
    command: benchCommand(scenarios.filter((s) => wanted(s.name)).map((s) => s.name)),
    body: [
      `Medians of ${runs} run${runs === 1 ? '' : 's'} each, start to exit:`,
      '',
      '| scenario | kubectl maint | kubectl drain | ratio | target |',
      '|---|---|---|---|---|',
      ...tableRows,
    ].join('\n'),
  });
}
/** A benchmark module's printed report, kept for the doc as it was printed. */
const keep = (name: string, text: string, withRuns = true) =>
  written.push({ name, command: benchCommand([name], withRuns), body: docs.fenced(text) });

if (wanted('plan-scale')) {
  // Imported by URL: Node resolves a .ts file only by its own name, and this one is not compiled.
  const module = (await import(new URL('./plan-scale.ts', import.meta.url).href)) as typeof PlanScale;
  const report = await module.runPlanScaleBench();
  console.log(report.text);
  keep('plan-scale', report.text, false);
  if (!report.passed) missed = true;
}

if (wanted('pool-plan-scale')) {
  const module = (await import(new URL('./pool-plan-scale.ts', import.meta.url).href)) as typeof PoolPlanScale;
  const report = await module.runPoolPlanScaleBench();
  console.log(report.text);
  keep('pool-plan-scale', report.text, false);
  if (!report.passed) missed = true;
}

if (values.scenario?.includes('audit-scale')) {
  const module = (await import(new URL('./audit-scale.ts', import.meta.url).href)) as typeof AuditScale;
  const scale = process.env.AUDIT_SCALE === undefined ? undefined : Number(process.env.AUDIT_SCALE);
  const report = await module.runAuditScaleBench({ runs, ...(scale === undefined ? {} : { scale }) });
  console.log(report.text);
  const command = `${scale === undefined ? '' : `AUDIT_SCALE=${scale} `}${benchCommand(['audit-scale'], true)}`;
  written.push({ name: 'audit-scale', command, body: docs.fenced(report.text) });
  if (!report.passed) missed = true;
}

if (values.scenario?.includes('audit-live')) {
  const module = (await import(new URL('./audit-live.ts', import.meta.url).href)) as typeof AuditLive;
  const node = process.env.AUDIT_LIVE_NODE ?? 'bench-node-1';
  const report = await module.runAuditLiveBench({ maint, env, runs, node });
  console.log(report.text);
  written.push({ name: 'audit-live', command: benchCommand(['audit-live'], true), body: docs.fenced(report.text) });
  if (!report.passed) missed = true;
}

if (wanted('startup')) {
  const module = (await import(new URL('./startup.ts', import.meta.url).href)) as typeof Startup;
  const report = await module.runStartupBench({
    env,
    kubectlBin,
    labScript,
    root,
    runs: Number(process.env.STARTUP_RUNS ?? 15),
    releaseBinary: process.env.RELEASE_BINARY,
  });
  console.log(report.text);
  keep('startup', report.text, false);
  if (!report.passed) missed = true;
}

if (wanted('surge') || wanted('eta')) {
  const module = (await import(new URL('./strategies.ts', import.meta.url).href)) as typeof Strategies;
  const options = { env, kubectlBin, maint, labScript, runs };
  if (wanted('surge')) {
    const report = await module.runSurgeBench(options);
    console.log(report.text);
    keep('surge', report.text);
    if (!report.passed) missed = true;
  }
  if (wanted('eta')) {
    const report = module.runEtaBench(options);
    console.log(report.text);
    keep('eta', report.text);
    if (!report.passed) missed = true;
  }
}

if (values.scenario?.includes('run')) {
  const module = (await import(new URL('./run-pool.ts', import.meta.url).href)) as typeof RunPool;
  const report = await module.runRunPoolBench({ env, kubectlBin, maint, labScript, runs });
  console.log(report.text);
  keep('run', report.text);
  if (!report.passed) missed = true;
}

if (values.scenario?.includes('live-read')) {
  const module = (await import(new URL('./live-read.ts', import.meta.url).href)) as typeof LiveRead;
  const report = await module.runLiveReadBench({ env, kubectlBin, maint, labScript, runs });
  console.log(report.text);
  // One block per size the doc shows (bench:live-read-1000, …), each with the settings that reproduce it.
  const settings = ['LIVE_REUSE', 'LIVE_GROW', 'LIVE_NODES', 'LIVE_PODS_PER_NODE']
    .filter((name) => process.env[name] !== undefined)
    .map((name) => `${name}=${process.env[name]} `)
    .join('');
  const block = process.env.LIVE_NODES === undefined ? 'live-read' : `live-read-${process.env.LIVE_NODES}`;
  written.push({ name: block, command: `${settings}${benchCommand(['live-read'])}`, body: docs.fenced(report.text) });
  if (!report.passed) missed = true;
}

if (values.scenario?.includes('fleet-run')) {
  const module = (await import(new URL('./fleet-run.ts', import.meta.url).href)) as typeof FleetRun;
  const report = await module.runFleetRunBench({ env, kubectlBin, maint, labScript });
  console.log(report.text);
  const sized = [
    'LIVE_NODES',
    'LIVE_PODS_PER_NODE',
    'FLEET_NODES',
    'FLEET_DEPLOYMENTS',
    'FLEET_REPLICAS',
    'FLEET_REBOOT_SECONDS',
    'FLEET_MAX_UNAVAILABLE',
    'FLEET_CONCURRENCY',
    'FLEET_GRACE_PERIOD',
  ]
    .filter((name) => process.env[name] !== undefined)
    .map((name) => `${name}=${process.env[name]} `)
    .join('');
  written.push({
    name: 'fleet-run',
    command: `${sized}${benchCommand(['fleet-run'], false)}`,
    body: docs.fenced(report.text),
  });
  if (!report.passed) missed = true;
}

if (rows.length > 0) {
  console.log(
    `${'scenario'.padEnd(10)} ${'maint'.padStart(9)} ${'kubectl'.padStart(9)} ${'ratio'.padStart(7)}  (median of ${runs} run${runs === 1 ? '' : 's'} each)`,
  );
  for (const row of rows) console.log(row);
}
if (values['write-docs'] && written.length > 0) {
  const machine = docs.thisMachine(labKubernetesVersion(), loadAtStart);
  writeFileSync(docPath, docs.writeFigures(readFileSync(docPath, 'utf8'), written, machine));
  console.error(`bench: docs/benchmarks.md: ${written.map((w) => w.name).join(', ')} written`);
}
process.exitCode = missed ? 1 : 0;

/** The lab's API server version (`kubectl version`), or null when it does not answer. */
function labKubernetesVersion(): string | null {
  const result = spawnSync(kubectlBin, ['version', '-o', 'json'], { env, encoding: 'utf8' });
  if (result.status !== 0) return null;
  return (JSON.parse(result.stdout) as { serverVersion?: { gitVersion?: string } }).serverVersion?.gitVersion ?? null;
}
