import { ApiException } from '@kubernetes/client-node';

/**
 * The parts of a Kubernetes `Status` the drain reads (the body of every error response:
 * `{"kind":"Status","code":429,"reason":"TooManyRequests","message":…,"details":{"causes":[…],"retryAfterSeconds":10}}`).
 * A StatusCause's `type` is serialised as `reason`.
 */
export interface ApiStatus {
  readonly message: string;
  readonly reason: string;
  readonly causes: ReadonlyArray<{ readonly reason: string; readonly message: string }>;
  readonly retryAfterSeconds: number | null;
}

/**
 * What a write returned, as data rather than an exception, so the drain can classify it with pure
 * functions: a 2xx, an error Status with its HTTP code, or no answer at all (connection refused, reset,
 * TLS error, aborted).
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
  if (err instanceof ApiException) {
    return { kind: 'status', code: err.code, status: parseStatus(err.body, err.headers, err.code) };
  }
  return { kind: 'network', message: networkMessage(err) };
}

/** client-node hands the error body over as a string (or undefined for a 401); tolerate both and objects. */
export function parseStatus(
  body: unknown,
  headers: Readonly<Record<string, string>> | undefined,
  code: number,
): ApiStatus {
  let raw: unknown = body;
  if (typeof body === 'string') {
    try {
      raw = JSON.parse(body);
    } catch {
      raw = { message: body.trim() };
    }
  }
  const obj = (raw && typeof raw === 'object' ? raw : {}) as {
    message?: unknown;
    reason?: unknown;
    details?: { causes?: Array<{ reason?: unknown; type?: unknown; message?: unknown }>; retryAfterSeconds?: unknown };
  };
  const header = headers?.['retry-after'] ?? headers?.['Retry-After'];
  const fromBody = typeof obj.details?.retryAfterSeconds === 'number' ? obj.details.retryAfterSeconds : null;
  const fromHeader = header !== undefined && /^\d+$/.test(header) ? Number(header) : null;
  return {
    message: typeof obj.message === 'string' && obj.message !== '' ? obj.message : `HTTP ${code}`,
    reason: typeof obj.reason === 'string' ? obj.reason : '',
    causes: (obj.details?.causes ?? []).map((c) => ({
      reason: String(c.reason ?? c.type ?? ''),
      message: String(c.message ?? ''),
    })),
    retryAfterSeconds: fromBody && fromBody > 0 ? fromBody : fromHeader,
  };
}

/** fetch failures hide the useful part (ECONNREFUSED 127.0.0.1:6443) in `cause`. */
function networkMessage(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as { cause?: unknown }).cause;
  if (cause instanceof Error && cause.message && cause.message !== err.message)
    return `${err.message}: ${cause.message}`;
  return err.message.split('\n')[0] ?? 'request failed';
}
