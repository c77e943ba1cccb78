import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import type * as Undici from 'undici';
import type { buildConnector, Dispatcher } from 'undici';
import { buildInfo } from '../version.js';
import { KubeError } from './errors.js';
import { runExecPlugin, type ExecConfig, type ExecCredential } from './exec-credential.js';
import type { ProxyChoice } from './proxy.js';

/** Certificate or key material from the kubeconfig or a flag: a file to read, or base64 data inline. */
export type Material =
  { readonly file: string; readonly origin: string } | { readonly data: string; readonly origin: string };

/** Impersonate-User / -Group / -Uid / -Extra-*, from --as, --as-group, --as-uid or the user's `as*` fields. */
export interface Impersonation {
  readonly user: string;
  readonly groups: readonly string[];
  readonly uid?: string | undefined;
  readonly extra: Readonly<Record<string, readonly string[]>>;
}

/**
 * Everything needed to reach the API server as the chosen user, after kubectl's precedence between the
 * kubeconfig and the flags (kube/config.ts decides; this module only connects). Files are not read yet.
 */
export interface ConnectionSettings {
  readonly server: string;
  readonly context: string;
  readonly user: string;
  readonly insecure: boolean;
  readonly tlsServerName?: string | undefined;
  readonly ca?: Material | undefined;
  readonly clientCertificate?: Material | undefined;
  readonly clientKey?: Material | undefined;
  readonly token?: string | undefined;
  readonly tokenFile?: string | undefined;
  readonly basic?: { readonly username: string; readonly password: string } | undefined;
  readonly exec?: ExecConfig | undefined;
  /** A legacy auth-provider (oidc…): left to client-node's authenticators. */
  readonly authProvider: boolean;
  readonly impersonate?: Impersonation | undefined;
  /** The cluster's proxy-url, else HTTPS_PROXY/HTTP_PROXY unless NO_PROXY says otherwise (kube/proxy.ts). */
  readonly proxy?: ProxyChoice | undefined;
  /** --request-timeout in ms; 0 = none. Also bounds connect + TLS handshake and the exec plugin. */
  readonly requestTimeoutMs: number;
}

/** The User-Agent of every request. */
export const USER_AGENT = `kubectl-maint/${buildInfo().version}`;

/** undici's own connect timeout (TCP + TLS handshake), close to client-go's 10 s TLSHandshakeTimeout. */
export const CONNECT_TIMEOUT_MS = 10_000;

/** What every request carries: credentials in headers, and the TLS material of the connection. */
export interface Credentials {
  readonly headers: Readonly<Record<string, string>>;
  readonly tls: TlsOptions;
  /** Epoch ms after which an exec plugin's credential must be renewed. */
  readonly expiresAt?: number | undefined;
}

/** The credentials and an undici dispatcher carrying the TLS material, for fetch (client-node's requests). */
export interface Prepared extends Credentials {
  readonly dispatcher: Dispatcher;
}

/** Where a legacy auth-provider's Authorization header comes from (client-node's authenticators). */
export type LegacyAuthorization = () => Promise<string | undefined>;

/**
 * Prepares once, again when the credential expires; a failure is not kept (the next request tries again:
 * a plugin that failed once may succeed).
 */
export function renewing<T extends { readonly expiresAt?: number | undefined }>(
  make: () => Promise<T>,
): () => Promise<T> {
  let prepared: Promise<T> | undefined;
  const renew = (): Promise<T> => {
    const next = make();
    next.catch(() => {
      if (prepared === next) prepared = undefined;
    });
    prepared = next;
    return next;
  };
  return () => {
    const current = prepared;
    if (!current) return renew();
    return current.then((p) => (p.expiresAt !== undefined && p.expiresAt <= Date.now() ? renew() : p));
  };
}

/**
 * Reads the token, certificate and key files (checked with kubectl's messages) and runs the exec plugin
 * when kubectl would run it.
 */
