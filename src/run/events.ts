import type { DrainEvent } from '../drain/events.js';
import type { RunEtaNow } from './run-eta.js';
import type { NodePhase } from './state.js';

export type RunResult = 'done' | 'failed' | 'interrupted' | 'paused';

/** One node's place in the run, as the final event reports it. */
export interface NodeState {
  readonly node: string;
  readonly batch: number;
  readonly phase: NodePhase;
  /** Why it stopped, for a node in a failed phase. */
  readonly problem?: string | undefined;
}

/**
 * What `kubectl maint run` tells its listeners; `-o json` prints each as one line. Every view is a function
 * of this stream. `atMs` is epoch milliseconds.
 */
export type RunEvent =
  | {
      readonly type: 'run-started';
      readonly atMs: number;
      readonly runId: string;
      readonly holder: string;
      readonly batches: readonly (readonly string[])[];
      readonly command: readonly string[];
      readonly resumed: boolean;
      /** The directory that keeps each node's command output (`<node>.log`); null without a command. */
      readonly commandLog: string | null;
      /** Each node's phase as recorded when the run (re)started: a resume finds some done or mid-way. */
      readonly phases: Readonly<Record<string, NodePhase>>;
    }
  | {
      readonly type: 'batch-started';
      readonly atMs: number;
      readonly batch: number;
      readonly nodes: readonly string[];
      /**
       * The earlier batches not finished when this one starts (the window slid past them), each with its
       * nodes not back in service yet; none means only its budgets are left to recover. Absent when every
       * earlier batch is finished.
       */
      readonly unfinished?: ReadonlyArray<{ readonly batch: number; readonly nodes: readonly string[] }>;
    }
  | {
      readonly type: 'phase';
      readonly atMs: number;
      readonly node: string;
      readonly batch: number;
      readonly phase: NodePhase;
      readonly problem?: string | undefined;
    }
  /**
   * An event of one drain of the batch, as `kubectl maint drain -o json` prints it. `nodes` are the nodes
   * that drain cordons and drains (a group of the window): drains of several groups can run at once.
   */
  | {
      readonly type: 'drain';
      readonly atMs: number;
      readonly batch: number;
      readonly nodes: readonly string[];
      readonly event: DrainEvent;
    }
  | {
      readonly type: 'command-output';
      readonly atMs: number;
      readonly node: string;
      readonly stream: 'stdout' | 'stderr';
      readonly line: string;
    }
  | {
      readonly type: 'command-finished';
      readonly atMs: number;
      readonly node: string;
      readonly exitCode: number | null;
      /** null when it exited 0. */
      readonly failure: string | null;
    }
  | {
      readonly type: 'budgets-waiting';
      readonly atMs: number;
      readonly batch: number;
      /** Budgets not yet back to the disruptionsAllowed they had before the batch. */
      readonly budgets: ReadonlyArray<{ readonly name: string; readonly before: number; readonly now: number }>;
    }
  | { readonly type: 'batch-finished'; readonly atMs: number; readonly batch: number; readonly ok: boolean }
  /**
   * The run's ETA, in seconds from atMs: at each batch's start (its fresh drain plan), at its drain's end,
   * and when it finishes. The command's time is this run's measurement once a batch has come back,
   * --command-time before, and not counted without either (commandBasis says which).
   */
  | ({ readonly type: 'eta'; readonly atMs: number; readonly batch: number } & RunEtaNow)
  | { readonly type: 'warning'; readonly atMs: number; readonly message: string }
  /**
   * Ctrl-C or SIGTERM. 'stop' (the first): nothing new starts, drains stop, the commands listed run on to
   * their end. 'kill' (the second): the commands listed are killed, every process each started (run/command-processes.ts).
   */
  | {
      readonly type: 'interrupt';
      readonly atMs: number;
      readonly step: 'stop' | 'kill';
      /** Nodes whose command is running. */
      readonly commands: readonly string[];
    }
  /**
   * --pause: the batch's nodes are drained and wait for the operator's own maintenance: a key on a
   * terminal (`waitingFor: 'key'`), otherwise the run stops here and `resumeCommand` continues it.
   */
  | {
      readonly type: 'paused';
      readonly atMs: number;
      readonly batch: number;
      readonly nodes: readonly string[];
      readonly waitingFor: 'key' | 'resume';
      readonly resumeCommand: string;
    }
  | {
      readonly type: 'run-finished';
      readonly atMs: number;
      readonly runId: string;
      /**
       * done: every node back in service; failed: a node stopped in a failed phase; interrupted: Ctrl-C;
       * paused: --pause without a terminal, a batch drained and waiting for `--resume`.
       */
      readonly result: RunResult;
      readonly nodes: readonly NodeState[];
      /** The command that continues the run, or null when it is done. */
      readonly resumeCommand: string | null;
      /** As in run-started. */
      readonly commandLog: string | null;
      /** Each finished batch's command and return as the run measured them, in seconds (a resume's estimate). */
      readonly commandSeconds: readonly number[];
    };

/** An event before it is stamped with its time: what the run's steps hand to its emitter. */
export type RunEventBody = DistributiveOmit<RunEvent, 'atMs'>;

/** Omit over each member of a union (a plain Omit would merge the members into one). */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
