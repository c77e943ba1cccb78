import { Box, Text } from 'ink';
import { placementText, type ReplacementLine } from '../plan-sections.js';
import { columnWidths } from '../text-columns.js';
import { ColumnRow } from './ColumnRow.js';
import { Tone } from './Tone.js';

/**
 * Where each replacement goes: the node, or the scheduler's FailedScheduling message. With `details`, the
 * per-node reasons under each pod, in the scheduler's own words.
 */
export function ReplacementList({
  lines,
  unreplaced,
  details,
}: {
  lines: readonly ReplacementLine[];
  unreplaced: readonly string[];
  details: boolean;
}) {
  const rows = lines.map((r) => [r.pod, placementText(r)]);
  const widths = columnWidths(rows);
  return (
    <Box flexDirection="column">
      {lines.map((line, i) => (
        <Box key={line.pod} flexDirection="column">
          <ColumnRow cells={rows[i] ?? []} widths={widths} tone={line.tone} />
          {details &&
            line.rejected.map((n) => (
              <Box key={n.node} paddingLeft={4}>
                <Tone tone="muted">
                  not on {n.node}: {n.reasons}
                </Tone>
              </Box>
            ))}
        </Box>
      ))}
      {unreplaced.length > 0 && (
        <Text>
          <Tone tone="warn">Not recreated by any controller: </Tone>
          {unreplaced.join(', ')}
        </Text>
      )}
    </Box>
  );
}
