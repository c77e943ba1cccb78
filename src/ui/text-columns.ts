import { displayWidth, truncateToWidth } from './text-wrap.js';

/**
 * Aligned columns like kubectl's tabwriter (3 spaces between columns, no borders, no trailing spaces).
 * Plain padding rather than cli-table3: Kubernetes names and our reasons are ASCII, and a borderless
 * cli-table3 still pads the last column and colours headers.
 */
export const COLUMN_GAP = 3;

/** The width of every column but the last, which is left ragged. */
export function columnWidths(rows: readonly (readonly string[])[]): number[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.slice(0, -1).forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  return widths;
}

export function formatColumns(rows: readonly (readonly string[])[], indent = ''): string[] {
  const widths = columnWidths(rows);
  return rows.map((row) => {
    const cells = row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)));
    return `${indent}${cells.join(' '.repeat(COLUMN_GAP))}`.trimEnd();
  });
}

/**
 * The rows (the first one the header) with cells cut so that formatColumns lays them out within `width`:
 * the columns in `shrinkable`, in that order, each give up what is needed, down to its header's width,
 * a cut cell ending in an ellipsis. The other columns are never cut (a run's id is what the user types
 * next); when they alone are wider than `width`, the rows stay wider.
 */
export function fitColumns(
  rows: readonly (readonly string[])[],
  width: number,
  shrinkable: readonly number[],
): string[][] {
  const header = rows[0] ?? [];
  const widths = header.map((_, i) => Math.max(...rows.map((row) => displayWidth(row[i] ?? ''))));
  let excess = widths.reduce((sum, w) => sum + w, 0) + COLUMN_GAP * (widths.length - 1) - width;
  for (const column of shrinkable) {
    if (excess <= 0) break;
    const floor = Math.min(widths[column]!, displayWidth(header[column] ?? ''));
    const given = Math.min(excess, widths[column]! - floor);
    widths[column]! -= given;
    excess -= given;
  }
  return rows.map((row) => row.map((cell, i) => truncateToWidth(cell, widths[i] ?? 0)));
}
