import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { signLeaf } from '../support/pki.js';
import { connectProxy, deadPort, socks5Proxy, type TestProxy } from '../support/proxies.js';
import { bin, unschedulable } from './drain-run.js';
import { kubectl, labConnection, labEnv, seedScenario } from './lab.js';

// A kubeconfig cluster's proxy-url and the proxy environment, against the lab's kube-apiserver behind
// loopback proxies. The kubeconfigs name the server `kubernetes` (a name on the lab's serving certificate
// that nothing resolves here), so a request can only reach the API server through the proxy, which sends
// every tunnel to the lab's 127.0.0.1 port. The lab's kubectl, given the same kubeconfig and environment,
// is the reference for which requests go through a proxy.

const work = mkdtempSync(path.join(tmpdir(), 'maint-proxy-e2e-'));
const proxies: TestProxy[] = [];
afterAll(async () => {
  await Promise.all(proxies.map((p) => p.close()));
  rmSync(work, { recursive: true, force: true });
});

let upstream: { host: string; port: number };
let namedServer: string;

beforeAll(async () => {
  await seedScenario('hello');
  const { server } = await labConnection();
  const url = new URL(server);
  upstream = { host: url.hostname, port: Number(url.port) };
  namedServer = `https://kubernetes:${url.port}`;
  await kubectl(['uncordon', 'k8s-node-2']);
});

async function started(proxy: Promise<TestProxy>): Promise<TestProxy> {
  const p = await proxy;
  proxies.push(p);
  return p;
}

/** The lab's kubeconfig with its cluster's server and proxy-url replaced. */
async function kubeconfig(name: string, cluster: { server: string; 'proxy-url'?: string }): Promise<string> {
  const doc = parse(readFileSync((await labEnv()).KUBECONFIG, 'utf8')) as {
    clusters: Array<{ cluster: Record<string, unknown> }>;
  };
  Object.assign(doc.clusters[0]!.cluster, cluster);
  const file = path.join(work, `${name}.kubeconfig`);
  writeFileSync(file, stringify(doc));
  return file;
}

async function maint(args: string[], file: string, env: NodeJS.ProcessEnv = {}) {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(https?|no)_proxy$/i.test(name) && name !== 'KUBECONFIG'),
  );
  const r = await execa(process.execPath, [bin, ...args, '--kubeconfig', file], {
    reject: false,
    env: { ...clean, HOME: work, NO_COLOR: '1', ...env },
    extendEnv: false,
  });
  return { exitCode: r.exitCode, stdout: String(r.stdout).trim(), stderr: String(r.stderr).trim() };
}

const tunnel = () => `kubernetes:${upstream.port}`;

/**
 * kubectl's own message without its klog lines: before the message, kubectl sometimes logs each failed
 * discovery request (`E1201 18:23:11.087895 … memcache.go:381] "Couldn't get current server API group
 * list"`), depending on its discovery cache — seen in a full CI run, not when the file ran alone.
 */
function userFacing(stderr: unknown): string {
  return String(stderr)
    .split('\n')
    .filter((line) => !/^[IWEF]\d{4} \d{2}:\d{2}:\d{2}\.\d+ /.test(line))
    .join('\n')
    .trim();
}

