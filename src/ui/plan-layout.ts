import type { AxisBlock, Block, PlanDocument, PlanSection, TableBlock, TextBlock } from './plan-document.js';
import { axisMarks } from './plan-document.js';
import { columnWidths, COLUMN_GAP, formatColumns, padToWidth } from './text-columns.js';
import { displayWidth, wrapText } from './text-wrap.js';
import type { Tone } from './theme.js';
import { drawTimelineAxis } from './timeline-axis.js';

/**
 * Lays a plan document out in lines no wider than a width: the text for pipes (width unlimited: the
 * long-standing text, unchanged), for a terminal (wrapped), and the lines the full-screen view scrolls.
 * Pure functions of (document, width).
 */

export interface StyledLine {
  readonly text: string;
  readonly tone: Tone | null;
  readonly bold: boolean;
  /** The focused section's header on the screen. */
  readonly inverse?: boolean;
}

/** `summary`: what the full-screen view leaves in the scrollback (the text's verdict, less its advice). */
export type LayoutMode = 'text' | 'screen' | 'summary';

/** The narrowest last column worth wrapping in place; narrower, a row is stacked instead. */
const MIN_WRAPPED_COLUMN = 24;
/** Time axes read well up to this width; wider ones only stretch. */
const MAX_AXIS_WIDTH = 72;

export function line(text: string, tone: Tone | null = null, bold = false): StyledLine {
  return { text, tone, bold };
}

export function layoutBlocks(blocks: readonly Block[], width: number, mode: LayoutMode): StyledLine[] {
  return blocks
    .filter((b) => mode === 'screen' || !b.screenOnly)
    .filter((b) => mode !== 'summary' || !b.notInSummary)
    .flatMap((b) => layoutBlock(b, width));
}

function layoutBlock(block: Block, width: number): StyledLine[] {
  switch (block.kind) {
    case 'text':
      return layoutText(block, width);
    case 'table':
      return layoutTable(block, width);
    case 'axis':
      return layoutAxis(block, width);
  }
}

function layoutText(block: TextBlock, width: number): StyledLine[] {
  const first = ' '.repeat(block.indent);
  const rest = ' '.repeat(block.indent + (block.hang ?? 0));
  return wrapText(block.text, width, first, rest).map((t) => line(t, block.tone ?? null, block.bold ?? false));
}

/**
 * A borderless table as kubectl prints one, when it fits. When the last column does not, it wraps under
 * itself; when even that leaves too little room, each row is stacked: its first cell, then the others
 * (labelled by the header) wrapped underneath. Names are never cut.
 */
function layoutTable(block: TableBlock, width: number): StyledLine[] {
  const indent = ' '.repeat(block.indent);
  const all = block.header ? [block.header, ...block.rows] : block.rows;
  const tones: (Tone | null)[] = block.header ? ['muted', ...(block.tones ?? [])] : [...(block.tones ?? [])];
  const widths = columnWidths(all);
  const fixed = block.indent + widths.reduce((sum, w) => sum + w + COLUMN_GAP, 0);
  const lastWidth = Math.max(0, ...all.map((r) => displayWidth(r.at(-1) ?? '')));
  if (!Number.isFinite(width) || fixed + lastWidth <= width) {
    return formatColumns(all, indent).map((t, i) => line(t, tones[i] ?? null));
  }
  if (block.lastCellBelow) return layoutLastCellBelow(block, width);
  if (all.every((r) => r.length > 1) && width - fixed >= MIN_WRAPPED_COLUMN) {
    return all.flatMap((row, i) => {
      const gap = ' '.repeat(COLUMN_GAP);
      const prefix = `${indent}${row
        .slice(0, -1)
        .map((c, j) => `${padToWidth(c, widths[j] ?? 0)}${gap}`)
        .join('')}`;
      return wrapText(row.at(-1) ?? '', width, prefix, ' '.repeat(fixed)).map((t) => line(t, tones[i] ?? null));
    });
  }
  return block.rows.flatMap((row, i) => stackRow(row, block, width, block.tones?.[i] ?? null));
}

