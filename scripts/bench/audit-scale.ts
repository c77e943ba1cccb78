/**
 * The cluster audit at scale: `kubectl maint audit` of every node of a generated cluster (by default
 * 1,500 nodes / 45,000 pods, scale 0.3 of plan-scale's), against one node's plan on the same snapshot,
 * measured in the same run:
 *
 *   wall time   `kubectl maint audit --snapshot FILE` against `kubectl maint plan NODE --snapshot FILE`, end
 *               to end (each reads the file once): the ratio a user sees, and each one's peak RSS
 *   CPU time    the same two processes' CPU time, which the machine's load moves least, and from it what
 *               the audit spends per node beyond the plan of one
 *
 * Both drain with --ignore-daemonsets --delete-emptydir-data --force, so that every pod goes through the
 * budget waves and the scheduling simulation. The node planned alone is the general pool's first by name.
 *
 * Each is run `--runs` times, alternating; the medians are compared.
 *
 * Run on its own after `npm run build`: node scripts/bench/audit-scale.ts [--scale 0.3] [--runs 1]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { ClusterAudit } from '../../src/plan/audit-types.js';
import type * as IndexModule from '../../src/snapshot/cluster-index.js';
import type * as LoadFileModule from '../../src/snapshot/load-file.js';
import type * as PlanScaleModule from './plan-scale.js';
import type { ProcessRun } from './plan-scale.js';
import type * as Stats from './stats.js';
import type * as GeneratorModule from './synthetic-cluster.js';

/** The target (docs/benchmarks.md): the audit of every node within this many times one node's plan, end to end. */
const TARGET_AUDIT_PER_PLAN = 3;
const POOL_LABEL = 'node.example.com/pool';
const FLAGS = ['--ignore-daemonsets', '--delete-emptydir-data', '--force'];
/** 1,500 nodes / 45,000 pods. */
export const DEFAULT_AUDIT_SCALE = 0.3;

const ROOT = path.resolve(import.meta.dirname, '../..');
const dist = async <T>(file: string) => (await import(pathToFileURL(path.join(ROOT, 'dist', file)).href)) as T;
// Imported by URL: node resolves a .ts file only by its own name.
const source = async <T>(file: string) => (await import(new URL(file, import.meta.url).href)) as T;
const { median } = await source<typeof Stats>('./stats.ts');

export interface AuditScaleOptions {
  /** Fraction of plan-scale's 5,000-node cluster (default 0.3: 1,500 nodes / 45,000 pods). */
  readonly scale?: number;
  /** Runs of one node's plan and of the audit, alternating, the medians kept. */
  readonly runs?: number;
}

export async function runAuditScaleBench(
  options: AuditScaleOptions = {},
): Promise<{ title: string; text: string; passed: boolean }> {
  const bench = await source<typeof PlanScaleModule>('./plan-scale.ts');
  const generator = await source<typeof GeneratorModule>('./synthetic-cluster.ts');
  const { loadSnapshotFile } = await dist<typeof LoadFileModule>('snapshot/load-file.js');
  const { ClusterIndex } = await dist<typeof IndexModule>('snapshot/cluster-index.js');
  const scale = options.scale ?? DEFAULT_AUDIT_SCALE;
  const runs = Math.max(1, options.runs ?? 1);
  const dir = mkdtempSync(path.join(tmpdir(), 'audit-scale-'));
  const loadAtStart = loadavg()[0]!;
  try {
    const file = path.join(dir, 'snapshot.json');
    const written = await generator.writeSyntheticCluster(file, bench.scaledCluster(generator.FULL_SCALE, scale));

    const index = new ClusterIndex(await loadSnapshotFile(file));
    const names = index.nodes.map((n) => n.metadata?.name ?? '');
    const node = index.nodes
      .filter((n) => n.metadata?.labels?.[POOL_LABEL] === 'general')
      .map((n) => n.metadata?.name ?? '')
      .sort()[0]!;

    // Alternating, so that the load moves both sides alike; each figure the median of its runs.
    const plans: ProcessRun[] = [];
    const audits: Array<ProcessRun & { stdout: string }> = [];
    for (let i = 0; i < runs; i++) {
      plans.push(
        bench.runNode(
          dir,
          [bench.CLI, 'plan', node, '--snapshot', file, ...FLAGS, '-o', 'json'],
          'kubectl maint plan',
          [0, 3, 5],
        ),
      );
      audits.push(
        bench.runNode(
          dir,
          [bench.CLI, 'audit', '--snapshot', file, ...FLAGS, '-o', 'json'],
          'kubectl maint audit',
          [0, 3, 4, 5],
        ),
      );
    }
    const cliPlan = medians(plans);
    const cliAudit = { ...medians(audits), stdout: audits[0]!.stdout };
    const audit = JSON.parse(cliAudit.stdout) as ClusterAudit;
    if (audit.nodes.length !== names.length) {
      throw new Error(`the CLI audited ${audit.nodes.length} of ${names.length} nodes`);
    }
    const verdicts = Object.entries(audit.verdicts)
      .filter(([, n]) => n > 0)
      .map(([v, n]) => `${n.toLocaleString('en')} ${v}`)
      .join(', ');

    const ratio = cliAudit.seconds / cliPlan.seconds;
    const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
    const perNode = ((cliAudit.cpuSeconds - cliPlan.cpuSeconds) / (names.length - 1)) * 1000;
    const text = [
      `audit-scale: ${names.length.toLocaleString('en')} nodes, ${index.snapshot.pods.length.toLocaleString('en')} pods; snapshot ${mb(written.bytes)}`,
      `  audit: ${verdicts}; ${audit.workloads.length.toLocaleString('en')} workloads hold nodes back`,
      `  CLI end to end: plan ${node} ${cliPlan.seconds.toFixed(1)} s (peak RSS ${mb(cliPlan.maxRss)}), ` +
        `audit of every node ${cliAudit.seconds.toFixed(1)} s (peak RSS ${mb(cliAudit.maxRss)})`,
      `  audit = ${ratio.toFixed(2)} x one node's plan  ${ratio <= TARGET_AUDIT_PER_PLAN ? 'PASS' : 'FAIL'} (target <= ${TARGET_AUDIT_PER_PLAN})`,
      `  in CPU time: plan ${cliPlan.cpuSeconds.toFixed(1)} s, audit ${cliAudit.cpuSeconds.toFixed(1)} s = ` +
        `${(cliAudit.cpuSeconds / cliPlan.cpuSeconds).toFixed(2)} x; each node beyond the first ${perNode.toFixed(0)} ms`,
      `  medians of ${runs} run${runs === 1 ? '' : 's'} each, alternating; load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end`,
    ].join('\n');
    return { title: 'audit-scale', text, passed: ratio <= TARGET_AUDIT_PER_PLAN };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Each figure of the runs, its median. */
export function medians(runs: readonly ProcessRun[]): ProcessRun {
  return {
    seconds: median(runs.map((r) => r.seconds)),
    cpuSeconds: median(runs.map((r) => r.cpuSeconds)),
    maxRss: median(runs.map((r) => r.maxRss)),
  };
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { scale: { type: 'string' }, runs: { type: 'string' } } });
  const report = await runAuditScaleBench({
    ...(values.scale ? { scale: Number(values.scale) } : {}),
    ...(values.runs ? { runs: Number(values.runs) } : {}),
  });
  console.log(report.text);
  process.exitCode = report.passed ? 0 : 1;
}
