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
