import type { DrainPlan } from '../plan/types.js';
import { planAdvice } from './plan-advice.js';
import {
  budgetBreaches,
  BUDGET_HEADER,
  budgetLine,
  budgetRow,
  COMPARISON_HEADER,
  comparisonRow,
  isPerPodGroup,
  noExecuteComparison,
  orderSection,
  optOutSection,
  admissionSection,
  etaSection,
  placementText,
  podGroupRows,
  podGroups,
  replacementLines,
  unreplacedPods,
  verdictHeadline,
  warningLines,
} from './plan-sections.js';
import { axisSeconds, nodeFailureTimeline, noExecuteTimeline, timelineRows, type Timeline } from './plan-timeline.js';
import { VERDICT_TONES, type Tone } from './theme.js';

/**
 * The plan as a document: the verdict, then titled sections of blocks (lines of text, tables, time
 * axes). It says nothing about width: plan-layout.ts lays it out for a pipe (no wrapping), a terminal
 * (wrapped) or the full-screen view (wrapped, folded, scrolled). One document, so the text and the
 * screen never disagree on what a plan says.
 */

export interface TextBlock {
  readonly kind: 'text';
  readonly text: string;
  /** Columns before the first line. */
  readonly indent: number;
  /** Extra columns before the continuation lines, e.g. 2 under "- ". */
  readonly hang?: number;
  readonly tone?: Tone | null;
  readonly bold?: boolean;
}

export interface TableBlock {
  readonly kind: 'table';
  readonly header?: readonly string[];
  readonly rows: readonly (readonly string[])[];
  /** One per row. */
  readonly tones?: readonly (Tone | null)[];
  readonly indent: number;
  /** When the table is wider than the screen: each row's last cell on its own lines under the others. */
  readonly lastCellBelow?: boolean;
}

export interface AxisBlock {
  readonly kind: 'axis';
  readonly timeline: Timeline;
  readonly indent: number;
}

export type Block = (TextBlock | TableBlock | AxisBlock) & {
  /** Only on the full-screen view; the text keeps its long-standing shape. */
  readonly screenOnly?: boolean;
  /** Left out of what the view leaves in the scrollback (its summary ends with the next command instead). */
  readonly notInSummary?: boolean;
};

export type SectionId =
  | 'pods'
  | 'opt-out'
  | 'admission'
  | 'order'
  | 'budgets'
  | 'replacements'
  | 'eta'
  | 'noexecute'
  | 'taint-timeline'
  | 'failure-timeline'
  | 'caveats'
  // A pool plan's sections.
  | 'batches'
  | 'run-estimate'
  | `batch-${number}`
  | 'moved-twice'
  // The cluster audit's sections.
  | 'audit-workloads'
  | 'audit-nodes';

export interface PlanSection {
  readonly id: SectionId;
  readonly title: string;
  readonly blocks: readonly Block[];
  readonly screenOnly?: boolean;
}

export interface PlanDocument {
  /** "SLOW: draining k8s-node-1 waits for disruption budgets". */
  readonly headline: string;
  readonly tone: Tone;
  /** The verdict's reasons and what to do about them: always the first lines. */
  readonly verdict: readonly Block[];
  readonly sections: readonly PlanSection[];
  readonly nextCommand?: string | undefined;
  /** A line above the headline on the full-screen view, saying what is shown (the demo: which example). */
  readonly title?: string | undefined;
  /** What q does, when it does more than quit (the demo: "q next example"). */
  readonly quitHint?: string | undefined;
}

export interface PlanDocumentOptions {
  /** Per rejected node, why a replacement cannot go there. */
  readonly details?: boolean;
  /** The command to run next, with the user's own flags (the screen's "what to do"). */
  readonly nextCommand?: string | undefined;
}

const BULLET_HANG = 2;