/** Name, wave and budgets on one line (or stacked), the long reason wrapped below them. */
function layoutLastCellBelow(block: TableBlock, width: number): StyledLine[] {
  const heads: TableBlock = { kind: 'table', rows: block.rows.map((r) => r.slice(0, -1)), indent: block.indent };
  const headLines = block.rows.map((_, i) =>
    layoutTable(
      { ...heads, rows: [heads.rows[i] ?? []], ...(block.tones ? { tones: [block.tones[i] ?? null] } : {}) },
      width,
    ),
  );
  // Align the heads across rows when they fit side by side.
  const aligned = layoutTable({ ...heads, ...(block.tones ? { tones: block.tones } : {}) }, width);
  const fitsAligned = aligned.length === block.rows.length;
  const below = ' '.repeat(block.indent + 2);
  return block.rows.flatMap((row, i) => [
    ...(fitsAligned ? [aligned[i]!] : (headLines[i] ?? [])),
    ...wrapText(row.at(-1) ?? '', width, below).map((t) => line(t, block.tones?.[i] ?? null)),
  ]);
}

function stackRow(row: readonly string[], block: TableBlock, width: number, tone: Tone | null): StyledLine[] {
  const [first = '', ...rest] = row;
  const labelled = rest.map((cell, i) => {
    const label = block.header?.[i + 1];
    return label ? `${label.toLowerCase()}: ${cell}` : cell;
  });
  const indent = ' '.repeat(block.indent);
  return [...wrapText(first, width, indent, `${indent}  `), ...packItems(labelled, width, `${indent}  `)].map((t) =>
    line(t, tone),
  );
}

/**
 * Items ("allowed: 1") side by side, a line broken only between items, so a label never leaves its value;
 * an item wider than the line is wrapped on its own. Widths are terminal columns (a cell may hold wide
 * characters).
 */
function packItems(items: readonly string[], width: number, indent: string): string[] {
  const separator = ' · ';
  const lines: string[] = [];
  let current = '';
  for (const item of items) {
    if (current && displayWidth(`${indent}${current}${separator}${item}`) <= width) {
      current += `${separator}${item}`;
      continue;
    }
    if (current) lines.push(`${indent}${current}`);
    if (displayWidth(`${indent}${item}`) <= width) current = item;
    else {
      lines.push(...wrapText(item, width, indent, `${indent}  `));
      current = '';
    }
  }
  if (current) lines.push(`${indent}${current}`);
  return lines;
}

function layoutAxis(block: AxisBlock, width: number): StyledLine[] {
  const axisWidth = Math.max(20, Math.min(width - block.indent, MAX_AXIS_WIDTH));
  const [axis = '', ...labels] = drawTimelineAxis(axisMarks(block.timeline), axisWidth);
  const indent = ' '.repeat(block.indent);
  return [line(`${indent}${axis}`, 'accent'), ...labels.map((l) => line(`${indent}${l}`))];
}

/** A section's lines under its title (the title itself is the caller's: text and screen draw it differently). */
export function layoutSection(section: PlanSection, width: number, mode: LayoutMode): StyledLine[] {
  return layoutBlocks(section.blocks, width, mode);
}

/**
 * The plan as text: verdict and reasons, then each section under its title, a blank line between.
 * `width` unlimited gives the long-standing text for pipes and files.
 */
export function layoutPlanText(document: PlanDocument, width: number): string {
  const parts: string[][] = [
    [...wrapText(document.headline, width), ...layoutBlocks(document.verdict, width, 'text').map((l) => l.text)],
  ];
  for (const section of document.sections) {
    if (section.screenOnly) continue;
    parts.push([...wrapText(section.title, width), ...layoutSection(section, width, 'text').map((l) => l.text)]);
  }
  return `${parts.map((p) => p.join('\n')).join('\n\n')}\n`;
}
