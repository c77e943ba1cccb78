import type { ApiException } from '@kubernetes/client-node';

/**
 * The parts of a Kubernetes `Status` the plugin reads (the body of every error response:
 * `{"kind":"Status","code":429,"reason":"TooManyRequests","message":…,"details":{"causes":[…],"retryAfterSeconds":10}}`).
 * A StatusCause's `type` is serialised as `reason`.
 */
export interface ApiStatus {
  /** Status.message, or `HTTP <code>` when the server sent none. */
  readonly message: string;
  /** Whether `message` came from the server (false: it is the `HTTP <code>` stand-in). */
  readonly hasMessage: boolean;
  readonly reason: string;
  readonly causes: ReadonlyArray<{ readonly reason: string; readonly message: string }>;
  readonly retryAfterSeconds: number | null;
}

/**
 * The one parser of API Status bodies. client-node hands the body over as a JSON string (or undefined
 * for a 401); objects and non-JSON text (a proxy's "Bad Gateway") are tolerated too.
 */
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
  const hasMessage = typeof obj.message === 'string' && obj.message !== '';
  return {
    message: hasMessage ? (obj.message as string) : `HTTP ${code}`,
    hasMessage,
    reason: typeof obj.reason === 'string' ? obj.reason : '',
    causes: (obj.details?.causes ?? []).map((c) => ({
      reason: String(c.reason ?? c.type ?? ''),
      message: String(c.message ?? ''),
    })),
    retryAfterSeconds: fromBody && fromBody > 0 ? fromBody : fromHeader,
  };
}

/**
 * client-node's ApiException, or an error shaped like one (kube/rest.ts's, a second copy of the library):
 * known by its shape, so that reading an error loads no Kubernetes client.
 */
export function isApiException(err: unknown): err is ApiException<unknown> {
  return (
    err instanceof Error && typeof (err as { code?: unknown }).code === 'number' && 'body' in err && 'headers' in err
  );
}
