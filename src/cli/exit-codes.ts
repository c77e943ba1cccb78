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
