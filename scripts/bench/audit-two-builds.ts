/**
 * Two builds of the planner compared on the audit's work per node, in one process over one snapshot: what a
 * cut of a node's plan buys, told apart from the machine's load, which moves two separate runs of the
 * audit-scale bench by 10 % and more.
 *
 * Each build's modules (its `dist/`) are loaded side by side; the generated snapshot is read once (by A),
 * each build builds its own index of it once and plans the first node once unmeasured (what every node
 * shares is built there). Then every other node is planned as the audit plans it (`auditNode`), with one build and then the other,
 * which goes first alternating from node to node, and each plan's CPU time (process.cpuUsage, user +
 * system) is kept. The nodes in the top 2 % of either build's times, where a major collection landed, are
 * left out; what remains is compared: the median CPU a node of each build, their ratio B/A, and the median
 * of the per-node differences B − A. The same build against itself (a copy of its `dist/`) differed by −2
 * to +4 % so, the build loaded second mostly the dearer: --both-orders runs the comparison again with the
 * builds swapped, each order in a process of its own, and gives B/A over both.
 *
 * With --same, every node's plan (`buildPlan`'s JSON) and findings, and the whole audit, must be the same
 * in both builds, or the run fails. The findings are kept from the measured pass; the plans, large, are
 * made again after it, so that holding them moves no measurement.
 *
 * The snapshot is the audit-scale bench's generated cluster (scale 0.3: 1,500 nodes / 45,000 pods), written
 * once per scale and generator into the temporary directory and reused, or the file --snapshot names.
 *
 * node scripts/bench/audit-two-builds.ts --a DIST_A --b DIST_B [--scale 0.3] [--nodes N] [--same]
 *   [--both-orders] [--snapshot FILE]
 *
 * DIST_A and DIST_B are two builds' `dist/` directories (or checkouts holding one). Two paths to one
 * directory would share their modules: to compare a build with itself, copy its `dist/` where the
 * project's node_modules resolve (a sibling `node_modules` symlink next to the copy will do). --nodes plans
 * N nodes spread evenly over the cluster's node list instead of all of them.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type * as AuditModule from '../../src/plan/audit.js';
import type * as BuildPlanModule from '../../src/plan/build-plan.js';
import type { PlanOptions } from '../../src/plan/types.js';
import type * as IndexModule from '../../src/snapshot/cluster-index.js';
import type { ClusterIndex } from '../../src/snapshot/cluster-index.js';
import type * as LoadFileModule from '../../src/snapshot/load-file.js';
import type * as PlanScaleModule from './plan-scale.js';
import type * as Stats from './stats.js';
import type * as GeneratorModule from './synthetic-cluster.js';

/** 1,500 nodes / 45,000 pods, as the audit-scale bench. */
const DEFAULT_SCALE = 0.3;
/** The share of nodes left out at the top of each build's times: where a major collection landed. */
const LEFT_OUT_SHARE = 0.02;

// Imported by URL: node resolves a .ts file only by its own name.
const source = async <T>(file: string) => (await import(new URL(file, import.meta.url).href)) as T;
const { median } = await source<typeof Stats>('./stats.ts');

interface Build {
  readonly name: 'A' | 'B';
  readonly dist: string;
  readonly audit: typeof AuditModule;
  readonly buildPlan: typeof BuildPlanModule;
  readonly loadFile: typeof LoadFileModule;
  readonly index: typeof IndexModule;
}

async function loadBuild(name: Build['name'], dir: string): Promise<Build> {
  const dist = existsSync(path.join(dir, 'plan/audit.js')) ? dir : path.join(dir, 'dist');
  if (!existsSync(path.join(dist, 'plan/audit.js'))) throw new Error(`${dir}: no build there (plan/audit.js)`);
  const module = async <T>(file: string) => (await import(pathToFileURL(path.join(dist, file)).href)) as T;
  return {
    name,
    dist: realpathSync(dist),
    audit: await module('plan/audit.js'),
    buildPlan: await module('plan/build-plan.js'),
    loadFile: await module('snapshot/load-file.js'),
    index: await module('snapshot/cluster-index.js'),
  };
}

/** The generated snapshot at this scale, written once per scale and generator source and reused. */
async function generatedSnapshot(scale: number): Promise<string> {
  const generatorFile = new URL('./synthetic-cluster.ts', import.meta.url);
  const digest = createHash('sha256').update(readFileSync(generatorFile)).digest('hex').slice(0, 12);
  const dir = path.join(tmpdir(), 'audit-two-builds');
  const file = path.join(dir, `snapshot-${scale}-${digest}.json`);
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const generator = await source<typeof GeneratorModule>('./synthetic-cluster.ts');
  const { scaledCluster } = await source<typeof PlanScaleModule>('./plan-scale.ts');
  const partial = `${file}.${process.pid}.partial`;
  await generator.writeSyntheticCluster(partial, scaledCluster(generator.FULL_SCALE, scale));
  renameSync(partial, file);
  return file;
}

