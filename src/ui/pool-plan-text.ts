import type { PoolBatch, PoolPlan } from '../plan/pool-types.js';
import type { Verdict } from '../plan/types.js';
import { formatColumns } from './text-columns.js';
import { formatSeconds } from './format.js';
import { plural } from '../wording.js';

const HEADLINE: Readonly<Record<string, string>> = {
  clear: 'CLEAR',
  slow: 'SLOW',
  blocked: 'BLOCKED',
  disruptive: 'DISRUPTIVE',
};

/**
 * The pool plan for a pipe or a log file, verdict first: the run's reasons, one row per batch (nodes,
 * verdict, pods evicted, budget waves, where the replacements land), each batch's reasons, then the
 * caveats. Each batch's full drain plan is in `-o json`.
 *
 *   SLOW: 6 nodes in 3 batches of at most 2
 *     - batch 1 (w6, w1) is slow: budget shop/web lets 1 pod go at a time: 2 waves, …
 */
export function renderPoolPlanText(plan: PoolPlan): string {
  const headline = `${verdictWord(plan.verdict)}: ${plural(plan.nodes.length, 'node')} in ${plural(plan.batches.length, 'batch', 'batches')} of at most ${plan.maxUnavailable}`;
  const sections: string[][] = [
    [headline, ...plan.verdictReasons.map((r) => `  - ${r}`)],
    ['Batches', ...formatColumns([BATCH_HEADER, ...plan.batches.map(batchRow)]).map((l) => `  ${l}`)],
    estimateSection(plan),
    ...plan.batches.map(batchSection),
  ];
  if (plan.movedTwice.length > 0) {
    sections.push([
      `Moved twice (their replacements land on nodes of later batches)`,
      `  ${plan.movedTwice.join(', ')}`,
    ]);
  }
  sections.push(['Caveats', ...plan.caveats.map((c) => `  - ${c}`)]);
  return `${sections.map((s) => s.join('\n')).join('\n\n')}\n`;
}

const BATCH_HEADER = [
  'BATCH',
  'NODES',
  'VERDICT',
  'PODS',
  'WAVES',
  'ESTIMATE',
  'REPLACEMENTS ON DONE/LATER/OTHER NODES',
];

function batchRow(b: PoolBatch): string[] {
  const r = b.replacementsOn;
  return [
    String(b.number),
    b.nodes.join(', '),
    b.verdict,
    String(b.evicted),
    String(b.waves),
    b.eta.totalSeconds === null ? 'never' : formatSeconds(b.eta.totalSeconds),
    `${r.doneNodes}/${r.laterNodes}/${r.outsidePool}`,
  ];
}

/** The run's estimate and what it rests on: the command's time is the operator's assumption, named. */
function estimateSection(plan: PoolPlan): string[] {
  const total = plan.eta.totalSeconds;
  return [
    total === null ? 'Estimate: none (a batch cannot finish)' : `Estimate: about ${formatSeconds(total)} for the run`,
    ...plan.eta.basis.map((b) => `  - ${b}`),
  ];
}

function batchSection(b: PoolBatch): string[] {
  return [`Batch ${b.number}: ${b.nodes.join(', ')} (${b.verdict})`, ...b.verdictReasons.map((r) => `  - ${r}`)];
}

function verdictWord(verdict: Verdict): string {
  return HEADLINE[verdict] ?? verdict.toUpperCase();
}
