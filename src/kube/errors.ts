import { ApiException } from '@kubernetes/client-node';

/**
 * Every way a call to the API server (or loading the kubeconfig before it) can fail, reduced to the few
 * kinds an operator acts on differently. The CLI maps a KubeError to its exit code; the drain engine
 * reads `kind`/`status` to decide whether to retry (429) or give up.
 */
export type KubeErrorKind =
  /** No kubeconfig, a kubeconfig that does not parse, an unknown context/cluster/user. */
  | 'config'
  /** Connection refused, host not found, connection reset, network unreachable. */
  | 'unreachable'
  /** --request-timeout (or a connect timeout) expired. */
  | 'timeout'
  /** The TLS handshake failed: unknown authority, expired or mismatched certificate, not TLS at all. */
  | 'tls'
  /** The credentials could not be obtained (exec plugin failed) or the server rejected them (401). */
  | 'unauthorized'
  /** 403: RBAC or an admission webhook refused the request. */
  | 'forbidden'
  /** 404: the object, or the resource type itself, does not exist. */
  | 'not-found'
  /** 409. */
  | 'conflict'
  /** 410: a list's continue token (or a watch's resourceVersion) expired. */
  | 'expired'
  /** 429: for evictions, a budget refused; otherwise API priority and fairness throttled us. */
  | 'too-many-requests'
  /** 5xx and anything else the server answered with. */
  | 'server'
  /** Nothing above matched. */
  | 'unknown';

export class KubeError extends Error {
  readonly kind: KubeErrorKind;
  /** The HTTP status code, when the server answered. */
  readonly status: number | undefined;
  /** The API's Status.message, when the server sent one. */
  readonly apiMessage: string | undefined;

