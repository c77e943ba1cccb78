import type { DrainPlan } from './types.js';

/**
 * How long each batch of a pool run takes, and the run (pure). A batch is its drain (the drain estimate
 * of eta.ts: first eviction until the last pod is gone), then the operator's command and the node's
 * return — which no snapshot can tell: it is an assumption the operator names (`--command-time`), or
 * the run's own measurement once a node has come back — then, before the next batch, its budgets back:
 * the last replacement Ready, which mostly happens while the command runs.
 */
export interface BatchEta {
  /** Seconds from the batch's start until its nodes are back and its budgets recovered; null when the drain cannot finish. */
  readonly totalSeconds: number | null;
  /** The drain estimate: the first eviction until the last pod is gone (null: blocked). */
  readonly drainSeconds: number | null;
  /** From the first eviction until the last replacement is Ready, which the next batch waits for. */
  readonly replacementsReadySeconds: number;
  /** The command and the node's return, as assumed (0 when not counted). */
  readonly commandSeconds: number;
}

export interface PoolEta {
  /** Seconds for the whole run, batch after batch; null when a batch cannot finish. */
  readonly totalSeconds: number | null;
  /** The assumed time of the command and the node's return, per batch; null when not counted. */
  readonly commandSeconds: number | null;
  /** What the estimate rests on, one line each, the assumption first. */
  readonly basis: readonly string[];
}

/** What a batch's drain plan says about its time, without the command: kept on the run so it can re-estimate. */
export interface BatchDrainTimes {
  readonly drainSeconds: number | null;
  readonly replacementsReadySeconds: number;
}

export function drainTimesOf(plan: DrainPlan): BatchDrainTimes {
  const drainSeconds = plan.eta ? plan.eta.totalSeconds : null;
  const ready = plan.pods.flatMap((p) =>
    p.eta && p.eta.replacementReadySeconds !== null ? [p.eta.evictedAfterSeconds + p.eta.replacementReadySeconds] : [],
  );
  return { drainSeconds, replacementsReadySeconds: round(Math.max(0, ...ready)) };
}

/** One batch: drain, then the command (`commandSeconds`, 0 when unknown), then what is left of the budgets' recovery. */
export function batchEta(times: BatchDrainTimes, commandSeconds: number | null): BatchEta {
  const command = commandSeconds ?? 0;
  const { drainSeconds, replacementsReadySeconds } = times;
  const total = drainSeconds === null ? null : round(Math.max(drainSeconds + command, replacementsReadySeconds));
  return { totalSeconds: total, drainSeconds, replacementsReadySeconds, commandSeconds: command };
}

/** The run: its batches one after the other. */
export function poolEta(batches: readonly BatchEta[], commandSeconds: number | null): PoolEta {
  const totals = batches.map((b) => b.totalSeconds);
  const total = totals.some((t) => t === null) ? null : round(totals.reduce<number>((a, b) => a + (b ?? 0), 0));
  return {
    totalSeconds: total,
    commandSeconds,
    basis: [
      commandSeconds === null
        ? "the command and the node's return are not counted (no --command-time): each batch is its drain and its budgets' recovery"
        : `the command and the node's return take ${commandSeconds} s per batch (assumed: --command-time)`,
      "each batch's drain: the drain estimate against the cluster as it will be then (its waves, grace periods and replacements' start-to-Ready)",
      'before the next batch: the last replacement Ready, so the budgets are back',
      ...(total === null ? ['a blocked batch cannot finish: no total'] : []),
    ],
  };
}

const round = (seconds: number) => Math.round(seconds * 10) / 10;
