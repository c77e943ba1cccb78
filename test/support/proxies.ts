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