export async function prepareCredentials(
  settings: ConnectionSettings,
  legacyAuthorization: LegacyAuthorization,
): Promise<Credentials> {
  const tls = usesTls(settings);
  const ca = settings.ca ? readCa(settings.ca) : undefined;
  let cert = settings.clientCertificate ? readMaterial(settings.clientCertificate) : undefined;
  let key = settings.clientKey ? readMaterial(settings.clientKey) : undefined;
  if (cert || key) checkKeyPair(settings, cert, key);
  const headers: Record<string, string> = {};
  let expiresAt: number | undefined;

  // client-go sends credentials only over TLS (rest.IsConfigTransportTLS), and runs the exec plugin only
  // when the user has no token, basic auth or client certificate.
  if (tls) {
    const token = settings.token ?? (settings.tokenFile ? readTokenFile(settings) : undefined);
    if (token) headers.Authorization = `Bearer ${token.trim()}`;
    else if (settings.basic) {
      const { username, password } = settings.basic;
      headers.Authorization = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
    }
    if (!token && !settings.basic && !cert && settings.exec) {
      const credential: ExecCredential = await runExecPlugin(settings.exec, {
        user: settings.user,
        requestTimeoutMs: settings.requestTimeoutMs,
        cluster: { server: settings.server, tlsServerName: settings.tlsServerName, insecure: settings.insecure },
        stdinIsTerminal: process.stdin.isTTY === true,
      });
      if (credential.token) headers.Authorization = `Bearer ${credential.token}`;
      if (credential.clientCertificateData && credential.clientKeyData) {
        cert = Buffer.from(credential.clientCertificateData);
        key = Buffer.from(credential.clientKeyData);
      }
      expiresAt = credential.expiresAt;
    } else if (!token && !settings.basic && settings.authProvider) {
      const authorization = await legacyAuthorization();
      if (authorization) headers.Authorization = authorization;
    }
  }
  return {
    headers,
    tls: {
      ...(ca ? { ca } : {}),
      ...(cert ? { cert } : {}),
      ...(key ? { key } : {}),
      ...(settings.insecure ? { rejectUnauthorized: false } : {}),
    },
    expiresAt,
  };
}

function usesTls(settings: ConnectionSettings): boolean {
  return Boolean(
    settings.server.startsWith('https:') || settings.ca || settings.clientCertificate || settings.insecure,
  );
}

/** The bound of connect + TLS handshake: --request-timeout when shorter than CONNECT_TIMEOUT_MS. */
export function connectTimeoutMs(settings: ConnectionSettings): number {
  return settings.requestTimeoutMs > 0 ? Math.min(settings.requestTimeoutMs, CONNECT_TIMEOUT_MS) : CONNECT_TIMEOUT_MS;
}

/** The credentials and an undici dispatcher (undici is loaded here, by the commands that use fetch). */
export async function prepareConnection(
  settings: ConnectionSettings,
  legacyAuthorization: LegacyAuthorization,
): Promise<Prepared> {
  const credentials = await prepareCredentials(settings, legacyAuthorization);
  return { ...credentials, dispatcher: await dispatcherFor(settings, credentials.tls) };
}

/**
 * An undici dispatcher for these settings: through the proxy when there is one; HTTP/2 when no request
 * must repeat a header; impersonation headers added at the dispatcher.
 */
export async function dispatcherFor(settings: ConnectionSettings, tlsOptions: TlsOptions): Promise<Dispatcher> {
  const undici = await loadUndici();
  const timeout = connectTimeoutMs(settings);
  const agent = settings.proxy
    ? proxyDispatcher(undici, settings.proxy, tlsOptions, settings.tlsServerName, timeout)
    : new undici.Agent({
        // undici's HTTP/2 client joins repeated headers into one "a, b" field: requests that must repeat one
        // (two or more impersonated groups, or values of one extra) stay on HTTP/1.1, where each is a line.
        allowH2: !repeatsHeaders(settings.impersonate),
        connect: {
          timeout,
          ...tlsOptions,
          ...(settings.tlsServerName ? { servername: settings.tlsServerName } : {}),
          keepAlive: true,
          keepAliveInitialDelay: 30_000,
        },
      });
  return settings.impersonate ? agent.compose(impersonating(settings.impersonate)) : agent;
}