export function planDocument(plan: DrainPlan, options: PlanDocumentOptions = {}): PlanDocument {
  const sections: (PlanSection | null)[] = [
    podsSection(plan),
    optOutTable(plan),
    admissionTable(plan),
    linesSection('order', orderSection(plan)),
    budgetsSection(plan),
    replacementsSection(plan, options.details ?? false),
    linesSection('eta', etaSection(plan)),
    noExecuteSection(plan),
    plan.pods.length > 0 ? timelineSection('taint-timeline', noExecuteTimeline(plan), true) : null,
    timelineSection('failure-timeline', nodeFailureTimeline(plan), false),
    caveatsSection(plan),
  ];
  return {
    headline: verdictHeadline(plan),
    tone: VERDICT_TONES[plan.verdict],
    verdict: verdictBlocks(plan, options.nextCommand),
    sections: sections.filter((s): s is PlanSection => s !== null),
    nextCommand: options.nextCommand,
  };
}

function bullet(text: string, indent: number, tone: Tone | null = null, notInSummary = false): Block {
  return { kind: 'text', text: `- ${text}`, indent, hang: BULLET_HANG, tone, notInSummary };
}

function verdictBlocks(plan: DrainPlan, nextCommand: string | undefined): Block[] {
  const advice = planAdvice(plan, nextCommand);
  return [
    ...plan.verdictReasons.map((r) => bullet(r, 2)),
    // What the drain destroys for good: right under the reasons, in text, on the screen and in the summary.
    ...warningLines(plan).map((w): Block => ({ kind: 'text', text: w, indent: 0, hang: 2, tone: 'warn', bold: true })),
    ...cordonedLines(plan).map((t): Block => ({ kind: 'text', text: t, indent: 0, hang: 2, tone: 'muted' })),
    ...(advice.length > 0
      ? [
          { kind: 'text', text: 'What to do:', indent: 0, bold: true, notInSummary: true } as const,
          ...advice.map((a) => bullet(a, 2, 'accent', true)),
        ]
      : []),
  ];
}

/** A drained node someone cordoned before the plan: said, since the drain neither cordons nor owns it then. */
function cordonedLines(plan: DrainPlan): string[] {
  const nodes = plan.alreadyCordoned ?? [];
  if (nodes.length === 0) return [];
  const which = nodes.length === 1 ? `${nodes[0]} is` : `${nodes.join(', ')} are`;
  return [
    `Note: ${which} already cordoned (spec.unschedulable): no new pod is placed there; a drain leaves ${nodes.length === 1 ? 'it' : 'them'} cordoned and does not undo that cordon`,
  ];
}

function podsSection(plan: DrainPlan): PlanSection {
  const nodes = plan.nodes.join(', ');
  if (plan.pods.length === 0) return { id: 'pods', title: `No pods on ${nodes}`, blocks: [] };
  const blocks = podGroups(plan).flatMap((group): Block[] => {
    const rows = podGroupRows(group);
    const title: Block = {
      kind: 'text',
      text: `${group.title} (${group.pods.length})`,
      indent: 2,
      tone: group.tone,
      bold: true,
    };
    if (!isPerPodGroup(group.key)) {
      return [title, ...rows.map((row): Block => ({ kind: 'text', text: row[0] ?? '', indent: 4, hang: BULLET_HANG }))];
    }
    return [title, { kind: 'table', rows, indent: 4, lastCellBelow: true }];
  });
  return { id: 'pods', title: `Pods on ${nodes} (${plan.pods.length})`, blocks };
}

/** A titled list of lines (the eviction order, the estimate), or nothing when it has no title. */
function linesSection(id: SectionId, section: { title: string; lines: readonly string[] }): PlanSection | null {
  if (section.title === '') return null;
  return {
    id,
    title: section.title,
    blocks: section.lines.map((text): Block => ({ kind: 'text', text, indent: 2, hang: 2 })),
  };
}

function optOutTable(plan: DrainPlan): PlanSection | null {
  const { title, rows } = optOutSection(plan);
  if (rows.length === 0) return null;
  return { id: 'opt-out', title, blocks: [{ kind: 'table', rows, tones: rows.map(() => 'warn'), indent: 2 }] };
}

