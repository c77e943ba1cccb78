import { isApiException, parseStatus } from './api-status.js';
import { describeConnectionFailure } from './connection-errors.js';
import type { ProxyChoice } from './proxy.js';
import { ReadBrokeOff } from './read-retry.js';

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
  /** The proxy every request goes through (proxy-url or the environment), when there is one. */
  readonly proxy?: ProxyChoice | undefined;
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
  if (err instanceof ReadBrokeOff) {
    // The last try's failure sets the kind: a 5xx is the server's; a connection that broke, unreachable.
    const last = classifyKubeError(err.cause, target, call);
    const what = call ? `${call.verb} ${call.resource}` : 'a read';
    const kind = last.kind === 'unknown' ? 'unreachable' : last.kind;
    return new KubeError(kind, `${what} from ${serverName(target)} ${err.message}`, {
      ...(last.status === undefined ? {} : { status: last.status }),
      cause: err,
    });
  }
  if (isApiException(err)) {
    const status = parseStatus(err.body, err.headers, err.code);
    return fromHttpStatus(
      err.code,
      status.hasMessage ? firstLineOf(status.message) : undefined,
      status.reason,
      target,
      call,
      err,
    );
  }
  const connection = describeConnectionFailure(err, target);
  if (connection) return new KubeError(connection.kind, connection.message, { cause: err });
  const text = firstLine(err);
  const doing = call ? ` (${call.verb} ${call.resource})` : '';
  return new KubeError('unknown', `request to ${serverName(target)} failed${doing}: ${text || 'unknown error'}`, {
    cause: err,
  });
}

function fromHttpStatus(
  status: number,
  apiMessage: string | undefined,
  reason: string,
  target: KubeTargetInfo | undefined,
  call: KubeCall | undefined,
  cause: unknown,
): KubeError {
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
        `the server at ${serverName(target)} ${call ? `could not ${what}` : 'failed the request'}: ${apiMessage ?? (reason || 'no message')} (HTTP ${status})`,
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

function serverName(target: KubeTargetInfo | undefined): string {
  return target?.server || 'the API server';
}

function firstLine(err: unknown): string {
  return firstLineOf(err instanceof Error ? err.message : String(err));
}

export function firstLineOf(text: string): string {
  return (
    text
      .split('\n')
      .map((line) => line.trim())
      .find((line) => line !== '') ?? ''
  );
}
