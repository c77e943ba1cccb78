import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

/** A loopback proxy for tests: every tunnel it opens goes to one upstream, and it records what was asked. */
export interface TestProxy {
  readonly url: string;
  /** The host:port of each tunnel asked for (CONNECT's target, or the SOCKS5 request's). */
  readonly tunnels: string[];
  close(): Promise<void>;
}

type Upstream = { readonly host: string; readonly port: number };

/**
 * An HTTP CONNECT proxy (over TLS when `tls` is given). `refuse` answers every CONNECT with that status
 * instead of a tunnel, as a proxy that wants credentials (407) or cannot reach the target (502) does.
 */
export async function connectProxy(
  upstream: Upstream,
  options: { tls?: { cert: string; key: string }; refuse?: number } = {},
): Promise<TestProxy> {
  const tunnels: string[] = [];
  const server = options.tls
    ? https.createServer({ cert: readFileSync(options.tls.cert), key: readFileSync(options.tls.key) })
    : http.createServer();
  server.on('request', (_req, res) => res.writeHead(405).end());
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    tunnels.push(req.url ?? '');
    if (options.refuse) {
      client.end(`HTTP/1.1 ${options.refuse} ${http.STATUS_CODES[options.refuse]}\r\n\r\n`);
      return;
    }
    pipe(client, upstream, head, () => client.write('HTTP/1.1 200 Connection Established\r\n\r\n'));
  });
  const port = await listen(server);
  return { url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`, tunnels, close: () => close(server) };
}

/** A SOCKS5 proxy (RFC 1928, no authentication, CONNECT only). */
export async function socks5Proxy(upstream: Upstream): Promise<TestProxy> {
  const tunnels: string[] = [];
  const server = net.createServer((client) => {
    client.once('data', () => {
      client.write(Buffer.from([5, 0])); // version 5, "no authentication required"
      client.once('data', (request: Buffer) => {
        tunnels.push(socksTarget(request));
        // Reply: succeeded, bound to 0.0.0.0:0 (clients do not use it for CONNECT).
        pipe(client, upstream, Buffer.alloc(0), () => client.write(Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0])));
      });
    });
    client.on('error', () => client.destroy());
  });
  const port = await listen(server);
  return { url: `socks5://127.0.0.1:${port}`, tunnels, close: () => close(server) };
}

/** A loopback port nothing listens on: a proxy that is down. */
export async function deadPort(): Promise<number> {
  const server = net.createServer();
  const port = await listen(server);
  await close(server);
  return port;
}

/** VER CMD RSV ATYP DST.ADDR DST.PORT, with ATYP 1 (IPv4), 3 (domain name) or 4 (IPv6). */
function socksTarget(request: Buffer): string {
  const type = request[3];
  const port = request.readUInt16BE(request.length - 2);
  if (type === 3) return `${request.subarray(5, 5 + request[4]!).toString()}:${port}`;
  if (type === 1) return `${[...request.subarray(4, 8)].join('.')}:${port}`;
  return `[ipv6]:${port}`;
}

function pipe(client: net.Socket, upstream: Upstream, head: Buffer, established: () => void): void {
  const server = net.connect(upstream.port, upstream.host, () => {
    established();
    if (head.length > 0) server.write(head);
    server.pipe(client);
    client.pipe(server);
  });
  server.on('error', () => client.destroy());
  client.on('error', () => server.destroy());
}

const open = new WeakMap<net.Server, Set<net.Socket>>();

function listen(server: net.Server): Promise<number> {
  const sockets = new Set<net.Socket>();
  open.set(server, sockets);
  server.on(server instanceof https.Server ? 'secureConnection' : 'connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
  );
}

