import path from 'node:path';
import { commandLogFile } from '../run/command-log.js';
import type { RunEvent } from '../run/events.js';
import { safeText } from '../safe-text.js';
import { commandRan, isFailedPhase } from '../run/state.js';
import { drainEventLines, type DrainLine } from './drain-log-text.js';
import { initialDrainProgress, reduceDrainEvents, type DrainProgress } from './drain-live-state.js';
import type { CommandBasis } from '../run/run-eta.js';
import { formatSeconds } from './format.js';
import { plural } from '../wording.js';
import { formatColumns } from './text-columns.js';

/**
 * `kubectl maint run` without a terminal: one line per event. Each batch's drain is worded as `kubectl
 * maint drain` words it; the command's output is prefixed with its node; the summary lists every node's
 * phase and the command that resumes the run.
 *
 *   run 20261201-1400-ab12: 3 batches: w6 w1 | w2 w3 | w4 w5
 *   batch 1: w6, w1
 *   node/w6 draining
 *   [w6] rebooting…
 */
export class RunLines {
  /** Each drain's progress by its nodes: the window's groups overlap, and each drain is worded from its own. */
  private readonly drains = new Map<string, DrainProgress>();
  /** The last eta line printed: the run's opening estimate and its first batch's fresh plan often agree. */
  private lastEta: string | null = null;

  lines(event: RunEvent): DrainLine[] {
    switch (event.type) {
      case 'run-started': {
        const recorded = Object.entries(event.phases).filter(([, phase]) => phase !== 'pending');
        return [
          out(
            `run ${event.runId}${event.resumed ? ' resumed' : ''} by ${event.holder}: ${plural(event.batches.length, 'batch', 'batches')}: ${event.batches.map((b) => b.join(' ')).join(' | ')}`,
          ),
          ...(recorded.length > 0
            ? [out(`recorded: ${recorded.map(([node, phase]) => `node/${node} ${phase}`).join(', ')}`)]
            : []),
        ];
      }
      case 'batch-started':
        return [out(`batch ${event.batch}: ${event.nodes.join(', ')}${slidPast(event.unfinished ?? [])}`)];
      case 'phase':
        return [out(`node/${event.node} phase ${event.phase}${event.problem ? `: ${event.problem}` : ''}`)];
      case 'drain': {
        const key = event.nodes.join(' ');
        const before = event.event.type === 'started' ? undefined : this.drains.get(key);
        const drain = before ?? initialDrainProgress();
        this.drains.set(key, reduceDrainEvents(drain, event.event));
        return drainEventLines(drain, event.event);
      }
      case 'command-output':
        return [{ stream: event.stream, text: `[${event.node}] ${safeText(event.line)}` }];
      case 'command-finished':
        return [out(`node/${event.node} command ${event.failure ?? 'exited 0'}`)];
      case 'budgets-waiting':
        return [
          err(
            `batch ${event.batch}: waiting for budgets to recover: ${event.budgets.map((b) => `${b.name} (${b.now} of ${b.before} allowed)`).join(', ')}`,
          ),
        ];
      case 'batch-finished':
        return [out(`batch ${event.batch} ${event.ok ? 'done' : 'stopped'}`)];
      case 'warning':
        return [err(`Warning: ${event.message}`)];
      case 'interrupt': {
        const line = interruptLine(event);
        return line ? [err(line)] : [];
      }
      case 'eta': {
        // A line per change of the estimate: the same words again tell the reader nothing new.
        const line = etaLine(event);
        if (line === this.lastEta) return [];
        this.lastEta = line;
        return [out(line)];
      }
      case 'paused':
        return pausedLines(event).map(err);
      case 'run-finished':
        return runSummary(event).map(err);
    }
  }
}

/**
 * What a batch that starts before the earlier ones are done says about them: the window slid past them.
 * ", while batch 1 finishes (w2 not done yet)", ", while batch 1 finishes (its budgets recovering)".
 */
export function slidPast(
  unfinished: ReadonlyArray<{ readonly batch: number; readonly nodes: readonly string[] }>,
): string {
  if (unfinished.length === 0) return '';
  const each = unfinished.map(({ batch, nodes }) => {
    const left = nodes.length === 0 ? 'its budgets recovering' : `${nodes.join(', ')} not done yet`;
    return `batch ${batch} finishes (${left})`;
  });
  return `, while ${each.join(' and ')}`;
}

const COMMAND_BASIS: Readonly<Record<CommandBasis, string>> = {
  measured: 'measured in this run',
  assumed: 'assumed: --command-time',
  none: 'not counted until a batch has measured them: --command-time <duration> counts them from the start',
};

