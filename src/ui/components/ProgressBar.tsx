import { Text } from 'ink';
import { Tone } from './Tone.js';

/** [██████░░░░░░] 4/8: filled in proportion to pods done; green when all are done. */
export function ProgressBar({ done, total, width = 24 }: { done: number; total: number; width?: number }) {
  const filled = total === 0 ? width : Math.round((Math.min(done, total) / total) * width);
  return (
    <Text>
      [<Tone tone={done >= total ? 'ok' : 'accent'}>{'█'.repeat(filled)}</Tone>
      <Tone tone="muted">{'░'.repeat(width - filled)}</Tone>] {done}/{total}
    </Text>
  );
}
