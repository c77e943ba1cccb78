import { displayWidth, truncateToWidth } from './text-wrap.js';

/**
 * Aligned columns like kubectl's tabwriter (3 spaces between columns, no borders, no trailing spaces).
 * Plain padding rather than cli-table3 (a borderless cli-table3 still pads the last column and colours
 * headers), by terminal columns: a label value or a message from the cluster may hold wide characters.
 */
export const COLUMN_GAP = 3;

/** The width of every column but the last, which is left ragged. */
export function columnWidths(rows: readonly (readonly string[])[]): number[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.slice(0, -1).forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, displayWidth(cell));
    });
  }
  return widths;
}

export function formatColumns(rows: readonly (readonly string[])[], indent = ''): string[] {
  const widths = columnWidths(rows);
  return rows.map((row) => {
    const cells = row.map((cell, i) => (i === row.length - 1 ? cell : padToWidth(cell, widths[i] ?? 0)));
    return `${indent}${cells.join(' '.repeat(COLUMN_GAP))}`.trimEnd();
  });
}

/** `cell` padded with spaces to `width` terminal columns (a wide character takes two, padEnd counts one). */
export function padToWidth(cell: string, width: number): string {
  return cell + ' '.repeat(Math.max(0, width - displayWidth(cell)));
}

/** A column that may be cut: its index, or its index and the width it keeps at this step (default: its header's). */
export type Shrinkable = number | readonly [column: number, keeps: number];

/**
 * The rows (the first one the header) with cells cut so that formatColumns lays them out within `width`:
 * the steps in `shrinkable`, in that order, each cut its column by what is needed, down to the width it
 * keeps (never below its header's), a cut cell ending in an ellipsis. A column named twice keeps a fair
 * width at its first step and gives up the rest only after the others. Columns not named are never cut
 * (a run's id is what the user types next); when they alone are wider than `width`, the rows stay wider.
 */
export function fitColumns(
  rows: readonly (readonly string[])[],
  width: number,
  shrinkable: readonly Shrinkable[],
): string[][] {
  const header = rows[0] ?? [];
  const widths = header.map((_, i) => Math.max(...rows.map((row) => displayWidth(row[i] ?? ''))));
  let excess = tableWidth(widths) - width;
  for (const step of shrinkable) {
    if (excess <= 0) break;
    const [column, keeps] = typeof step === 'number' ? [step, 0] : step;
    const floor = Math.min(widths[column]!, Math.max(keeps, displayWidth(header[column] ?? '')));
    const given = Math.min(excess, widths[column]! - floor);
    widths[column]! -= given;
    excess -= given;
  }
  return rows.map((row) => row.map((cell, i) => truncateToWidth(cell, widths[i] ?? 0)));
}

/** The width formatColumns gives rows whose columns are this wide (the gaps included). */
export function tableWidth(columnWidths: readonly number[]): number {
  return columnWidths.reduce((sum, w) => sum + w, 0) + COLUMN_GAP * Math.max(0, columnWidths.length - 1);
}
