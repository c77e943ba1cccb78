import type { ReadVerdict, Verdict } from '../plan/types.js';

/** Exit codes, in one place, as documented in `--help`. */
export const ExitCode = {
  /** plan: verdict clear or slow; drain: node drained. */
  Ok: 0,
  /** Any error: cluster unreachable, forbidden, unknown node, malformed snapshot, drain failed or timed out. */
  Error: 1,
  /** Usage error: unknown flag, missing argument, bad flag value. */
  Usage: 2,
  /** plan: verdict blocked. */
  Blocked: 3,
  /**
   * plan: verdict incomplete — it could not read a kind it needs (budgets, owners, pods) and would
   * otherwise be clear or slow. --allow-incomplete turns it back into 0.
   */
  Incomplete: 4,
  /**
   * plan: verdict disruptive — the drain finishes but leaves a workload with replicas down (a replacement
   * that no node takes). Ranks below blocked (3) and above incomplete (4).
   */
  Disruptive: 5,
  /** Interrupted (Ctrl-C, SIGINT convention 128 + 2). */
  Interrupted: 130,
  /** Terminated by SIGTERM (128 + 15): drain stops as on Ctrl-C. */
  Terminated: 143,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

const READ_VERDICT_EXIT: Record<ReadVerdict, ExitCode> = {
  clear: ExitCode.Ok,
  slow: ExitCode.Ok,
  blocked: ExitCode.Blocked,
  disruptive: ExitCode.Disruptive,
};

/**
 * What a pipeline gates on: 0 clear or slow, 3 blocked, 4 incomplete, 5 disruptive. An incomplete plan fails closed;
 * --allow-incomplete opts in to the exit code of the verdict from what was read (a pool plan that is
 * incomplete has no blocked batch, so that is 0).
 */
export function planExitCode(
  plan: { readonly verdict: Verdict; readonly assumedVerdict?: ReadVerdict },
  allowIncomplete: boolean,
): ExitCode {
  if (plan.verdict !== 'incomplete') return READ_VERDICT_EXIT[plan.verdict];
  return allowIncomplete ? READ_VERDICT_EXIT[plan.assumedVerdict ?? 'clear'] : ExitCode.Incomplete;
}

/** An error the CLI reports as one line (no stack trace) with its exit code. */
export class CliError extends Error {
  readonly exitCode: ExitCode;
  constructor(message: string, exitCode: ExitCode = ExitCode.Error) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

export class UsageError extends CliError {
  constructor(message: string) {
    super(message, ExitCode.Usage);
    this.name = 'UsageError';
  }
}