  constructor(
    kind: KubeErrorKind,
    message: string,
    options: { status?: number; apiMessage?: string; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'KubeError';
    this.kind = kind;
    this.status = options.status;
    this.apiMessage = options.apiMessage;
  }
}

/** Who was talking to which server when the call failed: it makes the one line actionable. */
export interface KubeTargetInfo {
  readonly context: string;
  readonly user: string;
  readonly server: string;
  /** --request-timeout in milliseconds; 0 = none. */
  readonly requestTimeoutMs: number;
  /** The exec credential plugin's command, when the user has one. */
  readonly execCommand?: string | undefined;
}

/** What the call was doing, in kubectl's terms: `list pods` at the cluster scope, `create pods/eviction` in "demo". */
export interface KubeCall {
  readonly verb: string;
  /** Plural resource, with its group for non-core ones: `pods`, `poddisruptionbudgets.policy`. */
  readonly resource: string;
  /** Absent for cluster-scoped calls and lists across all namespaces. */
  readonly namespace?: string | undefined;
  readonly name?: string | undefined;
}

/**
 * Turns anything a client-node call throws into a KubeError with a one-line message. Never throws,
 * never returns a multi-line message.
 */
export function classifyKubeError(err: unknown, target: KubeTargetInfo | undefined, call?: KubeCall): KubeError {
  if (err instanceof KubeError) return err;
  if (isApiException(err)) return fromHttpStatus(err.code, parseStatusBody(err.body), target, call, err);
  const timeout = findTimeout(err);
  if (timeout) {
    const limit = target?.requestTimeoutMs ? ` within ${formatMs(target.requestTimeoutMs)} (--request-timeout)` : '';
    return new KubeError('timeout', `${reachPrefix(target)}: no answer${limit}`, { cause: err });
  }
  const code = findErrorCode(err);
  if (code !== undefined) {
    const tls = describeTlsCode(code);
    if (tls) return new KubeError('tls', `TLS handshake with ${serverName(target)} failed: ${tls}`, { cause: err });
    const network = NETWORK_CODES[code];
    if (network) return new KubeError(network.kind, `${reachPrefix(target)}: ${network.text}`, { cause: err });
    if (code === 'ENOENT' && target?.execCommand) {
      return new KubeError(
        'unauthorized',
        `cannot get credentials for user "${target.user}": command "${target.execCommand}" not found (check users[].exec in the kubeconfig)`,
        { cause: err },
      );
    }
  }
  const text = firstLine(err);
  if (target?.execCommand && isFromExecPlugin(err)) {
    return new KubeError(
      'unauthorized',
      `cannot get credentials for user "${target.user}" from "${target.execCommand}": ${text || 'the command failed'}`,
      { cause: err },
    );
  }
  if (/HTTP protocol is not allowed|No active cluster/.test(text)) {
    return new KubeError('config', `kubeconfig context "${target?.context ?? ''}" is not usable: ${text}`, {
      cause: err,
    });
  }
  const doing = call ? ` (${call.verb} ${call.resource})` : '';
  return new KubeError('unknown', `request to ${serverName(target)} failed${doing}: ${text || 'unknown error'}`, {
    cause: err,
  });
}

/** The API's Status object, as far as we use it. */
interface ApiStatus {
  readonly message?: string;
  readonly reason?: string;
}

function fromHttpStatus(
  status: number,
  body: ApiStatus,
  target: KubeTargetInfo | undefined,
  call: KubeCall | undefined,
  cause: unknown,
): KubeError {
  const apiMessage = body.message;
  const opts = { status, cause, ...(apiMessage === undefined ? {} : { apiMessage }) };
  const what = call ? describeCall(call) : 'the request';
  switch (status) {
    case 401:
      return new KubeError(
        'unauthorized',
        `unauthorized: check your credentials for context "${target?.context ?? ''}" (user "${target?.user ?? ''}")`,
        opts,
      );
    case 403:
      return new KubeError('forbidden', `forbidden: ${describeForbidden(apiMessage, target, call)}`, opts);
    case 404:
      return new KubeError(
        'not-found',
        `not found: ${apiMessage ?? `the server has no ${call?.resource ?? 'such resource'}`}`,
        opts,
      );
    case 409:
      return new KubeError('conflict', `conflict: ${apiMessage ?? what}`, opts);
    case 410:
      return new KubeError('expired', `expired: ${apiMessage ?? `${what} must be restarted`}`, opts);
    case 429:
      return new KubeError('too-many-requests', `too many requests: ${apiMessage ?? `${what} was throttled`}`, opts);
    default:
      return new KubeError(
        'server',
        `the server at ${serverName(target)} ${call ? `could not ${what}` : 'failed the request'}: ${apiMessage ?? body.reason ?? 'no message'} (HTTP ${status})`,
        opts,
      );
  }
}

/**
 * RBAC's denial reads `pods is forbidden: User "alice" cannot list resource "pods" in API group "" at
 * the cluster scope`. We keep the subject, verb, resource and scope, in kubectl's resource.group form.
 * Other 403s (admission webhooks, namespace terminating) keep the server's own message.
 */
function describeForbidden(
  apiMessage: string | undefined,
  target: KubeTargetInfo | undefined,
  call: KubeCall | undefined,
): string {
  const rbac = apiMessage?.match(
    /User "([^"]*)" cannot ([\w-]+) resource "([^"]+)"(?: in API group "([^"]*)")?(?: (at the cluster scope)| in the namespace "([^"]*)")?/,
  );
  if (rbac) {
    const [, user, verb, resource, group, clusterScope, namespace] = rbac;
    const qualified = group ? `${resource}.${group}` : resource;
    const scope = clusterScope ? ' at the cluster scope' : namespace ? ` in namespace "${namespace}"` : '';
    return `user "${user}" cannot ${verb} ${qualified}${scope}`;
  }
  if (apiMessage) return apiMessage;
  const user = target ? `user "${target.user}"` : 'the user';
  return call ? `${user} cannot ${describeCall(call)}` : `${user} is not allowed to do this`;
}

function describeCall(call: KubeCall): string {
  const name = call.name ? ` "${call.name}"` : '';
  const scope = call.namespace ? ` in namespace "${call.namespace}"` : call.name ? '' : ' at the cluster scope';
  return `${call.verb} ${call.resource}${name}${scope}`;
}

/** client-node 2.x hands the Status body over as a JSON string (or undefined on 401). */
function parseStatusBody(body: unknown): ApiStatus {
  let value: unknown = body;
  if (typeof body === 'string') {
    try {
      value = JSON.parse(body);
    } catch {
      return body.trim() === '' ? {} : { message: firstLineOf(body) };
    }
  }
  if (value === null || typeof value !== 'object') return {};
  const { message, reason } = value as Record<string, unknown>;
  return {
    ...(typeof message === 'string' && message !== '' ? { message: firstLineOf(message) } : {}),
    ...(typeof reason === 'string' && reason !== '' ? { reason } : {}),
  };
}

function isApiException(err: unknown): err is ApiException<unknown> {
  return (
    err instanceof ApiException ||
    (err instanceof Error && typeof (err as { code?: unknown }).code === 'number' && 'body' in err && 'headers' in err)
  );
}

/** Network failures as the OS (or undici) names them, worded like kubectl's "connection refused". */
const NETWORK_CODES: Readonly<Record<string, { kind: KubeErrorKind; text: string }>> = {
  ECONNREFUSED: { kind: 'unreachable', text: 'connection refused' },
  ENOTFOUND: { kind: 'unreachable', text: 'host not found' },
  EAI_AGAIN: { kind: 'unreachable', text: 'host name lookup failed (temporary DNS failure)' },
  ECONNRESET: { kind: 'unreachable', text: 'connection reset by the server' },
  EPIPE: { kind: 'unreachable', text: 'connection closed by the server' },
  EHOSTUNREACH: { kind: 'unreachable', text: 'host unreachable' },
  ENETUNREACH: { kind: 'unreachable', text: 'network unreachable' },
  EADDRNOTAVAIL: { kind: 'unreachable', text: 'address not available' },
  ETIMEDOUT: { kind: 'timeout', text: 'connection timed out' },
  UND_ERR_CONNECT_TIMEOUT: { kind: 'timeout', text: 'connection timed out' },
  UND_ERR_HEADERS_TIMEOUT: { kind: 'timeout', text: 'the server sent no answer in time' },
  UND_ERR_BODY_TIMEOUT: { kind: 'timeout', text: 'the server stopped sending its answer' },
  UND_ERR_SOCKET: { kind: 'unreachable', text: 'connection closed by the server' },
  UND_ERR_CLOSED: { kind: 'unreachable', text: 'connection closed' },
};

/** OpenSSL / Node TLS error codes, in the words kubectl (Go's crypto/x509) would use, plus what to check. */
function describeTlsCode(code: string): string | undefined {
  switch (code) {
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
      return 'certificate signed by unknown authority (check certificate-authority-data in the kubeconfig)';
    case 'CERT_HAS_EXPIRED':
      return 'the server certificate has expired';
    case 'CERT_NOT_YET_VALID':
      return 'the server certificate is not yet valid';
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return 'the server certificate is not valid for this host name (check the server address or tls-server-name)';
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
    case 'ERR_SSL_PACKET_LENGTH_TOO_LONG':
      return 'the server did not answer in TLS (is the server address http:// rather than https://?)';
    case 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED':
    case 'ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE':
    case 'ERR_SSL_TLSV1_ALERT_UNKNOWN_CA':
      return 'the server rejected the client certificate (check client-certificate-data in the kubeconfig)';
    default:
      if (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_') || code.startsWith('CERT_')) {
        return code
          .toLowerCase()
          .replace(/^err_(ssl|tls)_/, '')
          .replaceAll('_', ' ');
      }
      return undefined;
  }
}

/**
 * undici's fetch rejects with `TypeError: fetch failed` and puts the socket error in `cause`, sometimes
 * an AggregateError (one per address tried). Walk causes and aggregates, first code wins.
 */
function findErrorCode(err: unknown, depth = 0): string | undefined {
  if (depth > 5 || err === null || typeof err !== 'object') return undefined;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && code !== '') return code;
  for (const inner of (err as { errors?: unknown }).errors instanceof Array
    ? (err as { errors: unknown[] }).errors
    : []) {
    const found = findErrorCode(inner, depth + 1);
    if (found) return found;
  }
  return findErrorCode((err as { cause?: unknown }).cause, depth + 1);
}

