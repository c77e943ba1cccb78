import type { DrainPlan } from '../plan/types.js';
import {
  budgetBreaches,
  BUDGET_HEADER,
  budgetLine,
  budgetRow,
  COMPARISON_HEADER,
  comparisonRow,
  noExecuteComparison,
  placementText,
  podGroupRows,
  podGroups,
  replacementLines,
  unreplacedPods,
  verdictHeadline,
  warningLines,
} from './plan-sections.js';
import { nodeFailureTimeline, timelineRows } from './plan-timeline.js';
import { formatColumns } from './text-columns.js';

export interface PlanTextOptions {
  /** Also list, per rejected node, why a replacement cannot go there. */
  readonly details?: boolean;
  /**
   * Only what a drain is about to do (verdict, pods, budgets, replacements), as the preface of
   * `kubectl maint drain`; the comparisons and caveats are left to `kubectl maint plan`.
   */
  readonly brief?: boolean;
}

/**
 * The plan for a pipe or a log file: plain text, no colour, verdict first. Sections: verdict and reasons,
 * pods by outcome, budgets, replacements, drain vs NoExecute taint, node failure, caveats.
 *
 *   BLOCKED: draining k8s-node-1 cannot finish
 *     - demo/hello-a: no node can take its replacement
 *
 *   Pods on k8s-node-1 (4)
 *     Blocked: eviction never admitted (1)
 *       demo/hello-a   demo/hello (1 allowed)   replacement cannot be scheduled
 */
export function renderPlanText(plan: DrainPlan, options: PlanTextOptions = {}): string {
  const drainSections = [
    [verdictHeadline(plan), ...indent(plan.verdictReasons.map((r) => `- ${r}`)), ...warningLines(plan)],
    podsSection(plan),
    budgetsSection(plan),
    replacementsSection(plan, options.details ?? false),
  ];
  if (options.brief) {
    const more = `The NoExecute and node-failure comparisons and ${plan.caveats.length} caveats: kubectl maint plan ${plan.nodes.join(' ')}`;
    return joinSections([...drainSections, [more]]);
  }
  const timeline = nodeFailureTimeline(plan);
  const sections = [
    ...drainSections,
    noExecuteSection(plan),
    titled(timeline.title, formatColumns(timelineRows(timeline))),
    titled(
      'Caveats',
      plan.caveats.map((c) => `- ${c}`),
    ),
  ];
  return joinSections(sections);
}

function joinSections(sections: ReadonlyArray<readonly string[]>): string {
  return `${sections
    .filter((s) => s.length > 0)
    .map((s) => s.join('\n'))
    .join('\n\n')}\n`;
}

function indent(lines: readonly string[], by = '  '): string[] {
  return lines.map((l) => `${by}${l}`);
}

/** A heading over indented lines, or nothing when there are no lines. */
function titled(title: string, lines: readonly string[]): string[] {
  return lines.length === 0 ? [] : [title, ...indent(lines)];
}

function podsSection(plan: DrainPlan): string[] {
  if (plan.pods.length === 0) return [`No pods on ${plan.nodes.join(', ')}`];
  return titled(
    `Pods on ${plan.nodes.join(', ')} (${plan.pods.length})`,
    podGroups(plan).flatMap((g) => [`${g.title} (${g.pods.length})`, ...indent(formatColumns(podGroupRows(g)))]),
  );
}

function budgetsSection(plan: DrainPlan): string[] {
  const lines = plan.budgets.map(budgetLine);
  if (lines.length === 0) return [];
  const notes = lines.filter((b) => b.note).map((b) => `! ${b.name}: ${b.note}`);
  return titled('Budgets', [...formatColumns([BUDGET_HEADER, ...lines.map(budgetRow)]), ...notes]);
}

function replacementsSection(plan: DrainPlan, details: boolean): string[] {
  const lines = replacementLines(plan);
  const unreplaced = unreplacedPods(plan);
  const rejections = details
    ? lines.flatMap((r) => indent(r.rejected.map((n) => `${r.pod} not on ${n.node}: ${n.reasons}`)))
    : [];
  const lost = unreplaced.length > 0 ? [`Not recreated by any controller: ${unreplaced.join(', ')}`] : [];
  return titled('Replacements', [
    ...formatColumns(lines.map((r) => [r.pod, placementText(r)])),
    ...rejections,
    ...lost,
  ]);
}

function noExecuteSection(plan: DrainPlan): string[] {
  if (plan.pods.length === 0) return [];
  const breaches = budgetBreaches(plan);
  return titled(`Drain compared with a NoExecute taint ${plan.noExecute.taint}`, [
    ...formatColumns([COMPARISON_HEADER, ...noExecuteComparison(plan).map(comparisonRow)]),
    ...(breaches.length > 0 ? ['Budgets the taint breaks:', ...indent(breaches)] : []),
  ]);
}
