import { isApiException, parseStatus } from './api-status.js';
import { findErrorCode } from './connection-errors.js';

/**
 * A read that did not get its answer whole is tried again when the cause is passing, as client-go's
 * requests and reflector try theirs again:
 * - API priority and fairness (APF) answers a read it will not serve now with 429 and a Retry-After: "come
 *   back later". client-go's request retries it up to ten times, waiting what the server asks each time.
 * - A read that broke off part-way: the connection closed or reset, the answer cut short, a 5xx (the API
 *   server's own timeout of a long list is a 504, or a connection it drops). Tried again a few times, after
 *   a growing wait; after the last try the read fails with the cause, never with the part it got.
 * What is not passing is not retried: an answer to act on (403, 404, 410, 422), a server that cannot be
 * reached at all (refused, TLS), the user's --request-timeout.
 */

/** client-go's rest.Request default (maxRetries). */
export const MAX_THROTTLED_RETRIES = 10;
/** When the server sends 429 without saying how long to wait: client-go's default Retry-After. */
const DEFAULT_RETRY_AFTER_SECONDS = 1;
/** A Retry-After longer than this is waited for only this long: a read should not sleep for an hour. */
const MAX_RETRY_AFTER_SECONDS = 60;
/** The wait before each new try of a read that broke off: three retries, four tries in all. */
export const BROKEN_READ_WAITS_SECONDS: readonly number[] = [1, 2, 4];

const THROTTLED = 'throttled by the API server';

/** A 429 answer, and the seconds the server asked to wait; null for anything else. */
export function throttledFor(err: unknown): number | null {
  if (!isApiException(err) || err.code !== 429) return null;
  const seconds = parseStatus(err.body, err.headers, err.code).retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS;
  return Math.min(Math.max(seconds, 0), MAX_RETRY_AFTER_SECONDS);
}

/** Codes in a failure's causes (Node's sockets, undici, zlib) that mean the answer stopped part-way. */
const BROKEN_CODES: Readonly<Record<string, string>> = {
  UND_ERR_SOCKET: 'the connection closed',
  EPIPE: 'the connection closed',
  ECONNRESET: 'the connection was reset',
  UND_ERR_BODY_TIMEOUT: 'the server stopped sending',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'the answer was cut short',
  Z_BUF_ERROR: 'the answer was cut short',
};

/** The 5xx answers that say "not now": 501 (not implemented) and the rest say the request will never do. */
const PASSING_SERVER_ERRORS = new Set([500, 502, 503, 504]);

/**
 * Why a read broke off part-way, in a few words ("the connection closed"); null when the failure is not a
 * passing one (see above), or is already the verdict on a read tried in vain (ReadBrokeOff).
 */
export function brokenOff(err: unknown): string | null {
  if (err instanceof ReadBrokeOff) return null;
  if (isApiException(err)) {
    if (!PASSING_SERVER_ERRORS.has(err.code)) return null;
    const status = parseStatus(err.body, err.headers, err.code);
    return `the server answered ${err.code}${status.hasMessage ? ` (${status.message.split('\n')[0]!.trim()})` : ''}`;
  }
  // An answer that ended before its JSON did.
  if (err instanceof SyntaxError) return `the answer was cut short (${err.message})`;
  const code = findErrorCode(err);
  if (code !== undefined) return BROKEN_CODES[code] ?? null;
  // undici's fetch ends a body whose connection closed with `TypeError: terminated`.
  return err instanceof TypeError && err.message === 'terminated' ? 'the connection closed' : null;
}

/** A wait before the next try: how long, why, and the how-manieth retry it is (1-based). */
export interface RetryWait {
  readonly seconds: number;
  readonly reason: string;
  readonly retry: number;
}

/** The wait before trying again a read that broke off, after `retries` retries of it; null past the last. */
export function brokenReadWait(err: unknown, retries: number): RetryWait | null {
  const reason = brokenOff(err);
  const seconds = BROKEN_READ_WAITS_SECONDS[retries];
  return reason === null || seconds === undefined
    ? null
    : { seconds, reason: `broke off as ${reason}`, retry: retries + 1 };
}

/** A read that broke off on every try: the verdict, with the last try's failure as its cause. */
export class ReadBrokeOff extends Error {
  constructor(
    readonly tries: number,
    readonly reason: string,
    options: { cause: unknown },
  ) {
    super(`broke off ${tries} times (the last: ${reason})`, options);
    this.name = 'ReadBrokeOff';
  }
}

/** What a read that failed after `retries` retries throws: ReadBrokeOff when it broke off each time. */
export function readFailure(err: unknown, retries: number): unknown {
  const reason = retries > 0 ? brokenOff(err) : null;
  return reason === null ? err : new ReadBrokeOff(retries + 1, reason, { cause: err });
}

export interface RetryOptions {
  /** Told before each wait. */
  readonly onRetry?: ((wait: RetryWait) => void) | undefined;
  /** Waits `ms`; rejects or resolves early when `signal` aborts. */
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<unknown>;
  readonly signal?: AbortSignal | undefined;
  readonly maxThrottledRetries?: number;
  /**
   * Whether a request that broke off is sent again as it was: a page of a LIST, whose continue token
   * resumes the list where it broke. A streaming read starts over instead (kube/informer.ts).
   */
  readonly brokenOff: boolean;
}

/** Runs `request`, again after each 429 and (with `brokenOff`) each break, within the bounds above. */
export async function retryRead<T>(request: () => Promise<T>, options: RetryOptions): Promise<T> {
  const maxThrottled = options.maxThrottledRetries ?? MAX_THROTTLED_RETRIES;
  let throttled = 0;
  let broken = 0;
  for (;;) {
    try {
      return await request();
    } catch (err) {
      if (options.signal?.aborted) throw err;
      const seconds = throttledFor(err);
      let wait: RetryWait | null = null;
      if (seconds !== null && throttled < maxThrottled) {
        throttled += 1;
        wait = { seconds, reason: THROTTLED, retry: throttled };
      } else if (seconds === null && options.brokenOff) {
        wait = brokenReadWait(err, broken);
        if (wait) broken += 1;
      }
      if (wait === null) throw seconds === null && options.brokenOff ? readFailure(err, broken) : err;
      options.onRetry?.(wait);
      await options.sleep(wait.seconds * 1000, options.signal);
      if (options.signal?.aborted) throw err;
    }
  }
}
