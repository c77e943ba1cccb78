import type { RunEvent } from '../run/events.js';
import { safeText } from '../safe-text.js';
import { commandLogFile } from '../run/command-log.js';
import { plural } from '../wording.js';
import { interruptLine } from './run-log-text.js';
import type { NodePhase } from '../run/state.js';
import { initialDrainProgress, isFinished, reduceDrainEvents, type DrainProgress } from './drain-live-state.js';

/**
 * Everything the live pool view shows, as a pure fold over the run's events: `reduceRunEvents(state, e)`.
 * Nothing here reads a clock; views take "now" as a prop.
 */
export interface RunNodeRow {
  readonly node: string;
  readonly batch: number;
  readonly phase: NodePhase;
  /** Epoch ms when the node entered its phase (null until the run reports one). */
  readonly sinceMs: number | null;
  readonly problem?: string | undefined;
  /** The command's latest output lines for this node, newest last. */
  readonly output: readonly string[];
  /** The last TAIL_LINES lines of its latest command's output: kept on screen with the summary should it fail. */
  readonly tail: readonly string[];
}

export interface RunLogEntry {
  readonly id: string;
  readonly atMs: number;
  readonly tone: 'ok' | 'warn' | 'bad' | 'muted';
  readonly text: string;
}

export interface RunProgress {
  readonly runId: string | null;
  readonly startedAtMs: number | null;
  /** The directory of the command's log files (run-started), or null when they are not kept. */
  readonly commandLog: string | null;
  readonly batchCount: number;
  readonly currentBatch: number | null;
  readonly nodes: readonly RunNodeRow[];
  /** Each drain of the run, latest last: one per group of the window, and groups can overlap. */
  readonly drains: readonly GroupDrain[];
  /** The budgets each batch waits for, until the batch finishes (batches can overlap). */
  readonly budgetsWaiting: readonly BudgetsWaiting[];
  readonly log: readonly RunLogEntry[];
  /** The latest estimate (its seconds count from its atMs). */
  readonly eta: Extract<RunEvent, { type: 'eta' }> | null;
  /** --pause: the batch waiting for the operator, until its nodes move on. */
  readonly paused: Extract<RunEvent, { type: 'paused' }> | null;
  readonly finished: Extract<RunEvent, { type: 'run-finished' }> | null;
}

/** One drain of the run: the nodes it cordons and drains, and its progress. */
export interface GroupDrain {
  readonly nodes: readonly string[];
  readonly progress: DrainProgress;
}

type BudgetsWaiting = Omit<Extract<RunEvent, { type: 'budgets-waiting' }>, 'type' | 'atMs'>;

const OUTPUT_LINES = 3;
export const TAIL_LINES = 20;

export function initialRunProgress(): RunProgress {
  return {
    runId: null,
    startedAtMs: null,
    commandLog: null,
    batchCount: 0,
    currentBatch: null,
    nodes: [],
    drains: [],
    budgetsWaiting: [],
    log: [],
    eta: null,
    paused: null,
    finished: null,
  };
}

export function reduceRunEvents(state: RunProgress, event: RunEvent): RunProgress {
  switch (event.type) {
    case 'run-started':
      return {
        ...state,
        runId: event.runId,
        startedAtMs: event.atMs,
        commandLog: event.commandLog,
        batchCount: event.batches.length,
        nodes: event.batches.flatMap((nodes, i) =>
          nodes.map((node) => ({
            node,
            batch: i + 1,
            phase: event.phases[node] ?? ('pending' as NodePhase),
            sinceMs: null,
            output: [],
            tail: [],
          })),
        ),
      };
    case 'batch-started':
      return { ...state, currentBatch: event.batch, paused: null };
    case 'phase': {
      if (state.paused?.nodes.includes(event.node) && event.phase !== 'drained') state = { ...state, paused: null };
      const tone = event.problem ? 'bad' : event.phase === 'done' ? 'ok' : 'muted';
      return {
        ...withNode(state, event.node, (row) => ({
          ...row,
          phase: event.phase,
          sinceMs: event.atMs,
          problem: event.problem,
          // A command run again (a resume) starts a new tail.
          ...(event.phase === 'command-running' ? { output: [], tail: [] } : {}),
        })),
        log: appended(
          state,
          event.atMs,
          tone,
          `node/${event.node} ${event.phase}${event.problem ? `: ${event.problem}` : ''}`,
        ),
      };
    }
    case 'drain':
      return { ...state, drains: withDrainEvent(state.drains, event) };
    case 'command-output': {
      // Kept as the terminal will show it: no control sequence of the command's reaches it.
      const line = safeText(event.line);
      return withNode(state, event.node, (row) => ({
        ...row,
        output: [...row.output, line].slice(-OUTPUT_LINES),
        tail: [...row.tail, line].slice(-TAIL_LINES),
      }));
    }
    case 'command-finished': {
      const finished = appended(
        state,
        event.atMs,
        event.failure ? 'bad' : 'ok',
        `node/${event.node} command ${event.failure ?? 'exited 0'}`,
      );
      if (event.failure) return { ...state, log: finished };
      // The lines the live area showed leave it with the command: the scrollback keeps them, and where all
      // of its output is. A failed command's tail is printed with the summary (failedOutputLines).
      const shown = state.nodes.find((n) => n.node === event.node)?.output ?? [];
      const where = state.commandLog ? `all of it in ${commandLogFile(state.commandLog, event.node)}` : null;
      const kept = [
        ...(shown.length > 0 || where
          ? [
              `${event.node}: ${shown.length > 0 ? `its last ${plural(shown.length, 'line', 'lines')} of output` : 'no output'}${where ? ` (${where})` : ''}${shown.length > 0 ? ':' : ''}`,
            ]
          : []),
        ...shown.map((line) => `  ${line}`),
      ];
      return { ...state, log: kept.reduce((log, text) => appendedTo(log, event.atMs, 'muted', text), finished) };
    }
    case 'budgets-waiting':
      return {
        ...state,
        budgetsWaiting: [
          ...state.budgetsWaiting.filter((b) => b.batch !== event.batch),
          { batch: event.batch, budgets: event.budgets },
        ],
      };
    case 'batch-finished':
      return {
        ...state,
        budgetsWaiting: state.budgetsWaiting.filter((b) => b.batch !== event.batch),
        log: appended(
          state,
          event.atMs,
          event.ok ? 'ok' : 'bad',
          `batch ${event.batch} ${event.ok ? 'done' : 'stopped'}`,
        ),
      };
    case 'warning':
      return { ...state, log: appended(state, event.atMs, 'warn', event.message) };
    case 'interrupt': {
      const line = interruptLine(event);
      return line ? { ...state, log: appended(state, event.atMs, 'warn', line) } : state;
    }
    case 'eta':
      return { ...state, eta: event };
    case 'paused':
      return { ...state, paused: event };
    case 'run-finished':
      return { ...state, finished: event };
  }
}

