import type * as Http from 'node:http';
import type { Duplex } from 'node:stream';
import type { Dispatcher } from 'undici';
import { timeoutSignal } from '../timers.js';
import { loadKubeConnection, type KubeConfigFlags, type KubeConnectionTarget } from './kubeconfig.js';
import {
  USER_AGENT,
  connectTimeoutMs,
  dispatcherFor,
  impersonationLines,
  loadUndici,
  prepareCredentials,
  renewing,
  type ConnectionSettings,
  type Credentials,
} from './transport.js';

// Plain JSON requests to the API server, for the short commands (`cordon`, `uncordon`, completion's node
// names) whose start-up kubectl's is the measure: the same kubeconfig, credentials and TLS checks as every
// other request (kube/kubeconfig.ts, kube/transport.ts), sent with node:https instead of client-node and
// undici, which take longer to load than the whole command takes to run. Through a proxy the request goes
// over undici's fetch with transport.ts's proxy dispatcher, as client-node's requests do.

// Taken as built-in modules, not imported: an ESM import of node:http reads every export of the module,
// and its lazy WebSocket export then loads Node's own copy of undici (a third of a cordon's CPU).
const http = process.getBuiltinModule('node:http');
const https = process.getBuiltinModule('node:https');

export interface RestRequest {
  readonly method: 'GET' | 'POST' | 'PATCH';
  /** The API path: `/api/v1/nodes/k8s-node-1`. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string>> | undefined;
  readonly body?: unknown;
  readonly contentType?: string | undefined;
}

/** An answer outside 2xx: shaped as client-node's ApiException (code, body, headers), read by kube/errors.ts. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly body: string,
    readonly headers: Readonly<Record<string, string>>,
  ) {
    super(`HTTP ${code}`);
    this.name = 'ApiError';
  }
}

/** The connect + TLS handshake bound expired: undici's code and words, so kube/connection-errors.ts reads both alike. */
class ConnectTimeoutError extends Error {
  readonly code = 'UND_ERR_CONNECT_TIMEOUT';
  constructor(host: string, timeoutMs: number) {
    super(`Connect Timeout Error (attempted address: ${host}, timeout: ${timeoutMs}ms)`);
    this.name = 'ConnectTimeoutError';
  }
}

export interface KubeRest {
  readonly target: KubeConnectionTarget;
  /** The answer's JSON; an ApiError for a non-2xx answer; the socket's error when there is none. */
  request<T>(request: RestRequest): Promise<T>;
}

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly text: string;
}

type Send = (url: URL, request: RestRequest, headers: Record<string, string>, signal?: AbortSignal) => Promise<Answer>;

interface Prepared extends Credentials {
  readonly send: Send;
}

/** Loads the kubeconfig as kubectl would with these flags (kube/kubeconfig.ts) and sends plain requests with it. */
export function connectRest(flags: KubeConfigFlags): KubeRest {
  return createRest(loadKubeConnection(flags));
}

export function createRest(target: KubeConnectionTarget): KubeRest {
  const settings = target.connection;
  const prepare = renewing(async (): Promise<Prepared> => {
    const credentials = await prepareCredentials(settings, async () => {
      // A legacy auth-provider (oidc, the in-cluster token file) is client-node's: loaded only for it.
      const { legacyAuthorizationFor } = await import('./legacy-auth.js');
      return legacyAuthorizationFor(target);
    });
    const send = settings.proxy
      ? fetchThrough(await dispatcherFor(settings, credentials.tls))
      : nodeSend(settings, credentials);
    return { ...credentials, send };
  });
  return {
    target,
    async request<T>(request: RestRequest): Promise<T> {
      const prepared = await prepare();
      const url = new URL(settings.server.replace(/\/$/, '') + request.path);
      for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, value);
      const headers: Record<string, string> = {
        Accept: 'application/json',
        'User-Agent': USER_AGENT,
        ...prepared.headers,
        ...(request.contentType ? { 'Content-Type': request.contentType } : {}),
      };
      const timeoutMs = settings.requestTimeoutMs;
      const answer = await prepared.send(url, request, headers, timeoutMs > 0 ? timeoutSignal(timeoutMs) : undefined);
      if (answer.status < 200 || answer.status > 299) throw new ApiError(answer.status, answer.text, answer.headers);
      return (answer.text === '' ? undefined : JSON.parse(answer.text)) as T;
    },
  };
}

/**
 * node:http(s) with one keep-alive connection, the TLS material and tls-server-name of the settings, connect
 * + TLS handshake bounded as transport.ts bounds undici's, and the impersonation headers one line each.
 */
function nodeSend(settings: ConnectionSettings, credentials: Credentials): Send {
  const secure = settings.server.startsWith('https:');
  const timeoutMs = connectTimeoutMs(settings);
  const agent = secure
    ? bounded(
        new https.Agent({
          keepAlive: true,
          ...credentials.tls,
          ...(settings.tlsServerName ? { servername: settings.tlsServerName } : {}),
        }),
        'secureConnect',
        timeoutMs,
      )
    : bounded(new http.Agent({ keepAlive: true }), 'connect', timeoutMs);
  const impersonation = settings.impersonate ? impersonationLines(settings.impersonate) : [];
  return (url, request, headers, signal) =>
    new Promise<Answer>((resolve, reject) => {
      // Given as lines (to repeat Impersonate-Group), headers get no Host from Node: it is added here.
      const lines = ['Host', url.host, ...Object.entries(headers).flat(), ...impersonation];
      const req = (secure ? https : http).request(url, { method: request.method, headers: lines, agent });
      const abort = () => {
        const error = new Error('This operation was aborted', { cause: signal?.reason });
        error.name = 'AbortError';
        req.destroy(error);
        reject(error);
      };
      if (signal?.aborted) return abort();
      signal?.addEventListener('abort', abort, { once: true });
      req.on('error', reject);
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          signal?.removeEventListener('abort', abort);
          resolve({
            status: res.statusCode ?? 0,
            headers: Object.fromEntries(
              Object.entries(res.headers).map(([name, value]) => [name, [value ?? ''].flat().join(', ')]),
            ),
            text: Buffer.concat(chunks).toString('utf8'),
          });
        });
      });
      req.end(request.body === undefined ? undefined : JSON.stringify(request.body));
    });
}

/** The agent, its new connections destroyed when not ready (`ready` event) within `timeoutMs`. */
function bounded<A extends Http.Agent>(agent: A, ready: 'connect' | 'secureConnect', timeoutMs: number): A {
  const create = agent.createConnection.bind(agent);
  agent.createConnection = (options: Http.ClientRequestArgs, callback?: (err: Error | null, s: Duplex) => void) => {
    const socket = create(options, callback);
    if (!socket) return socket;
    const host = `${options.host ?? options.hostname ?? ''}:${options.port ?? ''}`;
    const timer = setTimeout(() => socket.destroy(new ConnectTimeoutError(host, timeoutMs)), timeoutMs);
    socket.once(ready, () => clearTimeout(timer));
    socket.once('close', () => clearTimeout(timer));
    return socket;
  };
  return agent;
}

/** undici's fetch with the proxy dispatcher (which adds the impersonation headers itself). */
function fetchThrough(dispatcher: Dispatcher): Send {
  return async (url, request, headers, signal) => {
    const { fetch } = await loadUndici();
    const response = await fetch(url, {
      method: request.method,
      headers,
      dispatcher,
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      ...(signal ? { signal } : {}),
    });
    const text = await response.text();
    return { status: response.status, headers: Object.fromEntries(response.headers), text };
  };
}