function admissionTable(plan: DrainPlan): PlanSection | null {
  const { title, rows, tones } = admissionSection(plan);
  if (rows.length === 0) return null;
  return { id: 'admission', title, blocks: [{ kind: 'table', rows, tones, indent: 2, lastCellBelow: true }] };
}

function budgetsSection(plan: DrainPlan): PlanSection | null {
  const lines = plan.budgets.map((b) => budgetLine(b, plan.pods));
  if (lines.length === 0) return null;
  return {
    id: 'budgets',
    title: 'Budgets',
    blocks: [
      { kind: 'table', header: BUDGET_HEADER, rows: lines.map(budgetRow), tones: lines.map((b) => b.tone), indent: 2 },
      ...lines
        .filter((b) => b.note)
        .map((b): Block => ({ kind: 'text', text: `! ${b.name}: ${b.note}`, indent: 2, hang: 2, tone: b.tone })),
    ],
  };
}

function replacementsSection(plan: DrainPlan, details: boolean): PlanSection | null {
  const lines = replacementLines(plan);
  const unreplaced = unreplacedPods(plan);
  if (lines.length === 0 && unreplaced.length === 0) return null;
  const blocks: Block[] = [];
  if (lines.length > 0) {
    blocks.push({
      kind: 'table',
      rows: lines.map((r) => [r.pod, placementText(r)]),
      tones: lines.map((r) => r.tone),
      indent: 2,
    });
  }
  if (details) {
    for (const line of lines) {
      for (const n of line.rejected) {
        blocks.push({
          kind: 'text',
          text: `${line.pod} not on ${n.node}: ${n.reasons}`,
          indent: 4,
          hang: 2,
          tone: 'muted',
        });
      }
    }
  }
  if (unreplaced.length > 0) {
    blocks.push({
      kind: 'text',
      text: `Not recreated by any controller: ${unreplaced.join(', ')}`,
      indent: 2,
      hang: 2,
      tone: 'warn',
    });
  }
  return { id: 'replacements', title: 'Replacements', blocks };
}

function noExecuteSection(plan: DrainPlan): PlanSection | null {
  if (plan.pods.length === 0) return null;
  const rows = noExecuteComparison(plan);
  const breaches = budgetBreaches(plan);
  return {
    id: 'noexecute',
    title: `Drain compared with a NoExecute taint ${plan.noExecute.taint}`,
    blocks: [
      {
        kind: 'table',
        header: COMPARISON_HEADER,
        rows: rows.map(comparisonRow),
        tones: rows.map((r) => r.tone),
        indent: 2,
      },
      ...(breaches.length > 0
        ? [
            { kind: 'text', text: 'Budgets the taint breaks:', indent: 2, tone: 'bad' } as const,
            ...breaches.map((b): Block => ({ kind: 'text', text: b, indent: 4, hang: 2 })),
          ]
        : []),
    ],
  };
}

function timelineSection(id: SectionId, timeline: Timeline, screenOnly: boolean): PlanSection | null {
  const rows = timelineRows(timeline);
  if (rows.length === 0) return null;
  return {
    id,
    title: timeline.title,
    screenOnly,
    blocks: [
      { kind: 'axis', timeline, indent: 2, screenOnly: true },
      { kind: 'table', rows, tones: rows.map((r) => (r[0] === 'never' ? 'muted' : null)), indent: 2 },
    ],
  };
}

function caveatsSection(plan: DrainPlan): PlanSection | null {
  if (plan.caveats.length === 0) return null;
  return { id: 'caveats', title: 'Caveats', blocks: plan.caveats.map((c) => bullet(c, 2, 'muted')) };
}

/** The axis labels of a timeline, as drawn on the screen. */
export function axisMarks(timeline: Timeline): { atSeconds: number; text: string }[] {
  return timeline.marks.map((m) => ({ atSeconds: m.atSeconds, text: axisSeconds(m.atSeconds) }));
}
