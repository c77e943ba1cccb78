import { Box } from 'ink';
import type { Tone } from '../theme.js';
import { columnWidths } from '../text-columns.js';
import { ColumnRow } from './ColumnRow.js';

/** A borderless table: an optional dim header, then rows, each in its own tone (or none). */
export function Columns({
  rows,
  header,
  tones,
}: {
  rows: readonly (readonly string[])[];
  header?: readonly string[];
  tones?: readonly (Tone | null)[];
}) {
  const widths = columnWidths(header ? [header, ...rows] : rows);
  return (
    <Box flexDirection="column">
      {header && <ColumnRow cells={header} widths={widths} tone="muted" />}
      {rows.map((cells, i) => (
        <ColumnRow key={i} cells={cells} widths={widths} tone={tones?.[i]} />
      ))}
    </Box>
  );
}
