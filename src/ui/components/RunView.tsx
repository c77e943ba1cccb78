import { Box, Static, Text } from 'ink';
import { HangingLine } from './HangingLine.js';
import { failedOutputLines, pausedLines, runSummary } from '../run-log-text.js';
import { batchesUnderWay, drainsUnderWay, podsLeft, secondsLeft, type RunProgress } from '../run-live-state.js';
import { formatClock, formatSeconds } from '../format.js';
import { formatColumns } from '../text-columns.js';
import { DrainView } from './DrainView.js';
import { LiveArea } from './LiveArea.js';
import { Tone } from './Tone.js';

export interface RunViewProps {
  progress: RunProgress;
  nowMs: number;
  /** The terminal's height: the live area stays below it (LiveArea). */
  rows?: number;
  /** Print finished steps and the summary above the live area (<Static>); false: the live area alone. */
  log?: boolean;
}

/**
 * The live pool view: finished steps print once above (<Static>); below, one row per node (batch, phase,
 * time in phase, pods left), the current batch's drain with its waits while it drains, each running
 * command's last output lines, and the budgets the run waits for. The summary is printed once above at the end (it can be longer
 * than the screen), and the live area is then empty.
 */
export function RunView({ progress, nowMs, rows: screenRows, log = true }: RunViewProps) {
  const startedAtMs = progress.startedAtMs ?? nowMs;
  const runLog = log && <RunLog progress={progress} startedAtMs={startedAtMs} />;
  if (progress.finished) return <Box flexDirection="column">{runLog}</Box>;
  const rows = [
    ['NODE', 'BATCH', 'PHASE', 'FOR', 'PODS LEFT'],
    ...progress.nodes.map((n) => [
      n.node,
      String(n.batch),
      n.phase + (n.problem ? ` (${n.problem})` : ''),
      n.sinceMs === null ? '' : formatClock(nowMs - n.sinceMs),
      String(podsLeft(progress, n.node) ?? ''),
    ]),
  ];
  // Every drain under way: the window's groups overlap, each with its own pods and waits.
  const drains = drainsUnderWay(progress);
  const commands = progress.nodes.filter((n) => n.phase === 'command-running' && n.output.length > 0);
  return (
    <Box flexDirection="column">
      {runLog}
      <LiveArea rows={screenRows ?? Number.MAX_SAFE_INTEGER}>
        <Text bold>
          Run {progress.runId ?? ''} · {batchWords(progress)} · {formatClock(nowMs - startedAtMs)}
          {etaText(progress, nowMs)}
        </Text>
        {formatColumns(rows).map((line, i) => (
          <Text key={i}>{line}</Text>
        ))}
        {drains.map((d) => (
          <Box key={d.nodes.join(' ')} marginTop={1}>
            <DrainView
              progress={d.progress}
              nowMs={nowMs}
              maxRows={Math.max(3, Math.floor(8 / drains.length))}
              log={log}
            />
          </Box>
        ))}
        {commands.map((n) => (
          <Box key={n.node} flexDirection="column" marginTop={1}>
            <Tone tone="muted">{n.node}:</Tone>
            {n.output.map((line, i) => (
              <Text key={i}> {line}</Text>
            ))}
          </Box>
        ))}
        {progress.paused && (
          <Box marginTop={1} flexDirection="column">
            {pausedLines(progress.paused).map((line, i) => (
              <Tone key={i} tone="warn">
                {line}
              </Tone>
            ))}
          </Box>
        )}
        {progress.budgetsWaiting.map((w) => (
          <Tone key={w.batch} tone="warn">
            batch {w.batch} waiting for budgets:{' '}
            {w.budgets.map((b) => `${b.name} ${b.now}/${b.before} allowed`).join(', ')}
          </Tone>
        ))}
      </LiveArea>
    </Box>
  );
}

/** "batch 2 of 3", or "batches 2, 3 of 3" while the window has nodes of both out. */
function batchWords(progress: RunProgress): string {
  const batches = batchesUnderWay(progress);
  const which = batches.length === 0 ? '-' : batches.join(', ');
  return `${batches.length > 1 ? 'batches' : 'batch'} ${which} of ${progress.batchCount}`;
}

/** " · batch about 25s left · run about 1m10s left", from the latest estimate counted down to now. */
function etaText(progress: RunProgress, nowMs: number): string {
  if (!progress.eta) return '';
  const part = (label: string, seconds: number | null) =>
    seconds === null ? '' : ` · ${label} about ${formatSeconds(seconds)} left`;
  const basis = progress.eta.commandBasis === 'none' ? ' (command not counted: see --command-time)' : '';
  return (
    part('batch', secondsLeft(progress, 'batchSeconds', nowMs)) +
    part('run', secondsLeft(progress, 'runSeconds', nowMs)) +
    basis
  );
}

/** Finished steps, printed once each above the live area; at the end, the summary after them. */
function RunLog({ progress, startedAtMs }: { progress: RunProgress; startedAtMs: number }) {
  // The failed nodes' last output lines, then the summary: what the scrollback keeps of the run's end.
  const summary = progress.finished
    ? [
        ...failedOutputLines(progress.finished, new Map(progress.nodes.map((n) => [n.node, n.tail]))),
        ...runSummary(progress.finished),
      ]
    : [];
  const items = [
    ...progress.log.map((entry) => ({ id: entry.id, entry })),
    ...summary.map((line, i) => ({ id: `summary-${i}`, line })),
  ];
  return (
    <Static items={items}>
      {(item) =>
        'entry' in item ? (
          <HangingLine
            key={item.id}
            prefix={<Tone tone="muted">{formatClock(item.entry.atMs - startedAtMs).padStart(5)} </Tone>}
            prefixWidth={formatClock(item.entry.atMs - startedAtMs).padStart(5).length + 1}
            text={item.entry.text}
            tone={item.entry.tone}
          />
        ) : (
          <HangingLine key={item.id} prefixWidth={0} text={item.line} />
        )
      }
    </Static>
  );
}
