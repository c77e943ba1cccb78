/** An exponential backoff: initialMs, ×factor after each consecutive failure, capped at maxMs. */
export interface BackoffSchedule {
  readonly initialMs: number;
  readonly factor: number;
  readonly maxMs: number;
}

/**
 * How long a pod refused for its budget waits before asking again when the budget's watch says nothing
 * (1 s, 2 s, 4 s, 8 s, then every 10 s). The watch normally wakes it first; this is the fallback for a
 * watch that is down or a 429 that names no budget.
 */
export const BUDGET_FALLBACK: BackoffSchedule = { initialMs: 1_000, factor: 2, maxMs: 10_000 };

/** Network errors, 5xx, a terminating namespace, throttling: 1 s, 2 s, 4 s, 8 s, then every 10 s. */
export const TRANSIENT_RETRY: BackoffSchedule = { initialMs: 1_000, factor: 2, maxMs: 10_000 };

/** Re-reading a pod that should be gone, when its watch has not said so: 1 s, 2 s, 4 s, then every 5 s. */
export const GONE_POLL: BackoffSchedule = { initialMs: 1_000, factor: 2, maxMs: 5_000 };

/**
 * The same re-read while the pod's watch says it is up: every 10 s, the check against a watch that lags
 * without saying so (the watch normally tells first).
 */
export const GONE_POLL_WATCHED: BackoffSchedule = { initialMs: 10_000, factor: 1, maxMs: 10_000 };

/** The delay before attempt number `failures + 1`, after `failures` consecutive failures (0 → initialMs). */
export function backoffDelayMs(schedule: BackoffSchedule, failures: number): number {
  const exponent = Math.max(0, failures);
  // Cap the exponent so that a long wait cannot overflow to Infinity.
  const raw = schedule.initialMs * schedule.factor ** Math.min(exponent, 32);
  return Math.min(schedule.maxMs, raw);
}
