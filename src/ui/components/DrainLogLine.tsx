import { Box, Text, useStdout } from 'ink';
import { useContext } from 'react';
import { safeLines } from '../../safe-text.js';
import { ColumnsContext } from '../columns-context.js';
import type { DrainLogEntry } from '../drain-progress.js';
import { finishedPodText, PHASE_TONES } from '../drain-wording.js';
import { formatClock } from '../format.js';
import { displayWidth, wrapText } from '../text-wrap.js';
import type { Tone as ToneName } from '../theme.js';
import { Tone } from './Tone.js';

/** Columns assumed when the output reports none (as Ink itself assumes). */
const DEFAULT_COLUMNS = 80;

/**
 * One line of the log above the live area: when (since the start), a mark, what happened. A message
 * longer than the terminal is wrapped here, between words, each continuation line under the message's
 * first word (Ink's own wrapping would start it at the left edge, with the space it broke at).
 */
export function DrainLogLine({ entry, startedAtMs }: { entry: DrainLogEntry; startedAtMs: number }) {
  const [tone, mark, text] = describe(entry);
  const { stdout } = useStdout();
  const columns = useContext(ColumnsContext) ?? ((stdout as Partial<NodeJS.WriteStream>).columns || DEFAULT_COLUMNS);
  const clock = formatClock(entry.atMs - startedAtMs).padStart(5);
  // " 0:42 ✓ ": the time, the mark, and a space after each.
  const prefixWidth = clock.length + 1 + displayWidth(mark) + 1;
  const width = Math.max(20, columns - prefixWidth);
  return (
    <Box>
      <Box width={prefixWidth} flexShrink={0}>
        <Text>
          <Tone tone="muted">{clock} </Tone>
          <Tone tone={tone}>{mark}</Tone>
        </Text>
      </Box>
      <Box flexShrink={1}>
        <Text>
          {safeLines(text)
            .split('\n')
            .flatMap((line) => wrapText(line, width))
            .join('\n')}
        </Text>
      </Box>
    </Box>
  );
}

function describe(entry: DrainLogEntry): [ToneName, string, string] {
  switch (entry.kind) {
    case 'cordoned':
      return [
        'ok',
        '✓',
        `node/${entry.node} ${entry.already ? 'already cordoned' : 'cordoned'}${entry.dryRun ? ' (dry run)' : ''}`,
      ];
    case 'warning':
      return ['warn', '!', entry.message];
    case 'note':
      return ['muted', '›', entry.message];
    case 'pod': {
      const tone = PHASE_TONES[entry.state.phase];
      const failed = entry.state.phase === 'failed' || (entry.state.phase === 'dry-run' && !entry.state.admitted);
      return [
        failed ? 'bad' : tone,
        failed ? '✗' : tone === 'muted' ? '-' : '✓',
        finishedPodText(entry.pod, entry.state),
      ];
    }
  }
}