/** Seconds left of the latest estimate at `nowMs` (counting down from when it was made, never below 0); null when unknown. */
export function secondsLeft(progress: RunProgress, which: 'batchSeconds' | 'runSeconds', nowMs: number): number | null {
  const eta = progress.eta;
  if (!eta || eta[which] === null) return null;
  return Math.max(0, eta[which] - (nowMs - eta.atMs) / 1000);
}

/**
 * The batches with a node under way (out of pending, not yet done), in order: the window lets the next
 * batch start while the last one finishes, so there can be two. Before any, the batch started last.
 */
export function batchesUnderWay(progress: RunProgress): number[] {
  const active = progress.nodes.filter((n) => n.phase !== 'pending' && n.phase !== 'done').map((n) => n.batch);
  const batches = [...new Set(active)].sort((a, b) => a - b);
  if (batches.length > 0) return batches;
  return progress.currentBatch === null ? [] : [progress.currentBatch];
}

/** The latest drain of `node`, if it has had one in this run. */
export function drainOf(progress: RunProgress, node: string): GroupDrain | undefined {
  return progress.drains.findLast((d) => d.nodes.includes(node));
}

/** Pods of the node's latest drain still on it (not gone, skipped or failed); null when it has not been drained. */
export function podsLeft(progress: RunProgress, node: string): number | null {
  const drain = drainOf(progress, node);
  if (!drain) return null;
  return drain.progress.pods.filter((p) => p.pod.node === node && !isFinished(p.state)).length;
}

/** The drains under way: those with a node still draining. */
export function drainsUnderWay(progress: RunProgress): GroupDrain[] {
  const draining = new Set(progress.nodes.filter((n) => n.phase === 'draining').map((n) => n.node));
  return progress.drains.filter(
    (d) => d.progress.startedAtMs !== null && d.nodes.some((n) => draining.has(n) && drainOf(progress, n) === d),
  );
}

/** A drain's event to its own drain (a new one at its start): overlapping groups each keep theirs. */
function withDrainEvent(drains: readonly GroupDrain[], event: Extract<RunEvent, { type: 'drain' }>): GroupDrain[] {
  const key = event.nodes.join(' ');
  const index = event.event.type === 'started' ? -1 : drains.findLastIndex((d) => d.nodes.join(' ') === key);
  const before = index === -1 ? initialDrainProgress() : drains[index]!.progress;
  const drain = { nodes: event.nodes, progress: reduceDrainEvents(before, event.event) };
  return index === -1 ? [...drains, drain] : drains.map((d, i) => (i === index ? drain : d));
}

function withNode(state: RunProgress, node: string, change: (row: RunNodeRow) => RunNodeRow): RunProgress {
  return { ...state, nodes: state.nodes.map((row) => (row.node === node ? change(row) : row)) };
}

function appended(state: RunProgress, atMs: number, tone: RunLogEntry['tone'], text: string): RunLogEntry[] {
  return appendedTo(state.log, atMs, tone, text);
}

function appendedTo(log: readonly RunLogEntry[], atMs: number, tone: RunLogEntry['tone'], text: string): RunLogEntry[] {
  return [...log, { id: String(log.length), atMs, tone, text }];
}
