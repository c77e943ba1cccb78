import { Box, Text } from 'ink';
import { COMPARISON_HEADER, comparisonRow, type FateComparison } from '../plan-sections.js';
import { Columns } from './Columns.js';
import { Tone } from './Tone.js';

/** Drain and NoExecute taint side by side; red rows are pods the taint deletes that the drain holds back. */
export function NoExecuteComparison({
  rows,
  breaches,
}: {
  rows: readonly FateComparison[];
  breaches: readonly string[];
}) {
  return (
    <Box flexDirection="column">
      <Columns header={COMPARISON_HEADER} rows={rows.map(comparisonRow)} tones={rows.map((r) => r.tone)} />
      {breaches.length > 0 && <Tone tone="bad">Budgets the taint breaks:</Tone>}
      {breaches.map((b, i) => (
        <Box key={i} paddingLeft={2}>
          <Text>{b}</Text>
        </Box>
      ))}
    </Box>
  );
}
