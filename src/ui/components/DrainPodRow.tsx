import { Box, Text, useStdout } from 'ink';
import { useContext } from 'react';
import { ColumnsContext } from '../columns-context.js';
import { wrapText } from '../text-wrap.js';
import type { Tone as ToneName } from '../theme.js';
import { Tone } from './Tone.js';

/** Columns assumed when the output reports none (as Ink itself assumes). */
const DEFAULT_COLUMNS = 80;
/** The state column never gets narrower than this, however long the pod names. */
const MIN_STATE_WIDTH = 20;

/**
 * One live pod: its name in a fixed-width column, then its state in the state's tone. The state is
 * wrapped here, between words: Ink's own wrapping keeps the space it breaks at, which would start each
 * continuation line one column to the right of the others.
 */
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
  const { stdout } = useStdout();
  const columns = useContext(ColumnsContext) ?? ((stdout as Partial<NodeJS.WriteStream>).columns || DEFAULT_COLUMNS);
  // A name wider than the terminal leaves the state its minimum and wraps in its own column.
  const nameColumn = Math.max(1, Math.min(nameWidth + 3, columns - MIN_STATE_WIDTH));
  const stateWidth = Math.max(MIN_STATE_WIDTH, columns - nameColumn);
  return (
    <Box>
      <Box width={nameColumn} flexShrink={0} paddingRight={nameColumn > 3 ? 3 : 0}>
        <Text>{pod}</Text>
      </Box>
      <Box flexShrink={1}>
        <Tone tone={tone}>{wrapText(state, stateWidth).join('\n')}</Tone>
      </Box>
    </Box>
  );
}
