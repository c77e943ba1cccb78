/**
 * The cluster audit on the lab: `kubectl maint audit` of every node of the lab as it is (grown by the
 * live-read bench, or by a fleet run's), against `kubectl maint plan NODE` of one of them, end to end, each
 * reading the cluster from the API server as a user's would; in wall time, CPU time and peak RSS.
 *
 * Both drain with --ignore-daemonsets --delete-emptydir-data --force. Each is run `runs` times,
 * alternating; the medians are compared. What the lab holds decides how much each node's plan costs
 * beyond the read: the report says how many pods the plans saw and how many replacements they placed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import type { ClusterAudit } from '../../src/plan/audit-types.js';
import type * as AuditScaleModule from './audit-scale.js';
import type * as PlanScaleModule from './plan-scale.js';
import type { ProcessRun } from './plan-scale.js';

/** The target (docs/benchmarks.md): the audit of every node within this many times one node's plan. */
const TARGET_AUDIT_PER_PLAN = 3;
const FLAGS = ['--ignore-daemonsets', '--delete-emptydir-data', '--force'];

const source = async <T>(file: string) => (await import(new URL(file, import.meta.url).href)) as T;

export interface AuditLiveOptions {
  /** The CLI (bin/kubectl-maint.js). */
  readonly maint: string;
  /** With KUBECONFIG the lab's. */
  readonly env: NodeJS.ProcessEnv;
  readonly runs: number;
  /** The node planned alone. */
  readonly node: string;
}

interface PlanJson {
  readonly pods: ReadonlyArray<{ readonly replacement?: { readonly placedOn?: string | null } | null }>;
}

export async function runAuditLiveBench(options: AuditLiveOptions): Promise<{ text: string; passed: boolean }> {
  const bench = await source<typeof PlanScaleModule>('./plan-scale.ts');
  const { medians } = await source<typeof AuditScaleModule>('./audit-scale.ts');
  const dir = mkdtempSync(path.join(tmpdir(), 'audit-live-'));
  const loadAtStart = loadavg()[0]!;
  try {
    const plans: Array<ProcessRun & { stdout: string }> = [];
    const audits: Array<ProcessRun & { stdout: string }> = [];
    for (let i = 0; i < Math.max(1, options.runs); i++) {
      const plan = [options.maint, 'plan', options.node, ...FLAGS, '-o', 'json'];
      plans.push(bench.runNode(dir, plan, 'kubectl maint plan', [0, 3, 5], options.env));
      const audit = [options.maint, 'audit', ...FLAGS, '-o', 'json'];
      audits.push(bench.runNode(dir, audit, 'kubectl maint audit', [0, 3, 4, 5], options.env));
    }
    const plan = medians(plans);
    const audit = medians(audits);
    const report = JSON.parse(audits[0]!.stdout) as ClusterAudit;
    const onePlan = JSON.parse(plans[0]!.stdout) as PlanJson;
    const removed = report.nodes.reduce((sum, n) => sum + n.evicted, 0);
    const verdicts = Object.entries(report.verdicts)
      .filter(([, n]) => n > 0)
      .map(([v, n]) => `${n.toLocaleString('en')} ${v}`)
      .join(', ');
    const ratio = audit.seconds / plan.seconds;
    const passed = ratio <= TARGET_AUDIT_PER_PLAN;
    const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
    const perNode = ((audit.cpuSeconds - plan.cpuSeconds) / Math.max(1, report.nodes.length - 1)) * 1000;
    const placed = onePlan.pods.filter((p) => p.replacement).length;
    const text = [
      `audit-live: every node of the lab (${report.nodes.length.toLocaleString('en')} nodes; their drains remove ${removed.toLocaleString('en')} pods), read from the API server`,
      `  audit: ${verdicts}; ${report.workloads.length.toLocaleString('en')} workloads hold nodes back`,
      `  plan ${options.node}: ${onePlan.pods.length} pods, ${placed} of them replaced (the rest deleted, bare, or left)`,
      `  end to end: plan ${plan.seconds.toFixed(1)} s (peak RSS ${mib(plan.maxRss)}), audit ${audit.seconds.toFixed(1)} s (peak RSS ${mib(audit.maxRss)})`,
      `  audit = ${ratio.toFixed(2)} x one node's plan  ${passed ? 'PASS' : 'FAIL'} (target <= ${TARGET_AUDIT_PER_PLAN})`,
      `  in CPU time: plan ${plan.cpuSeconds.toFixed(1)} s, audit ${audit.cpuSeconds.toFixed(1)} s = ${(audit.cpuSeconds / plan.cpuSeconds).toFixed(2)} x; each node beyond the first ${perNode.toFixed(1)} ms`,
      `  medians of ${plans.length} run${plans.length === 1 ? '' : 's'} each, alternating; load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end`,
    ].join('\n');
    return { text, passed };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
