import { isApiException, parseStatus, type ApiStatus } from './api-status.js';
import { classifyKubeError } from './errors.js';
import { warningsOfHeaders } from './warning-headers.js';

/**
 * What a write returned, as data rather than an exception, so the drain can classify it with pure
 * functions: a 2xx, an error Status with its HTTP code, or no answer at all (connection refused, reset,
 * TLS error, aborted) with the one-line message kubectl would print for it.
 */
export type ApiOutcome =
  | { readonly kind: 'ok'; readonly warnings?: readonly string[] }
  | {
      readonly kind: 'status';
      readonly code: number;
      readonly status: ApiStatus;
      readonly warnings?: readonly string[];
    }
  | { readonly kind: 'network'; readonly message: string };

/**
 * Runs one API call and turns its result or error into an ApiOutcome; never throws. A call that hands
 * back its response's headers (client-node's `…WithHttpInfo`) has the API server's warnings kept
 * (warning-headers.ts); an error's are kept always.
 */
export async function outcomeOf(call: () => Promise<unknown>): Promise<ApiOutcome> {
  try {
    const result = await call();
    const headers = (result as { headers?: Record<string, string> } | undefined)?.headers;
    return withWarnings({ kind: 'ok' }, warningsOfHeaders(headers));
  } catch (err) {
    return toApiOutcome(err);
  }
}

export function toApiOutcome(err: unknown): ApiOutcome {
  if (isApiException(err)) {
    const status = parseStatus(err.body, err.headers, err.code);
    return withWarnings({ kind: 'status', code: err.code, status }, warningsOfHeaders(err.headers));
  }
  return { kind: 'network', message: classifyKubeError(err, undefined).message };
}

function withWarnings<T extends ApiOutcome>(outcome: T, warnings: readonly string[]): T {
  return warnings.length > 0 ? { ...outcome, warnings } : outcome;
}
