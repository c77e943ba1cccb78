import { isApiException, parseStatus, type ApiStatus } from './api-status.js';
import { classifyKubeError } from './errors.js';

/**
 * What a write returned, as data rather than an exception, so the drain can classify it with pure
 * functions: a 2xx, an error Status with its HTTP code, or no answer at all (connection refused, reset,
 * TLS error, aborted) with the one-line message kubectl would print for it.
 */
export type ApiOutcome =
  | { readonly kind: 'ok' }
  | { readonly kind: 'status'; readonly code: number; readonly status: ApiStatus }
  | { readonly kind: 'network'; readonly message: string };

/** Runs one API call and turns its result or error into an ApiOutcome; never throws. */
export async function outcomeOf(call: () => Promise<unknown>): Promise<ApiOutcome> {
  try {
    await call();
    return { kind: 'ok' };
  } catch (err) {
    return toApiOutcome(err);
  }
}

export function toApiOutcome(err: unknown): ApiOutcome {
  if (isApiException(err)) {
    return { kind: 'status', code: err.code, status: parseStatus(err.body, err.headers, err.code) };
  }
  return { kind: 'network', message: classifyKubeError(err, undefined).message };
}
