import net from 'node:net';
import type { KubeErrorKind, KubeTargetInfo } from './errors.js';

/**
 * A request that got no answer from the API server (refused, timed out, TLS failure), in kubectl's words:
 * kubectl's StandardErrorMessage (k8s.io/kubectl pkg/cmd/util/helpers.go) prints "The connection to the
 * server HOST was refused - did you specify the right host or port?" for a refused connection and
 * "Unable to connect to the server: <Go's error>" for every other failure before an answer. The Go error
 * texts (crypto/x509, crypto/tls, net) are mirrored from Node's codes, so the operator reads one wording
 * whichever tool failed. `undefined` when the error is not a connection failure.
 */
export function describeConnectionFailure(
  err: unknown,
  target: KubeTargetInfo | undefined,
): { kind: KubeErrorKind; message: string } | undefined {
  const code = opensslCode(err) ?? findErrorCode(err);
  const connectTimeoutMs = code === 'UND_ERR_CONNECT_TIMEOUT' ? undiciTimeoutMs(err) : undefined;
  const requestTimeoutMs = target?.requestTimeoutMs ?? 0;
  // The connect timeout is --request-timeout when that is shorter than undici's own (kube/transport.ts).
  if (
    findTimeout(err) ||
    (connectTimeoutMs !== undefined && requestTimeoutMs > 0 && connectTimeoutMs >= requestTimeoutMs)
  ) {
    return { kind: 'timeout', message: unable(timeoutText(target)) };
  }
  if (code === undefined) return fetchFailed(err, target);
  const socket = findCause(err, (e) => (e as { code?: unknown }).code === code) as SocketError | undefined;
  const proxied = target?.proxy ? describeProxyFailure(code, err, target, socket, connectTimeoutMs) : undefined;
  if (proxied) return proxied;
  if (code === 'ECONNREFUSED') {
    return {
      kind: 'unreachable',
      message: `The connection to the server ${hostOf(target, socket)} was refused - did you specify the right host or port?`,
    };
  }
  const tls = describeTls(code, socket);
  if (tls) return { kind: 'tls', message: unable(tls) };
  const network = describeNetwork(code, target, socket, connectTimeoutMs);
  if (network) return { kind: network.kind, message: unable(network.text) };
  return fetchFailed(err, target);
}