/** Stops listening and drops every connection still open (kept-alive tunnels included). */
function close(server: net.Server): Promise<void> {
  for (const socket of open.get(server) ?? []) socket.destroy();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** One request the API proxy passed on: its path and query, and whether the proxy cut its answer. */
export interface ProxiedRequest {
  readonly url: string;
  /** Bytes of the answer's body passed on. */
  bytes: number;
  cut: boolean;
}

export interface CuttingProxy {
  readonly url: string;
  /** Every request passed on, in order. */
  readonly requests: ProxiedRequest[];
  close(): Promise<void>;
}

export interface CuttingProxyOptions {
  readonly upstream: Upstream;
  /** The upstream's CA, and the client certificate every request is sent on with. */
  readonly upstreamTls: { readonly ca: string; readonly cert: string; readonly key: string };
  /** The proxy's own serving certificate. */
  readonly tls: { readonly cert: string; readonly key: string };
  /** The requests whose answers may be cut. */
  readonly matches: (url: URL) => boolean;
  /** How many of those answers are cut (the first ones); Infinity: every one. */
  readonly cuts: number;
  /** Bytes of the answer's body passed on before its connection is dropped. */
  readonly afterBytes: number;
  /** Sent on as this user (Impersonate-User), for RBAC to judge. */
  readonly impersonate?: string | undefined;
}

/**
 * A reverse proxy in front of an API server that drops the client's connection part-way through the
 * answers `matches` picks, as a load balancer, a NAT timeout or a restarting API server does. It ends TLS
 * itself (a CONNECT tunnel could not tell one request from another) and sends every request on unchanged,
 * with a client certificate of its own.
 */
export async function cuttingProxy(options: CuttingProxyOptions): Promise<CuttingProxy> {
  const requests: ProxiedRequest[] = [];
  let cutsLeft = options.cuts;
  const agent = new https.Agent({
    keepAlive: true,
    ca: readFileSync(options.upstreamTls.ca),
    cert: readFileSync(options.upstreamTls.cert),
    key: readFileSync(options.upstreamTls.key),
  });
  const server = https.createServer({ cert: readFileSync(options.tls.cert), key: readFileSync(options.tls.key) });
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const record: ProxiedRequest = { url: req.url ?? '', bytes: 0, cut: false };
    requests.push(record);
    const cut = options.matches(new URL(record.url, 'https://proxy')) && cutsLeft > 0;
    if (cut) cutsLeft -= 1;
    const headers = { ...req.headers, ...(options.impersonate ? { 'impersonate-user': options.impersonate } : {}) };
    const upstream = https.request(
      { host: options.upstream.host, port: options.upstream.port, method: req.method, path: req.url, headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.on('data', (chunk: Buffer) => {
          if (record.cut) return;
          if (!cut || record.bytes + chunk.length <= options.afterBytes) {
            record.bytes += chunk.length;
            res.write(chunk);
            return;
          }
          record.cut = true;
          answer.destroy();
          const part = chunk.subarray(0, options.afterBytes - record.bytes);
          record.bytes += part.length;
          res.write(part, () => res.socket?.destroy());
        });
        answer.on('end', () => res.end());
        answer.on('error', () => res.socket?.destroy());
      },
    );
    upstream.on('error', () => res.socket?.destroy());
    req.pipe(upstream);
  });
  const port = await listen(server);
  return {
    url: `https://127.0.0.1:${port}`,
    requests,
    close: async () => {
      agent.destroy();
      await close(server);
    },
  };
}

/** A TCP forwarder to one upstream that can be taken down and brought back, as a network that goes. */
export interface SwitchableForwarder {
  /** host:port to connect to instead of the upstream. */
  readonly address: string;
  /** Drops every connection open through it and refuses new ones (each closed as it comes). */
  down(): void;
  /** Passes connections on again. */
  up(): void;
  close(): Promise<void>;
}

export async function switchableForwarder(upstream: Upstream): Promise<SwitchableForwarder> {
  let passing = true;
  const server = net.createServer((client) => {
    if (!passing) {
      client.destroy();
      return;
    }
    pipe(client, upstream, Buffer.alloc(0), () => {});
  });
  const port = await listen(server);
  return {
    address: `127.0.0.1:${port}`,
    down() {
      passing = false;
      for (const socket of open.get(server) ?? []) socket.destroy();
    },
    up() {
      passing = true;
    },
    close: () => close(server),
  };
}