/** CPU milliseconds (user + system) of one call. */
function cpuMs<T>(fn: () => T): { ms: number; value: T } {
  const start = process.cpuUsage();
  const value = fn();
  const used = process.cpuUsage(start);
  return { ms: (used.user + used.system) / 1000, value };
}

/** N of the list spread evenly over it (all of it when N is at least its length). */
function spread<T>(list: readonly T[], n: number): T[] {
  if (n >= list.length) return [...list];
  return Array.from({ length: n }, (_, i) => list[Math.floor((i * list.length) / n)]!);
}

/** The value below which the lowest (1 − share) of the times lie. */
function upperCut(times: readonly number[], share: number): number {
  const sorted = [...times].sort((x, y) => x - y);
  return sorted[Math.max(0, Math.ceil(sorted.length * (1 - share)) - 1)]!;
}

/** Where two JSON texts first differ, with some text around it. */
function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  const around = (s: string) => JSON.stringify(s.slice(Math.max(0, i - 80), i + 80));
  return `at character ${i}:\n    A ${around(a)}\n    B ${around(b)}`;
}

export interface TwoBuildsOptions {
  readonly a: string;
  readonly b: string;
  readonly scale?: number;
  readonly snapshot?: string;
  /** Nodes planned, spread evenly over the node list; every node by default. */
  readonly nodes?: number;
  /** Fail unless every node's plan and findings, and the audit, are the same in both builds. */
  readonly same?: boolean;
}

export interface TwoBuildsReport {
  readonly text: string;
  /** B's median CPU a node over A's. */
  readonly ratio: number;
}

export async function runTwoBuilds(options: TwoBuildsOptions): Promise<TwoBuildsReport> {
  const loadAtStart = loadavg()[0]!;
  const builds = [await loadBuild('A', options.a), await loadBuild('B', options.b)] as const;
  if (builds[0].dist === builds[1].dist) {
    throw new Error(
      `--a and --b are one directory (${builds[0].dist}): copy one build's dist/ to compare it with itself`,
    );
  }
  const scale = options.scale ?? DEFAULT_SCALE;
  const file = options.snapshot ?? (await generatedSnapshot(scale));
  const { drainEveryPod } = await source<typeof GeneratorModule>('./synthetic-cluster.ts');

  // One read for both: two reads put B's objects apart from A's, and B's plans then cost 3 to 9 % more
  // than A's with the same build on both sides. Each build keeps its memos of the objects to itself.
  const snapshot = await builds[0].loadFile.loadSnapshotFile(file);
  const indexes = builds.map((build) => new build.index.ClusterIndex(snapshot));
  const allNames = indexes[0]!.nodes.map((n) => n.metadata?.name ?? '');
  const [first, ...rest] = allNames;
  if (first === undefined) throw new Error(`${file}: no nodes`);
  const names = spread(rest, options.nodes ?? rest.length);
  const planOptions: PlanOptions = drainEveryPod(allNames);
  const plan = (i: 0 | 1, node: string) => builds[i].audit.auditNode(indexes[i]!, planOptions, node);

  // What every node shares (the scheduler's cache and its memos) is built by the first plan of each build.
  const firstFindings = [plan(0, first), plan(1, first)];

  const loadAtPlans = loadavg()[0]!;
  const times: [number[], number[]] = [[], []];
  const findings: [AuditModule.NodeFindings[], AuditModule.NodeFindings[]] = [[firstFindings[0]!], [firstFindings[1]!]];
  names.forEach((node, n) => {
    // Which build goes first alternates, so that neither always meets the other's garbage.
    for (const i of n % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const)) {
      const { ms, value } = cpuMs(() => plan(i, node));
      times[i].push(ms);
      findings[i].push(value);
    }
  });
  const loadAtEnd = loadavg()[0]!;

  const cuts = times.map((t) => upperCut(t, LEFT_OUT_SHARE));
  const kept = names.map((_, n) => n).filter((n) => times[0][n]! <= cuts[0]! && times[1][n]! <= cuts[1]!);
  const medianA = median(kept.map((n) => times[0][n]!));
  const medianB = median(kept.map((n) => times[1][n]!));
  const pairedDifference = median(kept.map((n) => times[1][n]! - times[0][n]!));
  const percent = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)} %`;

  const sameness = options.same
    ? [`  ${sameInBothBuilds(builds, indexes, planOptions, [first, ...names], findings)}`]
    : [];
  const snapshotMb = (statSync(file).size / 1e6).toFixed(0);
  const text = [
    `audit-two-builds: ${allNames.length.toLocaleString('en')} nodes, ${indexes[0]!.snapshot.pods.length.toLocaleString('en')} pods; snapshot ${file} (${snapshotMb} MB)`,
    `  A ${builds[0].dist}`,
    `  B ${builds[1].dist}`,
    `  ${names.length.toLocaleString('en')} nodes beyond the first planned with each build in turn, which goes first alternating; ` +
      `${(names.length - kept.length).toLocaleString('en')} left out (the top ${LEFT_OUT_SHARE * 100} % of either build's CPU: major collections)`,
    `  CPU a node, median of ${kept.length.toLocaleString('en')}: A ${medianA.toFixed(2)} ms, B ${medianB.toFixed(2)} ms; ` +
      `B/A ${(medianB / medianA).toFixed(3)} (${percent(medianB / medianA - 1)})`,
    `  per node B − A, median: ${pairedDifference >= 0 ? '+' : '−'}${Math.abs(pairedDifference).toFixed(2)} ms (${percent(pairedDifference / medianA)} of A's median)`,
    ...sameness,
    `  load average ${loadAtStart.toFixed(1)} at the start, ${loadAtPlans.toFixed(1)} when the plans began, ${loadAtEnd.toFixed(1)} at the end`,
  ].join('\n');
  return { text, ratio: medianB / medianA };
}