/**
 * undici, imported when first needed. It is CommonJS: Node's import gives its named exports, an esbuild
 * bundle's split chunk only its `default` (module.exports).
 */
export async function loadUndici(): Promise<typeof Undici> {
  const module = (await import('undici')) as typeof Undici & { default?: typeof Undici };
  return module.Agent ? module : module.default!;
}

export interface TlsOptions {
  readonly ca?: Buffer;
  readonly cert?: Buffer;
  readonly key?: Buffer;
  readonly rejectUnauthorized?: boolean;
}

/**
 * Every connection through the proxy, as client-go makes it: CONNECT through an http or https proxy (the
 * API server's TLS inside the tunnel, with its CA, client certificate and tls-server-name; an https proxy's
 * own certificate checked with the same CA, as Go's transport does, but never skipped), or a SOCKS5 tunnel. Requests
 * stay on HTTP/1.1 through a proxy.
 */
function proxyDispatcher(
  undici: typeof Undici,
  proxy: ProxyChoice,
  tls: TlsOptions,
  tlsServerName: string | undefined,
  timeout: number,
): Dispatcher {
  const requestTls = { ...tls, ...(tlsServerName ? { servername: tlsServerName } : {}) };
  if (proxy.protocol === 'socks5:')
    return quietly(() => new undici.Socks5ProxyAgent(proxy.url, { connectTimeout: timeout, requestTls }));
  return new undici.ProxyAgent({
    uri: proxy.url,
    connectTimeout: timeout,
    requestTls,
    // The proxy's certificate is always checked: --insecure-skip-tls-verify (or the cluster's own
    // insecure-skip-tls-verify) speaks for the API server's certificate only, never a proxy's.
    proxyTls: { ...verifying(tls), keepAlive: true, keepAliveInitialDelay: 30_000 },
    // undici names an https proxy by its host for SNI even when that is an IP address, which Node's TLS
    // refuses ("Setting the TLS ServerName to an IP address is not permitted"): no SNI for an IP, as Go.
    clientFactory: (origin, options) => {
      const { connect } = options as { connect: buildConnector.connector };
      return new undici.Pool(origin, { ...options, connect: withoutIpServername(connect) });
    },
  });
}

function verifying(tls: TlsOptions): TlsOptions {
  const { rejectUnauthorized: _skip, ...checked } = tls;
  return checked;
}

function withoutIpServername(connect: buildConnector.connector): buildConnector.connector {
  return (options, callback) =>
    connect(
      options.servername && net.isIP(options.servername) !== 0 ? { ...options, servername: undefined } : options,
      callback,
    );
}

/**
 * undici's SOCKS5 agent announces itself with an ExperimentalWarning on stderr, which would break the
 * one-line error contract and every script reading stderr; the tunnel it builds is plain RFC 1928.
 */
function quietly<T>(build: () => T): T {
  const emitWarning = process.emitWarning;
  process.emitWarning = () => undefined;
  try {
    return build();
  } finally {
    process.emitWarning = emitWarning;
  }
}

/**
 * Adds the impersonation headers at the dispatcher, where headers are a list: fetch would merge repeated
 * Impersonate-Group headers into one "a, b" value, which the API server reads as one group named "a, b"
 * (client-go sends one header line per group).
 */
function impersonating(as: Impersonation): Dispatcher.DispatcherComposeInterceptor {
  const lines = impersonationLines(as);
  return (dispatch) => (options, handler) =>
    dispatch({ ...options, headers: [...flatHeaders(options.headers), ...lines] }, handler);
}

/** The impersonation headers as name, value, name, value…: one line per group and per extra value. */
export function impersonationLines(as: Impersonation): string[] {
  const lines: string[] = ['Impersonate-User', as.user];
  for (const group of as.groups) lines.push('Impersonate-Group', group);
  if (as.uid) lines.push('Impersonate-Uid', as.uid);
  for (const [key, values] of Object.entries(as.extra)) {
    for (const value of values) lines.push(`Impersonate-Extra-${encodeURIComponent(key)}`, value);
  }
  return lines;
}

function repeatsHeaders(as: Impersonation | undefined): boolean {
  return as !== undefined && (as.groups.length > 1 || Object.values(as.extra).some((values) => values.length > 1));
}

