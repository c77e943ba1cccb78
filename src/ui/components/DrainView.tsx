import { Box, Static, Text } from 'ink';
import { elapsedAt, isFinished, secondsLeftAt, type DrainLogEntry, type DrainProgress } from '../drain-live-state.js';
import { summarizeDrain } from '../drain-summary-text.js';
import { describePodState, PHASE_TONES } from '../drain-pod-text.js';
import { qualified } from '../format.js';
import { DrainHeader } from './DrainHeader.js';
import { DrainLogLine } from './DrainLogLine.js';
import { DrainPodRow } from './DrainPodRow.js';
import { DrainSummaryView } from './DrainSummaryView.js';
import { LiveArea } from './LiveArea.js';
import { Tone } from './Tone.js';

export interface DrainViewProps {
  progress: DrainProgress;
  nowMs: number;
  /** Live rows shown at most; the rest are counted on one line. */
  maxRows?: number;
  /** Print finished lines and the summary above the live area (<Static>); false: the live area alone. */
  log?: boolean;
  /** The terminal's height: the live area stays below it (LiveArea). */
  rows?: number;
}

type StaticItem = { kind: 'log'; entry: DrainLogEntry } | { kind: 'summary' };

/** Busy pods first (waiting, retrying, evicting, terminating), queued ones last, each in event order. */
const ROW_ORDER = ['waiting-for-budget', 'retrying', 'evicting', 'terminating', 'queued'];

/**
 * The live drain: finished pods, cordons and warnings print once above (<Static>); below, the header
 * with progress, elapsed time and waves left, and one row per pod still in flight. Once finished, the
 * summary is printed once above too (it can be longer than the screen) and the live area is empty.
 */
export function DrainView({ progress, nowMs, maxRows = 15, log = true, rows }: DrainViewProps) {
  const startedAtMs = progress.startedAtMs ?? nowMs;
  const live = progress.pods
    .filter((p) => !isFinished(p.state))
    .sort((a, b) => ROW_ORDER.indexOf(a.state.phase) - ROW_ORDER.indexOf(b.state.phase));
  // Header (two lines, three with an escalation due), the blank line above it and the "… more" line.
  const headerRows = nextEscalation(progress, startedAtMs, nowMs) ? 6 : 5;
  const shown = live.slice(0, rows === undefined ? maxRows : Math.max(1, Math.min(maxRows, rows - headerRows)));
  const nameWidth = Math.max(0, ...shown.map((p) => qualified(p.pod).length));
  const finished = progress.finished;
  const items: StaticItem[] = [
    ...progress.log.map((entry) => ({ kind: 'log' as const, entry })),
    ...(finished ? [{ kind: 'summary' as const }] : []),
  ];
  return (
    <Box flexDirection="column">
      {log && (
        <Static items={items}>
          {(item) =>
            item.kind === 'log' ? (
              <DrainLogLine key={item.entry.id} entry={item.entry} startedAtMs={startedAtMs} />
            ) : (
              finished && <DrainSummaryView key="summary" summary={summarizeDrain(progress, finished)} />
            )
          }
        </Static>
      )}
      {finished ? null : progress.startedAtMs === null ? (
        <Tone tone="muted">Starting the drain…</Tone>
      ) : (
        <LiveArea rows={rows ?? Number.MAX_SAFE_INTEGER}>
          <Box flexDirection="column" marginTop={progress.log.length > 0 ? 1 : 0}>
            <DrainHeader
              nodes={progress.nodes}
              dryRun={progress.dryRun}
              elapsedMs={elapsedAt(progress, nowMs)}
              wavesLeft={progress.wavesLeft}
              blockedBy={progress.blockedBy}
              counts={progress.counts}
              secondsLeft={secondsLeftAt(progress, nowMs)}
              atLeast={(progress.uncounted?.length ?? 0) > 0}
              escalation={nextEscalation(progress, startedAtMs, nowMs)}
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
        </LiveArea>
      )}
    </Box>
  );
}

/** The next pod --escalate-after deletes, on the drain's clock; null when none is due or the drain is done. */
function nextEscalation(progress: DrainProgress, startedAtMs: number, nowMs: number) {
  const next = progress.finished ? undefined : progress.timeLeft?.escalations[0];
  return next ? { pod: next.pod, atElapsedMs: next.atMs - startedAtMs, inMs: next.atMs - nowMs } : null;
}