describe("a cluster's proxy-url", () => {
  it('http: plan and cordon go through the proxy, and the cordon is real', async () => {
    const proxy = await started(connectProxy(upstream));
    const file = await kubeconfig('http-proxy', { server: namedServer, 'proxy-url': proxy.url });

    const plan = await maint(['plan', 'k8s-node-1', '--ignore-daemonsets', '-o', 'json'], file);
    expect([plan.exitCode, plan.stderr]).toEqual([0, '']);
    expect((JSON.parse(plan.stdout) as { verdict: string }).verdict).toBe('slow');

    const cordon = await maint(['cordon', 'k8s-node-2'], file);
    expect([cordon.exitCode, cordon.stdout, cordon.stderr]).toEqual([0, 'node/k8s-node-2 cordoned', '']);
    expect(await unschedulable('k8s-node-2')).toBe(true);
    const uncordon = await maint(['uncordon', 'k8s-node-2'], file);
    expect([uncordon.exitCode, uncordon.stdout]).toEqual([0, 'node/k8s-node-2 uncordoned']);
    expect(await unschedulable('k8s-node-2')).toBe(false);

    expect(proxy.tunnels.length).toBeGreaterThanOrEqual(3);
    expect(new Set(proxy.tunnels)).toEqual(new Set([tunnel()]));
  });

  it("https: the proxy's own certificate is checked with the cluster's CA, as Go's transport checks it", async () => {
    const { caFile, pki } = await labConnection();
    const tls = signLeaf({ caFile, caKey: path.join(pki, 'ca.key') }, work, 'proxy', {
      cn: 'proxy',
      san: 'IP:127.0.0.1',
    });
    const proxy = await started(connectProxy(upstream, { tls }));
    const file = await kubeconfig('https-proxy', { server: namedServer, 'proxy-url': proxy.url });
    const r = await maint(['cordon', 'k8s-node-2', '--dry-run=server'], file);
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([0, 'node/k8s-node-2 cordoned (server dry run)', '']);
    expect(proxy.tunnels).toContain(tunnel());
  });

  it("insecure-skip-tls-verify skips the API server's certificate check, never the https proxy's", async () => {
    const { caFile, pki } = await labConnection();
    const tls = signLeaf({ caFile, caKey: path.join(pki, 'ca.key') }, work, 'proxy-insecure', {
      cn: 'proxy',
      san: 'IP:127.0.0.1',
    });
    const proxy = await started(connectProxy(upstream, { tls }));
    // No CA at all (insecure-skip-tls-verify drops it): the proxy's certificate, from the lab's CA, is unknown.
    const file = await kubeconfig('https-proxy-insecure', {
      server: namedServer,
      'proxy-url': proxy.url,
      'certificate-authority-data': undefined,
      'insecure-skip-tls-verify': true,
    } as { server: string });
    const r = await maint(['cordon', 'k8s-node-2', '--dry-run=server'], file);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^error: .*certificate/);
    expect(proxy.tunnels).toEqual([]);
  });

  it('socks5: the SOCKS proxy is asked for the server by name', async () => {
    const proxy = await started(socks5Proxy(upstream));
    const file = await kubeconfig('socks5-proxy', { server: namedServer, 'proxy-url': proxy.url });
    const r = await maint(['plan', 'k8s-node-1', '--ignore-daemonsets', '-o', 'json'], file);
    expect([r.exitCode, r.stderr]).toEqual([0, '']);
    expect(proxy.tunnels).toContain(tunnel());
  });

  it('a proxy that is down: one line naming the proxy and where it came from, exit 1, nothing cordoned', async () => {
    const port = await deadPort();
    const file = await kubeconfig('dead-proxy', { server: namedServer, 'proxy-url': `http://127.0.0.1:${port}` });
    const r = await maint(['cordon', 'k8s-node-2'], file);
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([
      1,
      '',
      `error: unable to connect to the server: proxyconnect tcp: dial tcp 127.0.0.1:${port}: connect: connection refused (proxy: proxy-url of cluster "lab")`,
    ]);
    expect(await unschedulable('k8s-node-2')).toBe(false);
    // kubectl blames the API server for the same refusal.
    const reference = await kubectl(['get', 'nodes', '--kubeconfig', file], { reject: false });
    expect([reference.exitCode, userFacing(reference.stderr)]).toEqual([
      1,
      `The connection to the server kubernetes:${upstream.port} was refused - did you specify the right host or port?`,
    ]);
  });

  it('a proxy that refuses the tunnel (407): the status text, as kubectl says it', async () => {
    const proxy = await started(connectProxy(upstream, { refuse: 407 }));
    const file = await kubeconfig('proxy-407', { server: namedServer, 'proxy-url': proxy.url });
    const r = await maint(['plan', 'k8s-node-1'], file);
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([
      1,
      '',
      'error: unable to connect to the server: Proxy Authentication Required (proxy: proxy-url of cluster "lab")',
    ]);
    const reference = await kubectl(['get', 'nodes', '--kubeconfig', file], { reject: false });
    expect(userFacing(reference.stderr)).toBe('Unable to connect to the server: Proxy Authentication Required');
  });

  it("a scheme client-go does not support: clientcmd's validation line, before any request", async () => {
    const file = await kubeconfig('ftp-proxy', { server: namedServer, 'proxy-url': 'ftp://127.0.0.1:21' });
    const r = await maint(['cordon', 'k8s-node-2'], file);
    const said =
      'invalid \'proxy-url\' "ftp://127.0.0.1:21" for cluster "lab": unsupported scheme "ftp", must be http, https, or socks5';
    expect([r.exitCode, r.stderr]).toEqual([1, `error: ${said}`]);
    const reference = await kubectl(['get', 'nodes', '--kubeconfig', file], { reject: false });
    expect(String(reference.stderr).trim()).toBe(`error: ${said}`);
  });
});