function flatHeaders(headers: Dispatcher.DispatchOptions['headers']): string[] {
  if (!headers) return [];
  if (Array.isArray(headers)) return headers.flat() as string[];
  const flat: string[] = [];
  const entries =
    Symbol.iterator in (headers as object)
      ? [...(headers as Iterable<[string, string | string[] | undefined]>)]
      : Object.entries(headers as Record<string, string | string[] | undefined>);
  for (const [name, value] of entries) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) flat.push(name, one);
  }
  return flat;
}

function readMaterial(material: Material): Buffer {
  if ('file' in material) {
    try {
      return fs.readFileSync(material.file);
    } catch (err) {
      throw new KubeError(
        'config',
        `cannot read ${material.origin} "${material.file}": ${describeFsError(err as NodeJS.ErrnoException)}`,
        { cause: err },
      );
    }
  }
  const bad = firstInvalidBase64(material.data);
  if (bad !== undefined) throw new KubeError('config', `${material.origin}: illegal base64 data at input byte ${bad}`);
  return Buffer.from(material.data, 'base64');
}

/** Go's encoding/base64 (StdEncoding) is strict where Buffer.from is lenient: find what Go would reject. */
function firstInvalidBase64(data: string): number | undefined {
  const text = data.replace(/[\r\n]/g, '');
  const invalid = text.search(/[^A-Za-z0-9+/=]|=[^=]/);
  if (invalid >= 0) return invalid;
  if (text.length % 4 !== 0) return text.length - (text.length % 4);
  return undefined;
}

/** A CA bundle must hold at least one certificate (client-go: "unable to load root certificates"). */
function readCa(material: Material): Buffer {
  const ca = readMaterial(material);
  if (!ca.includes('-----BEGIN CERTIFICATE-----')) {
    throw new KubeError(
      'config',
      `${material.origin}: unable to load root certificates: unable to parse bytes as PEM block`,
    );
  }
  return ca;
}

/** The checks of Go's tls.X509KeyPair, with its messages: what kubectl says about a bad certificate or key. */
function checkKeyPair(settings: ConnectionSettings, cert: Buffer | undefined, key: Buffer | undefined): void {
  const certOrigin = settings.clientCertificate?.origin ?? 'client certificate';
  const keyOrigin = settings.clientKey?.origin ?? 'client key';
  if (!cert) throw new KubeError('config', `${keyOrigin} is set but no client certificate is`);
  if (!key) {
    throw new KubeError(
      'config',
      `client-key-data or client-key must be specified for ${settings.user} to use the clientCert authentication method.`,
    );
  }
  if (!cert.includes('-----BEGIN'))
    throw new KubeError('config', `${certOrigin}: tls: failed to find any PEM data in certificate input`);
  if (!key.includes('-----BEGIN'))
    throw new KubeError('config', `${keyOrigin}: tls: failed to find any PEM data in key input`);
  let certificate: crypto.X509Certificate;
  try {
    certificate = new crypto.X509Certificate(cert);
  } catch {
    throw new KubeError('config', `${certOrigin}: tls: failed to parse certificate`);
  }
  let privateKey: crypto.KeyObject;
  try {
    privateKey = crypto.createPrivateKey(key);
  } catch {
    throw new KubeError('config', `${keyOrigin}: tls: failed to parse private key`);
  }
  if (!certificate.checkPrivateKey(privateKey)) {
    throw new KubeError('config', `${keyOrigin}: tls: private key does not match public key`);
  }
}

/** kubectl reads tokenFile and fails when it cannot (client_config.go): never a silent anonymous request. */
function readTokenFile(settings: ConnectionSettings): string {
  const file = settings.tokenFile!;
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new KubeError(
      'config',
      `cannot read tokenFile "${file}" of user "${settings.user}": ${describeFsError(err as NodeJS.ErrnoException)}`,
      { cause: err },
    );
  }
}

/** Go's words for the usual file errors ("open F: no such file or directory"), without the path twice. */
function describeFsError(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    default:
      return err.code ?? err.message;
  }
}