/**
 * Both orders, each in a process of its own: B/A as A then B are loaded, and as B then A. The build loaded
 * second paid up to 4 % more than the first with the same build on both sides, so a difference smaller than
 * that is told only by the two orders together: B/A over both, the geometric mean of the first's B/A and
 * of the second's inverse.
 */
async function runBothOrders(options: TwoBuildsOptions): Promise<string> {
  const snapshot = options.snapshot ?? (await generatedSnapshot(options.scale ?? DEFAULT_SCALE));
  const orders = [
    { a: options.a, b: options.b, same: options.same === true },
    { a: options.b, b: options.a, same: false },
  ];
  const reports = orders.map(({ a, b, same }) => {
    const args = [
      ...['--a', a, '--b', b, '--snapshot', snapshot, '--report-json'],
      ...(options.nodes === undefined ? [] : ['--nodes', String(options.nodes)]),
      ...(same ? ['--same'] : []),
    ];
    const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 1 << 24,
    });
    if (child.status !== 0) throw new Error(`the run with --a ${a} --b ${b} failed (exit ${child.status})`);
    return JSON.parse(child.stdout) as TwoBuildsReport;
  });
  const [first, second] = reports as [TwoBuildsReport, TwoBuildsReport];
  const both = Math.sqrt(first.ratio / second.ratio);
  const percent = `${both >= 1 ? '+' : '−'}${Math.abs((both - 1) * 100).toFixed(1)} %`;
  return [
    first.text,
    second.text,
    `both orders: B/A ${both.toFixed(3)} (${percent}), the geometric mean of ${first.ratio.toFixed(3)} and 1 / ${second.ratio.toFixed(3)}`,
  ].join('\n');
}

/**
 * Every node's plan and findings, and the audit of them, compared between the builds as JSON; throws at the
 * first difference. The plans are made again here, after the measured pass.
 */
function sameInBothBuilds(
  builds: readonly [Build, Build],
  indexes: readonly ClusterIndex[],
  planOptions: PlanOptions,
  names: readonly string[],
  findings: readonly [AuditModule.NodeFindings[], AuditModule.NodeFindings[]],
): string {
  const differs = (what: string, a: string, b: string) => {
    if (a !== b) throw new Error(`${what} differs between the builds ${firstDifference(a, b)}`);
  };
  names.forEach((node, n) => {
    const [a, b] = builds.map((build, i) =>
      JSON.stringify(build.buildPlan.buildPlan(indexes[i]!, { ...planOptions, nodes: [node] })),
    );
    differs(`the plan of ${node}`, a!, b!);
    differs(`the findings of ${node}`, JSON.stringify(findings[0][n]), JSON.stringify(findings[1][n]));
  });
  const [auditA, auditB] = builds.map((build, i) => JSON.stringify(build.audit.auditOf(findings[i as 0 | 1])));
  differs('the audit', auditA!, auditB!);
  return `every node's plan and findings, and the audit (${(auditA!.length / 1e3).toFixed(0)} kB), the same in both builds`;
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      a: { type: 'string' },
      b: { type: 'string' },
      scale: { type: 'string' },
      snapshot: { type: 'string' },
      nodes: { type: 'string' },
      same: { type: 'boolean' },
      'both-orders': { type: 'boolean' },
      // The report as JSON, for runBothOrders.
      'report-json': { type: 'boolean' },
    },
  });
  if (!values.a || !values.b) {
    console.error(
      'usage: node scripts/bench/audit-two-builds.ts --a DIST_A --b DIST_B [--scale 0.3] [--nodes N] [--same] [--both-orders] [--snapshot FILE]',
    );
    process.exit(2);
  }
  const options: TwoBuildsOptions = {
    a: values.a,
    b: values.b,
    ...(values.scale ? { scale: Number(values.scale) } : {}),
    ...(values.snapshot ? { snapshot: values.snapshot } : {}),
    ...(values.nodes ? { nodes: Number(values.nodes) } : {}),
    ...(values.same ? { same: true } : {}),
  };
  if (values['both-orders']) console.log(await runBothOrders(options));
  else if (values['report-json']) console.log(JSON.stringify(await runTwoBuilds(options)));
  else console.log((await runTwoBuilds(options)).text);
}
