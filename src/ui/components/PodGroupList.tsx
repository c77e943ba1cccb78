import { Box } from 'ink';
import { podGroupRows, type PodGroup } from '../plan-sections.js';
import { Columns } from './Columns.js';
import { Tone } from './Tone.js';

/** Pods by outcome: each group's title in its tone, then one row per pod (or per shared reason). */
export function PodGroupList({ groups }: { groups: readonly PodGroup[] }) {
  return (
    <Box flexDirection="column">
      {groups.map((group) => (
        <Box key={group.key} flexDirection="column">
          <Tone tone={group.tone} bold>
            {group.title} ({group.pods.length})
          </Tone>
          <Box paddingLeft={2}>
            <Columns rows={podGroupRows(group)} />
          </Box>
        </Box>
      ))}
    </Box>
  );
}
