import { Box, Text } from 'ink';
import type { Tone as ToneName } from '../theme.js';
import { COLUMN_GAP } from '../text-columns.js';
import { Tone } from './Tone.js';

/**
 * One row of aligned cells. Every cell but the last has a fixed width; the last one wraps under itself
 * (a hanging indent), so a long scheduler message never runs back to the left margin.
 */
export function ColumnRow({
  cells,
  widths,
  tone,
  gap = COLUMN_GAP,
}: {
  cells: readonly string[];
  widths: readonly number[];
  tone?: ToneName | null | undefined;
  gap?: number;
}) {
  const paint = (text: string) => (tone ? <Tone tone={tone}>{text}</Tone> : <Text>{text}</Text>);
  return (
    <Box>
      {cells.slice(0, -1).map((cell, i) => (
        <Box key={i} width={(widths[i] ?? cell.length) + gap} flexShrink={0}>
          {paint(cell)}
        </Box>
      ))}
      <Box flexShrink={1}>{paint(cells.at(-1) ?? '')}</Box>
    </Box>
  );
}
