import { Box, Text, useStdout } from 'ink';
import { useContext, type ReactNode } from 'react';
import { safeLines } from '../../safe-text.js';
import { ColumnsContext } from '../columns-context.js';
import { wrapText } from '../text-wrap.js';
import type { Tone as ToneName } from '../theme.js';
import { Tone } from './Tone.js';

/** Columns assumed when the output reports none (as Ink itself assumes). */
const DEFAULT_COLUMNS = 80;

/**
 * A line of a log printed above a live view: `prefix` (a time, a mark) in a column of its own, then `text`
 * wrapped here, between words, each continuation line under the text's first word. Ink's own wrapping would
 * start it at the left edge, with the space it broke at. A text that starts with spaces keeps them, and
 * its continuation lines sit two columns further in.
 */
export function HangingLine({
  prefix,
  prefixWidth,
  text,
  tone = null,
}: {
  prefix?: ReactNode;
  prefixWidth: number;
  text: string;
  tone?: ToneName | null;
}) {
  const { stdout } = useStdout();
  const columns = useContext(ColumnsContext) ?? ((stdout as Partial<NodeJS.WriteStream>).columns || DEFAULT_COLUMNS);
  const width = Math.max(20, columns - prefixWidth);
  const lines = safeLines(text)
    .split('\n')
    .flatMap((line) => {
      const indent = /^ */.exec(line)?.[0] ?? '';
      return wrapText(line.slice(indent.length), width, indent, indent.length > 0 ? `${indent}  ` : '');
    })
    .join('\n');
  return (
    <Box>
      {prefixWidth > 0 && (
        <Box width={prefixWidth} flexShrink={0}>
          <Text>{prefix}</Text>
        </Box>
      )}
      <Box flexShrink={1}>{tone ? <Tone tone={tone}>{lines}</Tone> : <Text>{lines}</Text>}</Box>
    </Box>
  );
}
