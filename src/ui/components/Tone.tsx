import { Text } from 'ink';
import { useContext, type ReactNode } from 'react';
import { safeLines } from '../../safe-text.js';
import { ColorContext } from '../color-context.js';
import { toneColor, type Tone as ToneName } from '../theme.js';

/**
 * Text in a tone (ok, warn, bad, accent, muted); colourless under NO_COLOR, muted is dim either way. Its
 * text may come from the cluster: no control sequence in it reaches the terminal (safeLines).
 */
export function Tone({ tone, bold, children }: { tone: ToneName; bold?: boolean; children: ReactNode }) {
  const colors = useContext(ColorContext);
  return (
    <Text color={toneColor(tone, colors)} dimColor={tone === 'muted'} bold={bold ?? false}>
      {typeof children === 'string' ? safeLines(children) : children}
    </Text>
  );
}
