import { isApiException, parseStatus } from './api-status.js';

/**
 * The API server's priority and fairness (APF) answers a read it will not serve now with 429 and a
 * Retry-After. That is "come back later", not a failure: client-go's request retries it up to ten times,
 * waiting what the server asks each time, and so does every read here.
 */

/** client-go's rest.Request default (maxRetries). */
export const MAX_THROTTLED_RETRIES = 10;
/** When the server sends 429 without saying how long to wait: client-go's default Retry-After. */
const DEFAULT_RETRY_AFTER_SECONDS = 1;
/** A Retry-After longer than this is waited for only this long: a read should not sleep for an hour. */
const MAX_RETRY_AFTER_SECONDS = 60;

/** A 429 answer, and the seconds the server asked to wait; null for anything else. */
export function throttledFor(err: unknown): number | null {
  if (!isApiException(err) || err.code !== 429) return null;
  const seconds = parseStatus(err.body, err.headers, err.code).retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS;
  return Math.min(Math.max(seconds, 0), MAX_RETRY_AFTER_SECONDS);
}

export interface ThrottleOptions {
  /** Told before each wait: how long, and the how-manieth retry this is (1-based). */
  readonly onThrottled?: ((seconds: number, retry: number) => void) | undefined;
  /** Waits `ms`; rejects or resolves early when `signal` aborts. */
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<unknown>;
  readonly signal?: AbortSignal | undefined;
  readonly maxRetries?: number;
}

/** Runs `request`, again after each 429 for as long as the server asks, at most `maxRetries` times. */
export async function retryThrottled<T>(request: () => Promise<T>, options: ThrottleOptions): Promise<T> {
  const maxRetries = options.maxRetries ?? MAX_THROTTLED_RETRIES;
  for (let retry = 1; ; retry++) {
    try {
      return await request();
    } catch (err) {
      const seconds = throttledFor(err);
      if (seconds === null || retry > maxRetries || options.signal?.aborted) throw err;
      options.onThrottled?.(seconds, retry);
      await options.sleep(seconds * 1000, options.signal);
      if (options.signal?.aborted) throw err;
    }
  }
}
