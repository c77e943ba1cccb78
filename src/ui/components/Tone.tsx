import { Text } from 'ink';
import { useContext, type ReactNode } from 'react';
import { ColorContext } from '../color-context.js';
import { toneColor, type Tone as ToneName } from '../theme.js';

/** Text in a tone (ok, warn, bad, accent, muted); colourless under NO_COLOR, muted is dim either way. */
export function Tone({ tone, bold, children }: { tone: ToneName; bold?: boolean; children: ReactNode }) {
  const colors = useContext(ColorContext);
  return (
    <Text color={toneColor(tone, colors)} dimColor={tone === 'muted'} bold={bold ?? false}>
      {children}
    </Text>
  );
}