describe('the proxy environment when no proxy-url is set: the same requests go through a proxy as with kubectl', () => {
  it('HTTPS_PROXY (without a scheme) carries requests to a named server; NO_PROXY naming it, or a loopback server, bypass it', async () => {
    const proxy = await started(connectProxy(upstream));
    const named = await kubeconfig('env-named', { server: namedServer });
    const viaEnv = { HTTPS_PROXY: proxy.url.replace('http://', '') };

    const r = await maint(['cordon', 'k8s-node-2', '--dry-run=server'], named, viaEnv);
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([0, 'node/k8s-node-2 cordoned (server dry run)', '']);
    const ours = proxy.tunnels.length;
    expect(ours).toBeGreaterThan(0);
    const reference = await kubectl(['get', 'nodes', '--kubeconfig', named], { env: viaEnv });
    expect(reference.exitCode).toBe(0);
    expect(proxy.tunnels.length).toBeGreaterThan(ours);

    // NO_PROXY names the server: no tunnel, so the unresolvable name fails, for both tools.
    const before = proxy.tunnels.length;
    const bypass = await maint(['cordon', 'k8s-node-2', '--dry-run=server'], named, {
      ...viaEnv,
      NO_PROXY: 'kubernetes',
    });
    expect(bypass.exitCode).toBe(1);
    expect(bypass.stderr).toMatch(/^error: unable to connect to the server: dial tcp: lookup kubernetes/);
    const kubectlBypass = await kubectl(['get', 'nodes', '--kubeconfig', named], {
      env: { ...viaEnv, NO_PROXY: 'kubernetes' },
      reject: false,
    });
    expect(kubectlBypass.exitCode).toBe(1);
    expect(proxy.tunnels.length).toBe(before);
  });

  it('a loopback server is never proxied, and proxy-url wins over the environment', async () => {
    const dead = `http://127.0.0.1:${await deadPort()}`;
    const { server } = await labConnection();
    const loopback = await kubeconfig('env-loopback', { server });
    const r = await maint(['cordon', 'k8s-node-2', '--dry-run=server'], loopback, { HTTPS_PROXY: dead });
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([0, 'node/k8s-node-2 cordoned (server dry run)', '']);

    const proxy = await started(connectProxy(upstream));
    const withUrl = await kubeconfig('url-over-env', { server: namedServer, 'proxy-url': proxy.url });
    const w = await maint(['cordon', 'k8s-node-2', '--dry-run=server'], withUrl, { HTTPS_PROXY: dead });
    expect([w.exitCode, w.stderr]).toEqual([0, '']);
    expect(proxy.tunnels).toContain(tunnel());
  });
});
