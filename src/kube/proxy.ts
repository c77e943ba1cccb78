import net from 'node:net';
import { KubeError } from './errors.js';

/** The proxy every request to the API server goes through, and where that choice came from. */
export interface ProxyChoice {
  readonly url: string;
  /** `proxy-url of cluster "lab"` or the environment variable's name: named in errors. */
  readonly origin: string;
  readonly protocol: 'http:' | 'https:' | 'socks5:';
}

/** The proxy environment client-go reads (Go's httpproxy.FromEnvironment), upper case first. */
export interface ProxyEnv {
  readonly HTTPS_PROXY?: string | undefined;
  readonly https_proxy?: string | undefined;
  readonly HTTP_PROXY?: string | undefined;
  readonly http_proxy?: string | undefined;
  readonly NO_PROXY?: string | undefined;
  readonly no_proxy?: string | undefined;
  readonly REQUEST_METHOD?: string | undefined;
}

const SCHEMES = new Set(['http:', 'https:', 'socks5:']);

/**
 * kubectl's choice of proxy for one API server (client-go):
 * - the cluster's `proxy-url` when set: http, https or socks5, anything else refused with clientcmd's
 *   validation message before any request;
 * - otherwise the environment, as Go's http.ProxyFromEnvironment reads it: HTTPS_PROXY for an https
 *   server, HTTP_PROXY for an http one (never in a CGI environment), upper case before lower case, a value
 *   without a scheme taken as http://, never for localhost or a loopback address, and not for a host that
 *   NO_PROXY matches (`*`, a domain and its subdomains, `.domain` for subdomains only, an IP, a CIDR, each
 *   optionally with a port).
 */
export function chooseProxy(
  server: string,
  cluster: { readonly name: string; readonly proxyUrl?: string | undefined },
  env: ProxyEnv,
): ProxyChoice | undefined {
  if (cluster.proxyUrl) return fromProxyUrl(cluster.proxyUrl, cluster.name);
  let target: URL;
  try {
    target = new URL(server);
  } catch {
    return undefined;
  }
  const https = target.protocol === 'https:';
  const [name, value] = https
    ? firstSet(env, 'HTTPS_PROXY', 'https_proxy')
    : target.protocol === 'http:' && !env.REQUEST_METHOD
      ? firstSet(env, 'HTTP_PROXY', 'http_proxy')
      : [undefined, undefined];
  if (!name || !value) return undefined;
  const port = target.port || (https ? '443' : '80');
  if (!useProxy(target.hostname, port, firstSet(env, 'NO_PROXY', 'no_proxy')[1] ?? '')) return undefined;
  const url = parseEnvProxy(value);
  if (!url) return undefined;
  if (!SCHEMES.has(url.protocol)) {
    throw new KubeError('config', `${name} "${value}": unsupported proxy scheme "${url.protocol.slice(0, -1)}"`);
  }
  return { url: url.href, origin: name, protocol: url.protocol as ProxyChoice['protocol'] };
}

function fromProxyUrl(proxyUrl: string, cluster: string): ProxyChoice {
  const invalid = (why: string) =>
    new KubeError('config', `invalid 'proxy-url' "${proxyUrl}" for cluster "${cluster}": ${why}`);
  let url: URL;
  try {
    url = new URL(proxyUrl);
  } catch {
    throw invalid(`could not parse: ${proxyUrl}`);
  }
  if (!SCHEMES.has(url.protocol)) {
    throw invalid(`unsupported scheme "${url.protocol.slice(0, -1)}", must be http, https, or socks5`);
  }
  return {
    url: url.href,
    origin: `proxy-url of cluster "${cluster}"`,
    protocol: url.protocol as ProxyChoice['protocol'],
  };
}

function firstSet(
  env: ProxyEnv,
  upper: keyof ProxyEnv,
  lower: keyof ProxyEnv,
): [string | undefined, string | undefined] {
  if (env[upper]) return [upper, env[upper]];
  if (env[lower]) return [lower, env[lower]];
  return [undefined, undefined];
}

/** Go's parseProxy: a value that does not parse with a scheme and host is retried as http://VALUE. */
function parseEnvProxy(value: string): URL | undefined {
  try {
    const url = new URL(value);
    if (url.host !== '') return url;
  } catch {
    // retried below
  }
  try {
    return new URL(`http://${value}`);
  } catch {
    return undefined;
  }
}

/** Go's httpproxy useProxy, with client-go's CIDR entries in NO_PROXY. */
export function useProxy(hostname: string, port: string, noProxy: string): boolean {
  const host = hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (host === 'localhost' || isLoopback(host)) return false;
  const ip = net.isIP(host) !== 0;
  for (const raw of noProxy.split(',')) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    if (entry === '*') return false;
    if (entry.includes('/')) {
      if (ip && inCidr(host, entry)) return false;
      continue;
    }
    const [entryHost, entryPort] = splitHostPort(entry);
    if (entryHost === '') continue;
    if (net.isIP(entryHost) !== 0) {
      if (ip && sameIp(host, entryHost) && (entryPort === '' || entryPort === port)) return false;
      continue;
    }
    if (ip) continue;
    const domain = entryHost.startsWith('*.') ? entryHost.slice(1) : entryHost;
    const matchesHost = !domain.startsWith('.');
    const suffix = matchesHost ? `.${domain}` : domain;
    if ((host.endsWith(suffix) || (matchesHost && host === domain)) && (entryPort === '' || entryPort === port)) {
      return false;
    }
  }
  return true;
}

function splitHostPort(entry: string): [string, string] {
  const bracketed = /^\[([^\]]*)\]:(\d+)$/.exec(entry);
  if (bracketed) return [bracketed[1]!, bracketed[2]!];
  if (net.isIP(entry) === 6) return [entry, ''];
  const match = /^([^:]*):(\d+)$/.exec(entry);
  return match ? [match[1]!, match[2]!] : [entry, ''];
}

function isLoopback(host: string): boolean {
  if (net.isIP(host) === 4) return host.startsWith('127.');
  if (net.isIP(host) === 6) {
    const list = new net.BlockList();
    list.addAddress('::1', 'ipv6');
    list.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');
    return list.check(host, 'ipv6');
  }
  return false;
}

function sameIp(a: string, b: string): boolean {
  const list = new net.BlockList();
  list.addAddress(b, net.isIP(b) === 6 ? 'ipv6' : 'ipv4');
  return list.check(a, net.isIP(a) === 6 ? 'ipv6' : 'ipv4');
}

function inCidr(host: string, cidr: string): boolean {
  const [base, bits] = cidr.split('/');
  const family = net.isIP(base ?? '');
  const prefix = Number(bits);
  if (family === 0 || !Number.isInteger(prefix)) return false;
  if (prefix < 0 || prefix > (family === 6 ? 128 : 32)) return false;
  const list = new net.BlockList();
  list.addSubnet(base!, prefix, family === 6 ? 'ipv6' : 'ipv4');
  return list.check(host, net.isIP(host) === 6 ? 'ipv6' : 'ipv4');
}
