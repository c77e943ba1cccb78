import { Box, Text } from 'ink';
import type { Tone as ToneName } from '../theme.js';
import { Tone } from './Tone.js';

/** One live pod: its name in a fixed-width column, then its state in the state's tone. */
export function DrainPodRow({
  pod,
  state,
  tone,
  nameWidth,
}: {
  pod: string;
  state: string;
  tone: ToneName;
  nameWidth: number;
}) {
  return (
    <Box>
      <Box width={nameWidth + 3} flexShrink={0}>
        <Text>{pod}</Text>
      </Box>
      <Box flexShrink={1}>
        <Tone tone={tone}>{state}</Tone>
      </Box>
    </Box>
  );
}