/** AbortSignal.timeout() aborts with a DOMException named TimeoutError; fetch rethrows it as is or as a cause. */
function findTimeout(err: unknown, depth = 0): boolean {
  if (depth > 5 || err === null || typeof err !== 'object') return false;
  if ((err as { name?: unknown }).name === 'TimeoutError') return true;
  return findTimeout((err as { cause?: unknown }).cause, depth + 1);
}

/** exec_auth rejects with `new Error(stderr)` or a JSON parse error; neither has a code nor a fetch cause. */
function isFromExecPlugin(err: unknown): boolean {
  return (
    err instanceof Error && !(err instanceof TypeError && err.message === 'fetch failed') && err.cause === undefined
  );
}

function reachPrefix(target: KubeTargetInfo | undefined): string {
  return `cannot reach the cluster at ${serverName(target)}`;
}

function serverName(target: KubeTargetInfo | undefined): string {
  return target?.server || 'the API server';
}

function firstLine(err: unknown): string {
  return firstLineOf(err instanceof Error ? err.message : String(err));
}

function firstLineOf(text: string): string {
  return (
    text
      .split('\n')
      .map((line) => line.trim())
      .find((line) => line !== '') ?? ''
  );
}

export function formatMs(ms: number): string {
  if (ms % 60_000 === 0 && ms >= 60_000) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}
