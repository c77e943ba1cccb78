import type { PoolBatch, PoolPlan } from '../plan/pool-types.js';
import type { Verdict } from '../plan/types.js';
import type { Block, PlanDocument, PlanSection } from './plan-document.js';
import { layoutPlanText } from './plan-layout.js';
import { UNLIMITED_WIDTH } from './text-wrap.js';
import { VERDICT_TONES } from './theme.js';
import { formatSeconds } from './format.js';
import { plural } from '../wording.js';

const HEADLINE: Readonly<Record<string, string>> = {
  clear: 'CLEAR',
  slow: 'SLOW',
  blocked: 'BLOCKED',
  disruptive: 'DISRUPTIVE',
};

export interface PoolPlanTextOptions {
  /** Wrap to this many columns (a terminal's); unlimited by default, for pipes and files. */
  readonly width?: number | undefined;
  /**
   * Only the verdict, the batches and the estimate, as the preface of `kubectl maint run`; each batch's
   * reasons and the caveats are left to the command named here.
   */
  readonly briefFor?: string | undefined;
}

/**
 * The pool plan as text, verdict first: the run's reasons, one row per batch (nodes, verdict, pods
 * evicted, budget waves, where the replacements land), the estimate, each batch's reasons, then the
 * caveats. Each batch's full drain plan is in `-o json`.
 *
 *   SLOW: 6 nodes in 3 batches of at most 2
 *     - batch 1 (w6, w1) is slow: budget shop/web lets 1 pod go at a time: 2 waves, …
 */
export function renderPoolPlanText(plan: PoolPlan, options: PoolPlanTextOptions = {}): string {
  const document = poolPlanDocument(plan);
  const width = options.width ?? UNLIMITED_WIDTH;
  if (options.briefFor === undefined) return layoutPlanText(document, width);
  const more = `Each batch's reasons and ${plural(plan.caveats.length, 'caveat')}: ${options.briefFor}`;
  const brief: PlanDocument = {
    ...document,
    sections: [
      ...document.sections.filter((s) => s.id === 'batches' || s.id === 'run-estimate'),
      { id: 'caveats', title: more, blocks: [] },
    ],
  };
  return layoutPlanText(brief, width);
}

/** The pool plan as a document: what the text and the full-screen view both lay out. */
export function poolPlanDocument(plan: PoolPlan, nextCommand?: string): PlanDocument {
  const sections: PlanSection[] = [
    {
      id: 'batches',
      title: 'Batches',
      blocks: [{ kind: 'table', header: BATCH_HEADER, rows: plan.batches.map(batchRow), indent: 2 }],
    },
    estimateSection(plan),
    ...plan.batches.map(batchSection),
  ];
  if (plan.movedTwice.length > 0) {
    sections.push({
      id: 'moved-twice',
      title: 'Moved twice (their replacements land on nodes of later batches)',
      blocks: [{ kind: 'text', text: plan.movedTwice.join(', '), indent: 2 }],
    });
  }
  sections.push({ id: 'caveats', title: 'Caveats', blocks: plan.caveats.map((c) => bullet(c)) });
  return {
    headline: poolHeadline(plan),
    tone: VERDICT_TONES[plan.verdict],
    verdict: plan.verdictReasons.map((r) => bullet(r)),
    sections,
    nextCommand,
  };
}

/** "SLOW: 6 nodes in 3 batches of at most 2". */
export function poolHeadline(plan: PoolPlan): string {
  return `${verdictWord(plan.verdict)}: ${plural(plan.nodes.length, 'node')} in ${plural(plan.batches.length, 'batch', 'batches')} of at most ${plan.maxUnavailable}`;
}

function bullet(text: string): Block {
  return { kind: 'text', text: `- ${text}`, indent: 2, hang: 2 };
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
function estimateSection(plan: PoolPlan): PlanSection {
  const total = plan.eta.totalSeconds;
  return {
    id: 'run-estimate',
    title:
      total === null ? 'Estimate: none (a batch cannot finish)' : `Estimate: about ${formatSeconds(total)} for the run`,
    blocks: plan.eta.basis.map((b) => bullet(b)),
  };
}

function batchSection(b: PoolBatch): PlanSection {
  return {
    id: `batch-${b.number}`,
    title: `Batch ${b.number}: ${b.nodes.join(', ')} (${b.verdict})`,
    blocks: [
      ...(b.smaller === undefined ? [] : [bullet(`fewer nodes than allowed: ${b.smaller}`)]),
      ...b.verdictReasons.map((r) => bullet(r)),
    ],
  };
}

function verdictWord(verdict: Verdict): string {
  return HEADLINE[verdict] ?? verdict.toUpperCase();
}
