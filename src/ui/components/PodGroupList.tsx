import { Box, Text } from 'ink';
import { isPerPodGroup, podGroupRows, type PodGroup } from '../plan-sections.js';
import { columnWidths } from '../text-columns.js';
import { ColumnRow } from './ColumnRow.js';
import { Tone } from './Tone.js';

/**
 * Pods by outcome, each group's title in its tone. Blocked and waiting pods get a line each (name, wave,
 * budgets) with their reason underneath, where it has the whole width; the others one line per reason.
 */
export function PodGroupList({ groups }: { groups: readonly PodGroup[] }) {
  return (
    <Box flexDirection="column">
      {groups.map((group) => (
        <Box key={group.key} flexDirection="column">
          <Tone tone={group.tone} bold>
            {group.title} ({group.pods.length})
          </Tone>
          <Box flexDirection="column" paddingLeft={2}>
            {isPerPodGroup(group.key) ? (
              <PerPodRows rows={podGroupRows(group)} />
            ) : (
              <ReasonRows rows={podGroupRows(group)} />
            )}
          </Box>
        </Box>
      ))}
    </Box>
  );
}

function PerPodRows({ rows }: { rows: readonly string[][] }) {
  const heads = rows.map((row) => row.slice(0, -1));
  const widths = columnWidths(heads.map((head) => [...head, '']));
  return rows.map((row, i) => (
    <Box key={i} flexDirection="column">
      <ColumnRow cells={heads[i] ?? []} widths={widths} />
      <Box paddingLeft={2}>
        <Text>{row.at(-1)}</Text>
      </Box>
    </Box>
  ));
}

function ReasonRows({ rows }: { rows: readonly string[][] }) {
  return rows.map((row, i) => <Text key={i}>{row[0]}</Text>);
}
