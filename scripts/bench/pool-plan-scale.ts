/**
 * The pool plan at scale: `kubectl maint plan` of a pool of 500 nodes of the generated
 * 5,000-node / 150,000-pod cluster with --max-unavailable 10 %, measured in the same run against the
 * plan-scale baseline (JSON.parse of the same snapshot):
 *
 *   in process  buildPoolPlan on the loaded, indexed snapshot (load and index are plan-scale's business)
 *   CLI         `kubectl maint plan NODE… --snapshot FILE --max-unavailable 10%` end to end: its peak RSS
 *               against the file's size, its wall time against `node -e` parsing the same file
 *
 * The pool is the first 500 nodes (by name) of the general node pool, drained with --ignore-daemonsets
 * --delete-emptydir-data --force so that every pod goes through the budget waves and the scheduling
 * simulation. The generated cluster holds budgets that allow no disruption (maxUnavailable 0, pods not
 * Ready elsewhere), so most nodes of any pool of it are blocked: the plan must find that out for each
 * node, alone, against the cluster as the other batches leave it.
 *
 * Run on its own after `npm run build`: node scripts/bench/pool-plan-scale.ts [--scale 0.1] [--runs 1]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type * as PoolPlanModule from '../../src/plan/pool-plan.js';
import type * as IndexModule from '../../src/snapshot/cluster-index.js';
import type * as JsonStreamModule from '../../src/json-list-stream.js';
import type * as LoadFileModule from '../../src/snapshot/load-file.js';
import type * as PlanScaleModule from './plan-scale.js';
import type * as GeneratorModule from './synthetic-cluster.js';

/** The targets (docs/benchmarks.md). */
const TARGETS = { planPerParse: 3, peakRssPerFileByte: 2 } as const;
const POOL_LABEL = 'node.example.com/pool';
const FLAGS = ['--ignore-daemonsets', '--delete-emptydir-data', '--force'];

const ROOT = path.resolve(import.meta.dirname, '../..');
const dist = async <T>(file: string) => (await import(pathToFileURL(path.join(ROOT, 'dist', file)).href)) as T;
// Imported by URL: node resolves a .ts file only by its own name.
const source = async <T>(file: string) => (await import(new URL(file, import.meta.url).href)) as T;

export interface PoolPlanScaleOptions {
  /** Fraction of the full cluster (default 1); the pool is scaled with it. */
  readonly scale?: number;
  /** In-process repetitions (default 1: one pool plan at full scale is long enough to time). */
  readonly runs?: number;
}

export async function runPoolPlanScaleBench(
  options: PoolPlanScaleOptions = {},
): Promise<{ title: string; text: string; passed: boolean }> {
  const bench = await source<typeof PlanScaleModule>('./plan-scale.ts');
  const generator = await source<typeof GeneratorModule>('./synthetic-cluster.ts');
  const { loadSnapshotFile } = await dist<typeof LoadFileModule>('snapshot/load-file.js');
  const { ClusterIndex } = await dist<typeof IndexModule>('snapshot/cluster-index.js');
  const { buildPoolPlan } = await dist<typeof PoolPlanModule>('plan/pool-plan.js');
  const { MAX_STRING_LENGTH } = await dist<typeof JsonStreamModule>('json-list-stream.js');
  const scale = options.scale ?? 1;
  const runs = Math.max(1, options.runs ?? 1);
  const dir = mkdtempSync(path.join(tmpdir(), 'pool-plan-scale-'));
  try {
    const file = path.join(dir, 'snapshot.json');
    const written = await generator.writeSyntheticCluster(file, bench.scaledCluster(generator.FULL_SCALE, scale));
    writeFileSync(`${file}.ranges`, new Float64Array(written.itemRanges));
    const baseline = bench.measureBaseline(file, written.itemRanges, MAX_STRING_LENGTH, runs);

    const index = new ClusterIndex(await loadSnapshotFile(file));
    const pool = index.nodes
      .filter((n) => n.metadata?.labels?.[POOL_LABEL] === 'general')
      .map((n) => n.metadata?.name ?? '')
      .sort()
      .slice(0, Math.round(500 * scale));
    const maxUnavailable = Math.max(1, Math.floor(pool.length / 10));
    const plan = bench.measure(runs, () => buildPoolPlan(index, { ...generator.drainEveryPod(pool), maxUnavailable }));
    const batches = plan.value.batches;
    const blocked = batches.filter((b) => b.verdict === 'blocked').length;
    const planned = batches.reduce((n, b) => n + b.plan.pods.length, 0);

    const cli = bench.runNode(
      dir,
      [bench.CLI, 'plan', ...pool, '--snapshot', file, '--max-unavailable', '10%', ...FLAGS],
      'kubectl maint plan (pool)',
      [0, 3],
    );
    const shown = cli.stdout.match(/\bbatch(es)?\b/g)?.length ?? 0;
    if (shown === 0) throw new Error('the CLI printed no batch');
    const parse = bench.runNode(
      dir,
      ['-e', bench.PARSE_SCRIPT, file, String(written.bytes <= MAX_STRING_LENGTH)],
      'node -e parse',
      [0],
    );

    const planRatio = plan.median / baseline.median;
    const rssRatio = cli.maxRss / written.bytes;
    const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
    const pass = (value: number, target: number) => `${value <= target ? 'PASS' : 'FAIL'} (target <= ${target})`;
    const text = [
      `pool-plan-scale: ${pool.length} of ${index.nodes.length.toLocaleString('en')} nodes, ${index.snapshot.pods.length.toLocaleString('en')} pods; snapshot ${mb(written.bytes)}`,
      `  plan: --max-unavailable ${maxUnavailable} (10 %): ${batches.length} batches (${blocked} blocked), ${planned.toLocaleString('en')} pods planned, verdict ${plan.value.verdict}`,
      `  ${baseline.value}: ${baseline.median.toFixed(2)} s (median of ${runs})`,
      `  pool plan, in process: ${plan.median.toFixed(2)} s = ${planRatio.toFixed(2)} x JSON.parse  ${pass(planRatio, TARGETS.planPerParse)}`,
      `  in CPU time: JSON.parse ${baseline.cpuMedian!.toFixed(2)} s, pool plan ${plan.cpuMedian!.toFixed(2)} s = ${(plan.cpuMedian! / baseline.cpuMedian!).toFixed(2)} x` +
        `  (load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(', ')})`,
      `  CLI end to end: ${cli.seconds.toFixed(1)} s (node -e parse: ${parse.seconds.toFixed(1)} s, ${(cli.seconds / parse.seconds).toFixed(2)} x)`,
      `  CLI peak RSS: ${mb(cli.maxRss)} = ${rssRatio.toFixed(2)} x the file  ${pass(rssRatio, TARGETS.peakRssPerFileByte)}` +
        `  (node -e parse: ${mb(parse.maxRss)})`,
    ].join('\n');
    return {
      title: 'pool-plan-scale',
      text,
      passed: planRatio <= TARGETS.planPerParse && rssRatio <= TARGETS.peakRssPerFileByte,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { scale: { type: 'string' }, runs: { type: 'string' } } });
  const report = await runPoolPlanScaleBench({
    ...(values.scale ? { scale: Number(values.scale) } : {}),
    ...(values.runs ? { runs: Number(values.runs) } : {}),
  });
  console.log(report.text);
  process.exitCode = report.passed ? 0 : 1;
}