/** Failures to open a TCP connection: through a proxy, only the proxy is ever dialled. */
const DIAL_FAILURES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * Through a proxy the plugin never dials the API server itself: a failure to dial is the proxy's, said as
 * Go says it ("proxyconnect tcp: dial tcp 127.0.0.1:3128: connect: connection refused", or "socks connect
 * tcp PROXY->SERVER: …"), and a CONNECT the proxy refuses is its status text ("Proxy Authentication
 * Required"), as kubectl prints them. kubectl itself turns a refused proxy into "The connection to the
 * server SERVER was refused", which blames the API server; the line here names the proxy and where its
 * address came from (proxy-url or HTTPS_PROXY…).
 */
function describeProxyFailure(
  code: string,
  err: unknown,
  target: KubeTargetInfo,
  socket: SocketError | undefined,
  connectTimeoutMs: number | undefined,
): { kind: KubeErrorKind; message: string } | undefined {
  const proxy = new URL(target.proxy!.url);
  const proxyHost = `${proxy.hostname}:${proxy.port || (proxy.protocol === 'https:' ? 443 : proxy.protocol === 'socks5:' ? 1080 : 80)}`;
  const server = hostOf(target, undefined);
  const prefix = proxy.protocol === 'socks5:' ? `socks connect tcp ${proxyHost}->${server}: ` : 'proxyconnect tcp: ';
  const from = ` (proxy: ${target.proxy!.origin})`;
  const refusedTunnel = /Proxy response \((\d+)\) !== 200/.exec(
    (findCause(err, (e) => (e as { code?: unknown }).code === 'UND_ERR_ABORTED') as { message?: string } | undefined)
      ?.message ?? '',
  );
  if (refusedTunnel) {
    const status = Number(refusedTunnel[1]);
    // node:http taken as a built-in, not imported (see kube/rest.ts: its ESM import loads Node's undici).
    const text = process.getBuiltinModule('node:http').STATUS_CODES[status];
    return { kind: 'unreachable', message: unable(`${text ?? `status ${status}`}${from}`) };
  }
  if (code.startsWith('UND_ERR_SOCKS5')) {
    const said = (findCause(err, (e) => (e as { code?: unknown }).code === code) as { message?: string } | undefined)
      ?.message;
    const reason = (said ?? code).replace(/^SOCKS5 connection failed: /, '').toLowerCase();
    return { kind: 'unreachable', message: unable(`${prefix}${reason}${from}`) };
  }
  if (!DIAL_FAILURES.has(code)) return undefined;
  if (code === 'ECONNREFUSED') {
    return {
      kind: 'unreachable',
      message: unable(`${prefix}dial tcp ${proxyHost}: connect: connection refused${from}`),
    };
  }
  const proxyTarget = { ...target, server: `${proxy.protocol === 'https:' ? 'https' : 'http'}://${proxyHost}` };
  const network = describeNetwork(
    code,
    proxyTarget,
    { ...socket, hostname: socket?.hostname ?? proxy.hostname },
    connectTimeoutMs,
  );
  return network ? { kind: network.kind, message: unable(`${prefix}${network.text}${from}`) } : undefined;
}

/** Any other failure of fetch before an answer: its cause's words, never fetch's own "fetch failed". */
function fetchFailed(
  err: unknown,
  target: KubeTargetInfo | undefined,
): { kind: KubeErrorKind; message: string } | undefined {
  if (!(err instanceof TypeError) || err.message !== 'fetch failed') return undefined;
  const cause = (err as { cause?: unknown }).cause;
  const said = cause instanceof Error ? cause.message.split('\n')[0]?.trim() : undefined;
  if (said === 'bad port') return { kind: 'unreachable', message: unable(badPortText(target)) };
  return { kind: 'unreachable', message: unable(said || 'the connection failed') };
}

/**
 * fetch refuses the ports of the Fetch standard's "bad port" list (1, 9, 25, 6000, 6665–6669…) without
 * dialling; kubectl would connect. Said so the operator knows no packet left and what to change.
 */
function badPortText(target: KubeTargetInfo | undefined): string {
  const host = hostOf(target, undefined);
  const port = /:(\d+)$/.exec(host)?.[1];
  const which = port ? `port ${port}` : 'the port';
  return (
    `${host}: never dialled: ${which} is on the list of ports Node.js (like a browser) refuses to connect to ` +
    `(the Fetch standard's blocked ports); serve the API server on another port, or reach it through kubectl proxy`
  );
}

function unable(detail: string): string {
  return `Unable to connect to the server: ${detail}`;
}

function timeoutText(target: KubeTargetInfo | undefined): string {
  return target?.requestTimeoutMs
    ? `timed out after ${formatMs(target.requestTimeoutMs)} (--request-timeout)`
    : 'the request timed out';
}

interface SocketError {
  readonly code?: string;
  readonly address?: string;
  readonly port?: number;
  readonly hostname?: string;
  readonly host?: string;
  readonly cert?: { readonly subjectaltname?: string };
}

/** The server as kubectl names it in "The connection to the server HOST was refused": the URL's host:port. */
function hostOf(target: KubeTargetInfo | undefined, socket: SocketError | undefined): string {
  if (target?.server) {
    try {
      const url = new URL(target.server);
      return url.port ? url.host : `${url.hostname}:${url.protocol === 'http:' ? 80 : 443}`;
    } catch {
      return target.server;
    }
  }
  if (socket?.address) return socket.port ? `${socket.address}:${socket.port}` : socket.address;
  return 'the API server';
}

/** OpenSSL / Node TLS codes in the words of Go's crypto/tls and crypto/x509, as kubectl prints them. */
function describeTls(code: string, socket: SocketError | undefined): string | undefined {
  const verify = 'tls: failed to verify certificate: x509:';
  switch (code) {
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
      return `${verify} certificate signed by unknown authority`;
    case 'CERT_HAS_EXPIRED':
    case 'CERT_NOT_YET_VALID':
      return `${verify} certificate has expired or is not yet valid`;
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `tls: failed to verify certificate: ${hostnameMismatch(socket)}`;
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
    case 'ERR_SSL_PACKET_LENGTH_TOO_LONG':
      return 'http: server gave HTTP response to HTTPS client';
    case 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED':
      return 'remote error: tls: certificate required';
    case 'ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE':
      return 'remote error: tls: bad certificate';
    case 'ERR_SSL_TLSV1_ALERT_UNKNOWN_CA':
      return 'remote error: tls: unknown certificate authority';
    default:
      if (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_') || code.startsWith('CERT_')) {
        return `tls: ${code
          .toLowerCase()
          .replace(/^err_(ssl|tls)_/, '')
          .replaceAll('_', ' ')}`;
      }
      return undefined;
  }
}

/**
 * Go's x509.HostnameError: the certificate's IP addresses when the name checked is an IP, its DNS names
 * otherwise ("DNS:localhost, IP Address:127.0.0.1" checked against a DNS name lists "localhost").
 */
function hostnameMismatch(socket: SocketError | undefined): string {
  const host = socket?.host ?? 'this host';
  const ip = net.isIP(host) !== 0;
  const wanted = ip ? 'IP Address:' : 'DNS:';
  const names = (socket?.cert?.subjectaltname ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.startsWith(wanted))
    .map((entry) => entry.slice(wanted.length));
  if (ip && names.length === 0)
    return `x509: cannot validate certificate for ${host} because it doesn't contain any IP SANs`;
  if (names.length === 0) return `x509: certificate is not valid for any names, but wanted to match ${host}`;
  return `x509: certificate is valid for ${names.join(', ')}, not ${host}`;
}

/** Socket-level failures in the words of Go's net package. */
function describeNetwork(
  code: string,
  target: KubeTargetInfo | undefined,
  socket: SocketError | undefined,
  connectTimeoutMs: number | undefined,
): { kind: KubeErrorKind; text: string } | undefined {
  const host = hostOf(target, socket);
  const hostname = socket?.hostname ?? host.replace(/:\d+$/, '');
  switch (code) {
    case 'ENOTFOUND':
      return { kind: 'unreachable', text: `dial tcp: lookup ${hostname}: no such host` };
    case 'EAI_AGAIN':
      return { kind: 'unreachable', text: `dial tcp: lookup ${hostname}: temporary failure in name resolution` };
    case 'ECONNRESET':
      return { kind: 'unreachable', text: 'read: connection reset by peer' };
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return { kind: 'unreachable', text: 'EOF (the server closed the connection)' };
    case 'EHOSTUNREACH':
      return { kind: 'unreachable', text: `dial tcp ${host}: connect: no route to host` };
    case 'ENETUNREACH':
      return { kind: 'unreachable', text: `dial tcp ${host}: connect: network is unreachable` };
    case 'EADDRNOTAVAIL':
      return { kind: 'unreachable', text: `dial tcp ${host}: connect: cannot assign requested address` };
    case 'ETIMEDOUT':
      return { kind: 'timeout', text: `dial tcp ${host}: i/o timeout` };
    case 'UND_ERR_CONNECT_TIMEOUT':
      return {
        kind: 'timeout',
        text: `dial tcp ${host}: connection or TLS handshake timed out${connectTimeoutMs ? ` after ${formatMs(connectTimeoutMs)}` : ''}`,
      };
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
      return { kind: 'timeout', text: 'the server stopped answering' };
    default:
      return undefined;
  }
}

/**
 * undici's fetch rejects with `TypeError: fetch failed` and puts the socket error in `cause`, sometimes
 * an AggregateError (one per address tried). Walk causes and aggregates, first code wins.
 */
export function findErrorCode(err: unknown): string | undefined {
  const found = findCause(
    err,
    (e) => typeof (e as { code?: unknown }).code === 'string' && (e as { code: string }).code !== '',
  );
  return found === undefined ? undefined : (found as { code: string }).code;
}

/**
 * A TLS failure met while node:https writes the request (kube/rest.ts) comes as `EPROTO` with OpenSSL's
 * words in the message ("…:SSL routines:tls_validate_record_header:wrong version number:…"), where the
 * handshake's own error (undici's) carries the code `ERR_SSL_WRONG_VERSION_NUMBER`: the same code from both.
 */
function opensslCode(err: unknown): string | undefined {
  const found = findCause(err, (e) => (e as { code?: unknown }).code === 'EPROTO') as { message?: string } | undefined;
  const reason = /SSL routines:[^:]*:([a-z0-9 ]+):/i.exec(found?.message ?? '')?.[1];
  return reason ? `ERR_SSL_${reason.trim().toUpperCase().replaceAll(' ', '_')}` : undefined;
}

/** undici's ConnectTimeoutError says "(attempted address: HOST:PORT, timeout: 10000ms)". */
function undiciTimeoutMs(err: unknown): number | undefined {
  const found = findCause(err, (e) => (e as { code?: unknown }).code === 'UND_ERR_CONNECT_TIMEOUT');
  const match = /timeout: (\d+)ms/.exec((found as { message?: string } | undefined)?.message ?? '');
  return match ? Number(match[1]) : undefined;
}

/** AbortSignal.timeout() aborts with a DOMException named TimeoutError; fetch rethrows it as is or as a cause. */
function findTimeout(err: unknown): boolean {
  return findCause(err, (e) => (e as { name?: unknown }).name === 'TimeoutError') !== undefined;
}

function findCause(err: unknown, matches: (e: object) => boolean, depth = 0): object | undefined {
  if (depth > 5 || err === null || typeof err !== 'object') return undefined;
  if (matches(err)) return err;
  const inner = (err as { errors?: unknown }).errors;
  for (const one of Array.isArray(inner) ? inner : []) {
    const found = findCause(one, matches, depth + 1);
    if (found) return found;
  }
  return findCause((err as { cause?: unknown }).cause, matches, depth + 1);
}

export function formatMs(ms: number): string {
  if (ms % 60_000 === 0 && ms >= 60_000) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}
