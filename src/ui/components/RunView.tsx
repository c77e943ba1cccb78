import { Box, Static, Text } from 'ink';
import { failedOutputLines, pausedLine, runSummary } from '../run-lines.js';
import { batchesUnderWay, drainsUnderWay, podsLeft, secondsLeft, type RunProgress } from '../run-progress.js';
import { formatClock, formatSeconds } from '../format.js';
import { formatColumns } from '../text-columns.js';
import { DrainView } from './DrainView.js';
import { Tone } from './Tone.js';

export interface RunViewProps {
  progress: RunProgress;
  nowMs: number;
}

/**
 * The live pool view: finished steps print once above (<Static>); below, one row per node (batch, phase,
 * time in phase, pods left), the current batch's drain with its waits while it drains, each running
 * command's last output lines, and the budgets the run waits for. The summary replaces it at the end.
 */
export function RunView({ progress, nowMs }: RunViewProps) {
  const startedAtMs = progress.startedAtMs ?? nowMs;
  if (progress.finished) {
    return (
      <Box flexDirection="column">
        <RunLog progress={progress} startedAtMs={startedAtMs} />
        {failedOutputLines(progress.finished, new Map(progress.nodes.map((n) => [n.node, n.tail]))).map((line, i) => (
          <Text key={`output-${i}`}>{line}</Text>
        ))}
        {runSummary(progress.finished).map((line, i) => (
          <Text key={i}>{line}</Text>
        ))}
      </Box>
    );
  }
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
      <RunLog progress={progress} startedAtMs={startedAtMs} />
      <Text bold>
        Run {progress.runId ?? ''} · {batchWords(progress)} · {formatClock(nowMs - startedAtMs)}
        {etaText(progress, nowMs)}
      </Text>
      {formatColumns(rows).map((line, i) => (
        <Text key={i}>{line}</Text>
      ))}
      {drains.map((d) => (
        <Box key={d.nodes.join(' ')} marginTop={1}>
          <DrainView progress={d.progress} nowMs={nowMs} maxRows={Math.max(3, Math.floor(8 / drains.length))} />
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
        <Box marginTop={1}>
          <Tone tone="warn">{pausedLine(progress.paused)}</Tone>
        </Box>
      )}
      {progress.budgetsWaiting.map((w) => (
        <Tone key={w.batch} tone="warn">
          batch {w.batch} waiting for budgets:{' '}
          {w.budgets.map((b) => `${b.name} ${b.now}/${b.before} allowed`).join(', ')}
        </Tone>
      ))}
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
  const basis = progress.eta.commandBasis === 'none' ? ' (command not counted)' : '';
  return (
    part('batch', secondsLeft(progress, 'batchSeconds', nowMs)) +
    part('run', secondsLeft(progress, 'runSeconds', nowMs)) +
    basis
  );
}

/** Finished steps, printed once each above the live area. */
function RunLog({ progress, startedAtMs }: { progress: RunProgress; startedAtMs: number }) {
  return (
    <Static items={[...progress.log]}>
      {(entry) => (
        <Text key={entry.id}>
          <Tone tone="muted">{formatClock(entry.atMs - startedAtMs).padStart(5)} </Tone>
          <Tone tone={entry.tone}>{entry.text}</Tone>
        </Text>
      )}
    </Static>
  );
}
