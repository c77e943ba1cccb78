import { Box, Static, Text } from 'ink';
import { elapsedAt, isFinished, secondsLeftAt, type DrainProgress } from '../drain-progress.js';
import { summarizeDrain } from '../drain-summary.js';
import { describePodState, PHASE_TONES } from '../drain-wording.js';
import { qualified } from '../format.js';
import { DrainHeader } from './DrainHeader.js';
import { DrainLogLine } from './DrainLogLine.js';
import { DrainPodRow } from './DrainPodRow.js';
import { DrainSummaryView } from './DrainSummaryView.js';
import { Tone } from './Tone.js';

export interface DrainViewProps {
  progress: DrainProgress;
  nowMs: number;
  /** Live rows shown at most; the rest are counted on one line. */
  maxRows?: number;
}

/** Busy pods first (waiting, retrying, evicting, terminating), queued ones last, each in event order. */
const ROW_ORDER = ['waiting-for-budget', 'retrying', 'evicting', 'terminating', 'queued'];

/**
 * The live drain: finished pods, cordons and warnings print once above (<Static>); below, the header
 * with progress, elapsed time and waves left, and one row per pod still in flight. Once finished, the
 * summary replaces the live rows.
 */
export function DrainView({ progress, nowMs, maxRows = 15 }: DrainViewProps) {
  const startedAtMs = progress.startedAtMs ?? nowMs;
  const live = progress.pods
    .filter((p) => !isFinished(p.state))
    .sort((a, b) => ROW_ORDER.indexOf(a.state.phase) - ROW_ORDER.indexOf(b.state.phase));
  const shown = live.slice(0, maxRows);
  const nameWidth = Math.max(0, ...shown.map((p) => qualified(p.pod).length));
  return (
    <Box flexDirection="column">
      <Static items={[...progress.log]}>
        {(entry) => <DrainLogLine key={entry.id} entry={entry} startedAtMs={startedAtMs} />}
      </Static>
      {progress.finished ? (
        <DrainSummaryView summary={summarizeDrain(progress, progress.finished)} />
      ) : progress.startedAtMs === null ? (
        <Tone tone="muted">Starting the drain…</Tone>
      ) : (
        <Box flexDirection="column" marginTop={progress.log.length > 0 ? 1 : 0}>
          <DrainHeader
            nodes={progress.nodes}
            dryRun={progress.dryRun}
            elapsedMs={elapsedAt(progress, nowMs)}
            wavesLeft={progress.wavesLeft}
            blockedBy={progress.blockedBy}
            counts={progress.counts}
            secondsLeft={secondsLeftAt(progress, nowMs)}
          />
          {shown.map((p) => (
            <DrainPodRow
              key={p.pod.uid}
              pod={qualified(p.pod)}
              state={describePodState(p, nowMs)}
              tone={PHASE_TONES[p.state.phase]}
              nameWidth={nameWidth}
            />
          ))}
          {live.length > shown.length && <Text dimColor>… and {live.length - shown.length} more</Text>}
        </Box>
      )}
    </Box>
  );
}
