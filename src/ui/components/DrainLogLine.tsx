import type { DrainLogEntry } from '../drain-live-state.js';
import { finishedPodText, PHASE_TONES } from '../drain-pod-text.js';
import { formatClock } from '../format.js';
import { displayWidth } from '../text-wrap.js';
import { HangingLine } from './HangingLine.js';
import type { Tone as ToneName } from '../theme.js';
import { Tone } from './Tone.js';

/** One line of the log above the live area: when (since the start), a mark, what happened (wrapped under its first word). */
export function DrainLogLine({ entry, startedAtMs }: { entry: DrainLogEntry; startedAtMs: number }) {
  const [tone, mark, text] = describe(entry);
  const clock = formatClock(entry.atMs - startedAtMs).padStart(5);
  const prefix = (
    <>
      <Tone tone="muted">{clock} </Tone>
      <Tone tone={tone}>{mark}</Tone>
    </>
  );
  // " 0:42 ✓ ": the time, the mark, and a space after each.
  return <HangingLine prefix={prefix} prefixWidth={clock.length + 1 + displayWidth(mark) + 1} text={text} />;
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
