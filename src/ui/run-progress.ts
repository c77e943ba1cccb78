import type { RunEvent } from '../run/events.js';
import type { NodePhase } from '../run/state.js';
import { initialDrainProgress, isFinished, reduceDrainEvents, type DrainProgress } from './drain-progress.js';

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
  readonly batchCount: number;
  readonly currentBatch: number | null;
  readonly nodes: readonly RunNodeRow[];
  /** The current batch's drain, while it runs (reset at each batch). */
  readonly drain: DrainProgress;
  readonly budgetsWaiting: Extract<RunEvent, { type: 'budgets-waiting' }>['budgets'];
  readonly log: readonly RunLogEntry[];
  /** The latest estimate (its seconds count from its atMs). */
  readonly eta: Extract<RunEvent, { type: 'eta' }> | null;
  /** --pause: the batch waiting for the operator, until its nodes move on. */
  readonly paused: Extract<RunEvent, { type: 'paused' }> | null;
  readonly finished: Extract<RunEvent, { type: 'run-finished' }> | null;
}

const OUTPUT_LINES = 3;

export function initialRunProgress(): RunProgress {
  return {
    runId: null,
    startedAtMs: null,
    batchCount: 0,
    currentBatch: null,
    nodes: [],
    drain: initialDrainProgress(),
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
        batchCount: event.batches.length,
        nodes: event.batches.flatMap((nodes, i) =>
          nodes.map((node) => ({ node, batch: i + 1, phase: 'pending' as NodePhase, sinceMs: null, output: [] })),
        ),
      };
    case 'batch-started':
      return { ...state, currentBatch: event.batch, drain: initialDrainProgress(), budgetsWaiting: [], paused: null };
    case 'phase': {
      if (state.paused?.nodes.includes(event.node) && event.phase !== 'drained') state = { ...state, paused: null };
      const tone = event.problem ? 'bad' : event.phase === 'done' ? 'ok' : 'muted';
      return {
        ...withNode(state, event.node, (row) => ({
          ...row,
          phase: event.phase,
          sinceMs: event.atMs,
          problem: event.problem,
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
      return { ...state, drain: reduceDrainEvents(state.drain, event.event) };
    case 'command-output':
      return withNode(state, event.node, (row) => ({
        ...row,
        output: [...row.output, event.line].slice(-OUTPUT_LINES),
      }));
    case 'command-finished':
      return {
        ...state,
        log: appended(
          state,
          event.atMs,
          event.failure ? 'bad' : 'ok',
          `node/${event.node} command ${event.failure ?? 'exited 0'}`,
        ),
      };
    case 'budgets-waiting':
      return { ...state, budgetsWaiting: event.budgets };
    case 'batch-finished':
      return {
        ...state,
        budgetsWaiting: [],
        log: appended(
          state,
          event.atMs,
          event.ok ? 'ok' : 'bad',
          `batch ${event.batch} ${event.ok ? 'done' : 'stopped'}`,
        ),
      };
    case 'warning':
      return { ...state, log: appended(state, event.atMs, 'warn', event.message) };
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

/** Pods of the current drain still on `node` (not gone, skipped or failed). */
export function podsLeft(progress: RunProgress, node: string): number {
  return progress.drain.pods.filter((p) => p.pod.node === node && !isFinished(p.state)).length;
}

function withNode(state: RunProgress, node: string, change: (row: RunNodeRow) => RunNodeRow): RunProgress {
  return { ...state, nodes: state.nodes.map((row) => (row.node === node ? change(row) : row)) };
}

function appended(state: RunProgress, atMs: number, tone: RunLogEntry['tone'], text: string): RunLogEntry[] {
  return [...state.log, { id: String(state.log.length), atMs, tone, text }];
}