/** "eta: batch 2 about 25s left, run about 1m10s left (command and return 11s per batch, measured in this run)". */
export function etaLine(event: Extract<RunEvent, { type: 'eta' }>): string {
  const about = (seconds: number | null) => (seconds === null ? 'unknown' : `about ${formatSeconds(seconds)} left`);
  const command =
    event.commandBasis === 'none'
      ? `command and return ${COMMAND_BASIS.none}`
      : `command and return ${formatSeconds(event.commandSeconds)} per batch, ${COMMAND_BASIS[event.commandBasis]}`;
  return `eta: batch ${event.batch} ${about(event.batchSeconds)}, run ${about(event.runSeconds)} (${command})`;
}

/**
 * What a Ctrl-C does now: the first lets the running commands finish and says a second kills them; the
 * second names the commands it kills. Null for a second with no command running.
 */
export function interruptLine(event: Extract<RunEvent, { type: 'interrupt' }>): string | null {
  const which = (nodes: readonly string[]) =>
    `${nodes.length === 1 ? 'the command on' : 'the commands on'} ${nodes.join(', ')}`;
  if (event.step === 'kill') {
    return event.commands.length === 0
      ? null
      : `interrupted again: killing ${which(event.commands)} (each with every process it started)`;
  }
  if (event.commands.length === 0) return 'interrupted: stopping; nothing new starts';
  return `interrupted: nothing new starts; waiting for ${which(event.commands)} to finish (Ctrl-C again kills ${event.commands.length === 1 ? 'it' : 'them'})`;
}

/**
 * What the operator does now that the batch is drained: a key here, or the resume command later. The
 * resume command itself is said once, by the run's summary, which follows a pause or a Ctrl-C here.
 */
export function pausedLines(event: Extract<RunEvent, { type: 'paused' }>): string[] {
  const batch = `batch ${event.batch} (${event.nodes.join(', ')}) is drained`;
  return event.waitingFor === 'key'
    ? [
        `${batch}: do the maintenance, then press any key to go on.`,
        'Ctrl-C stops here; the summary then says how to continue later.',
      ]
    : [`${batch} and the run paused: do the maintenance, then continue with the command below.`];
}

/** The end of a run: its result, each node's phase, and how to continue. */
export function runSummary(event: Extract<RunEvent, { type: 'run-finished' }>): string[] {
  const headline: Record<typeof event.result, string> = {
    done: `run ${event.runId} done: every node is back in service`,
    failed: event.nodes.some((n) => isFailedPhase(n.phase))
      ? `run ${event.runId} stopped: a node failed; failed nodes stay cordoned (see PROBLEM)`
      : `run ${event.runId} stopped with no node failed (see the warning or the error): each node stays in the phase below`,
    interrupted: `run ${event.runId} interrupted: each node stays in the phase below`,
    paused: `run ${event.runId} paused: the drained nodes stay cordoned until the run is resumed`,
  };
  const rows = [
    ['NODE', 'BATCH', 'PHASE', 'PROBLEM'],
    ...event.nodes.map((n) => [n.node, String(n.batch), n.phase, n.problem ?? '']),
  ];
  return [
    headline[event.result],
    ...formatColumns(rows, '  '),
    ...commandOutputPointer(event),
    ...(event.resumeCommand ? [`continue with: ${event.resumeCommand}`] : []),
  ];
}

/**
 * The summary's pointer to the command's output: the log file of each node whose command ran, by its
 * real path (one node) or its directory and file names (several), so it can be pasted as it is.
 */
function commandOutputPointer(event: Extract<RunEvent, { type: 'run-finished' }>): string[] {
  const dir = event.commandLog;
  if (!dir) return [];
  const ran = event.nodes.filter((n) => commandRan(n.phase)).map((n) => n.node);
  if (ran.length === 0) return [];
  if (ran.length === 1) return [`command output: ${commandLogFile(dir, ran[0]!)}`];
  return [`command output in ${dir}: ${ran.map((node) => path.basename(commandLogFile(dir, node))).join(', ')}`];
}

/**
 * For the scrollback on a terminal, where the live view showed only the latest lines: each node whose
 * command failed, with the last lines of its output and the file that has all of it.
 */
export function failedOutputLines(
  event: Extract<RunEvent, { type: 'run-finished' }>,
  tails: ReadonlyMap<string, readonly string[]>,
): string[] {
  return event.nodes
    .filter((n) => n.phase === 'command-failed' || n.phase === 'command-killed')
    .flatMap((n) => {
      const tail = tails.get(n.node) ?? [];
      const where = event.commandLog ? ` (all of it in ${commandLogFile(event.commandLog, n.node)})` : '';
      const head =
        tail.length === 0
          ? `${n.node}: ${n.problem ?? 'command failed'}, with no output${where}`
          : `${n.node}: ${n.problem ?? 'command failed'}; its last ${plural(tail.length, 'line', 'lines')} of output${where}:`;
      return [head, ...tail.map((line) => `  ${line}`)];
    });
}

const out = (text: string): DrainLine => ({ stream: 'stdout', text });
const err = (text: string): DrainLine => ({ stream: 'stderr', text });
