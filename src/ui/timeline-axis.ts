/**
 * A horizontal time axis drawn with characters: one ● per mark, placed linearly between 0 and the
 * latest mark, with the times written underneath. Labels that would collide move to a second row instead
 * of being dropped. Pure: the Ink timeline and tests both use it.
 *
 *   ●────────●──────────●────────────────────────────▶
 *   0s       50s        110s                       350s
 */

export interface AxisMark {
  readonly atSeconds: number;
  readonly text: string;
}

const MARK = '●';
const LINE = '─';
const ARROW = '▶';

/** Columns of each mark on an axis `width` wide (the last column is the arrow), strictly increasing. */
export function markColumns(times: readonly number[], width: number): number[] {
  const last = Math.max(1, width - 2);
  const max = Math.max(0, ...times);
  const columns: number[] = [];
  for (const t of times) {
    const ideal = max === 0 ? 0 : Math.round((t / max) * last);
    const previous = columns.at(-1);
    columns.push(previous === undefined ? ideal : Math.max(ideal, previous + 1));
  }
  return columns;
}

export function drawTimelineAxis(marks: readonly AxisMark[], width: number): string[] {
  const columns = markColumns(
    marks.map((m) => m.atSeconds),
    width,
  );
  const axisWidth = Math.max(width, (columns.at(-1) ?? 0) + 2);
  const axis = Array.from<unknown, string>({ length: axisWidth }, (_, i) => (i === axisWidth - 1 ? ARROW : LINE));
  columns.forEach((c) => (axis[c] = MARK));
  // A label that would run past the arrow ends under its mark instead of starting there.
  const labels = placeLabels(
    marks.map((m, i) => ({ column: Math.max(0, Math.min(columns[i] ?? 0, axisWidth - m.text.length)), text: m.text })),
  );
  return [axis.join(''), ...labels];
}

/**
 * Greedy rows: each label goes on the first row where it starts at least one space after the previous
 * label's end.
 */
export function placeLabels(labels: readonly { column: number; text: string }[]): string[] {
  const rows: string[] = [];
  for (const { column, text } of labels) {
    let row = rows.findIndex((r) => r.length === 0 || r.length + 1 <= column);
    if (row === -1) {
      rows.push('');
      row = rows.length - 1;
    }
    rows[row] = (rows[row] ?? '').padEnd(column) + text;
  }
  return rows;
}
