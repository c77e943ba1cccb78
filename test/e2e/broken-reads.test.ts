import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { connect } from '../../src/cli/kube-connect.js';
import { ClusterCache } from '../../src/kube/cluster-cache.js';
import { signLeaf } from '../support/pki.js';
import { cuttingProxy, type CuttingProxy, type CuttingProxyOptions } from '../support/proxies.js';
import { bin } from './drain-run.js';
import { eventually, kubectl, kubectlJson, labConnection, labEnv, labUserWithRules, seedScenario } from './lab.js';

// A first read of the pods that breaks off part-way, against the lab's real API server behind a proxy that
// drops the connection after some bytes of the pods' answers: the read is made again (a plan's LIST from
// the watch cache and a drain's one LIST as the streaming list, a streaming list from the start, a paged
// LIST from the page that broke) and the
// plan is the one made without the proxy, every pod of the cluster in it; a proxy that cuts every read
// makes the plan fail with one line and exit 1.

const work = mkdtempSync(path.join(tmpdir(), 'maint-broken-reads-e2e-'));
const proxies: CuttingProxy[] = [];
afterAll(async () => {
  await Promise.all(proxies.map((p) => p.close()));
  rmSync(work, { recursive: true, force: true });
  await kubectl(['delete', 'clusterrolebinding,clusterrole', LIST_ONLY, '--ignore-not-found']);
});

/** May list every kind the plan reads, watch none: its plan reads them with paged LISTs. */
const LIST_ONLY = 'maint-e2e-broken-list-only';
/** Every node of the hello scenario: the plan names every pod of the cluster. */
const ALL_NODES = ['k8s-master-1', 'k8s-node-1', 'k8s-node-2'];
const PLAN = ['plan', ...ALL_NODES, '--ignore-daemonsets', '--force', '-o', 'json'];
/** Less than any answer of the pods, a page of two included: every answer picked is cut part-way. */
const CUT_AFTER_BYTES = 2048;

let upstream: CuttingProxyOptions['upstream'];
let upstreamTls: CuttingProxyOptions['upstreamTls'];
let tls: CuttingProxyOptions['tls'];
let direct: { exitCode: number; stdout: string };

beforeAll(async () => {
  await seedScenario('hello');
  const { server, pki, caFile } = await labConnection();
  const url = new URL(server);
  upstream = { host: url.hostname, port: Number(url.port) };
  upstreamTls = { ca: caFile, cert: path.join(pki, 'admin.crt'), key: path.join(pki, 'admin.key') };
  tls = signLeaf({ caFile, caKey: path.join(pki, 'ca.key') }, work, 'proxy', { cn: 'proxy', san: 'IP:127.0.0.1' });
  await labUserWithRules(LIST_ONLY, ['{apiGroups: ["*"], resources: ["*"], verbs: [list]}'], work);
  direct = await maint(PLAN, (await labEnv()).KUBECONFIG);
  expect(direct.exitCode, direct.stdout).toBe(3);
});

async function started(options: Omit<CuttingProxyOptions, 'upstream' | 'upstreamTls' | 'tls'>) {
  const proxy = await cuttingProxy({ ...options, upstream, upstreamTls, tls });
  proxies.push(proxy);
  return proxy;
}

/** The lab's kubeconfig with the proxy as its server (its certificate is the lab CA's). */
async function kubeconfigFor(proxy: CuttingProxy): Promise<string> {
  const doc = parse(readFileSync((await labEnv()).KUBECONFIG, 'utf8')) as {
    clusters: Array<{ cluster: Record<string, unknown> }>;
  };
  doc.clusters[0]!.cluster.server = proxy.url;
  const file = path.join(work, `proxy-${proxies.indexOf(proxy)}.kubeconfig`);
  writeFileSync(file, stringify(doc));
  return file;
}

async function maint(args: string[], kubeconfig: string) {
  const r = await execa(process.execPath, [bin, ...args], {
    reject: false,
    env: { ...process.env, KUBECONFIG: kubeconfig, NO_COLOR: '1' },
  });
  return { exitCode: r.exitCode ?? -1, stdout: String(r.stdout).trim(), stderr: String(r.stderr).trim() };
}

const isPods = (url: URL) => url.pathname === '/api/v1/pods';
const isStreamingList = (url: URL) => url.searchParams.get('sendInitialEvents') === 'true';

/** The requests for every pod of the cluster, as the proxy passed them on. */
const podReads = (proxy: CuttingProxy) => proxy.requests.filter((r) => isPods(new URL(r.url, 'https://proxy')));

/** The pods a drain's dry run names (each to evict or skipped), namespace/name on node. */
function podsDrained(stdout: string): string[] {
  type Pod = { namespace: string; name: string; node: string };
  const events = stdout.split('\n').map((line) => JSON.parse(line) as { type: string; pods?: Pod[]; pod?: Pod });
  const pods = events.flatMap((e) => (e.type === 'started' ? (e.pods ?? []) : e.type === 'pod' ? [e.pod!] : []));
  return [...new Set(pods.map((p) => `${p.namespace}/${p.name} on ${p.node}`))].sort();
}

/** The pods of a plan, namespace/name on node. */
function podsOf(stdout: string): string[] {
  const plan = JSON.parse(stdout) as { pods: Array<{ namespace: string; name: string; node: string }> };
  return plan.pods.map((p) => `${p.namespace}/${p.name} on ${p.node}`).sort();
}

async function podsOfCluster(): Promise<string[]> {
  const { items } = await kubectlJson(['get', 'pods', '-A']);
  return items.map((p) => `${p.metadata.namespace}/${p.metadata.name} on ${p.spec.nodeName}`).sort();
}

describe('a first read of the pods that breaks off part-way', () => {
  it("the plan's LIST from the watch cache that broke off is read again consistently, and the plan is the one made without the proxy", async () => {
    // One answer however large: the API server's request timeout would cut it again on every try.
    const proxy = await started({
      matches: (url) => isPods(url) && !isStreamingList(url),
      cuts: Infinity,
      afterBytes: CUT_AFTER_BYTES,
    });
    const r = await maint(PLAN, await kubeconfigFor(proxy));
    expect([r.exitCode, r.stderr]).toEqual([3, '']);
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(direct.stdout));
    expect(podsOf(r.stdout)).toEqual(await podsOfCluster());
    const reads = podReads(proxy).map((read) => {
      const url = new URL(read.url, 'https://proxy');
      return {
        cut: read.cut,
        streaming: isStreamingList(url),
        fromCache: url.searchParams.get('resourceVersion') === '0',
      };
    });
    expect(reads).toEqual([
      { cut: true, streaming: false, fromCache: true },
      { cut: false, streaming: true, fromCache: false },
    ]);
  });

  it('a user who may not watch reads it again in pages, each one a page of the chunk size', async () => {
    const proxy = await started({
      matches: (url) => isPods(url) && url.searchParams.get('resourceVersion') === '0',
      cuts: Infinity,
      afterBytes: CUT_AFTER_BYTES,
      impersonate: LIST_ONLY,
    });
    const r = await maint([...PLAN, '--chunk-size', '2'], await kubeconfigFor(proxy));
    expect([r.exitCode, r.stderr]).toEqual([3, '']);
    expect(podsOf(r.stdout)).toEqual(await podsOfCluster());
    const lists = podReads(proxy)
      .map((read) => ({ read, url: new URL(read.url, 'https://proxy') }))
      .filter(({ url }) => !isStreamingList(url));
    expect(lists[0]).toMatchObject({ read: { cut: true } });
    expect(lists[0]!.url.searchParams.get('resourceVersion')).toBe('0');
    const pages = lists.slice(1);
    expect(pages.length).toBeGreaterThan(1);
    for (const { read, url } of pages) {
      expect(read.cut).toBe(false);
      expect(url.searchParams.get('limit')).toBe('2');
      expect(url.searchParams.has('resourceVersion')).toBe(false);
    }
  });

  it("a drain's one consistent LIST that broke off is read again as the streaming list, and drains every pod of the cluster", async () => {
    // A drain reads the state of etcd now: one LIST without a resourceVersion, which this lab's API server
    // answers from its watch cache. One answer however large: it is not sent again as it was.
    const proxy = await started({
      matches: (url) => isPods(url) && !isStreamingList(url) && !url.searchParams.has('resourceVersion'),
      cuts: Infinity,
      afterBytes: CUT_AFTER_BYTES,
    });
    const drain = ['drain', ...ALL_NODES, '--ignore-daemonsets', '--force', '--dry-run=client', '-o', 'json'];
    const r = await maint(drain, await kubeconfigFor(proxy));
    expect([r.exitCode, r.stderr]).toEqual([3, '']);
    expect(podsDrained(r.stdout)).toEqual(await podsOfCluster());
    const reads = podReads(proxy).map((read) => {
      const url = new URL(read.url, 'https://proxy');
      return { cut: read.cut, streaming: isStreamingList(url), paged: url.searchParams.has('limit') };
    });
    expect(reads).toEqual([
      { cut: true, streaming: false, paged: false },
      { cut: false, streaming: true, paged: false },
    ]);
  });

  it("a drain's streaming list (pages asked for) is read again from the start, and drains every pod of the cluster", async () => {
    // With --chunk-size the consistent read is not one LIST: the streaming list, pages where it is not served.
    const proxy = await started({
      matches: (url) => isPods(url) && isStreamingList(url),
      cuts: 2,
      afterBytes: CUT_AFTER_BYTES,
    });
    const drain = ['drain', ...ALL_NODES, '--ignore-daemonsets', '--force', '--dry-run=client', '-o', 'json'];
    const r = await maint([...drain, '--chunk-size', '500'], await kubeconfigFor(proxy));
    expect([r.exitCode, r.stderr]).toEqual([3, '']);
    expect(podsDrained(r.stdout)).toEqual(await podsOfCluster());
    const reads = podReads(proxy).filter((read) => isStreamingList(new URL(read.url, 'https://proxy')));
    expect(reads.map((read) => read.cut)).toEqual([true, true, false]);
  });

  it('a paged LIST goes on from the page that broke, with its continue token', async () => {
    // A drain reads the state of etcd now, which the API server pages (a plan's read from its watch cache
    // comes in one answer); the user may not watch, so the pods are read with LISTs.
    const proxy = await started({
      matches: (url) => isPods(url) && url.searchParams.has('continue'),
      cuts: 1,
      afterBytes: CUT_AFTER_BYTES,
      impersonate: LIST_ONLY,
    });
    const drain = ['drain', ...ALL_NODES, '--ignore-daemonsets', '--force', '--dry-run=client', '-o', 'json'];
    const r = await maint([...drain, '--chunk-size', '2'], await kubeconfigFor(proxy));
    expect([r.exitCode, r.stderr]).toEqual([3, '']);
    expect(podsDrained(r.stdout)).toEqual(await podsOfCluster());
    const pages = podReads(proxy).filter((read) => !isStreamingList(new URL(read.url, 'https://proxy')));
    const broken = pages.findIndex((read) => read.cut);
    expect(broken, JSON.stringify(pages)).toBe(1);
    // Asked for again with the same token: the list went on from there, not from its first page.
    expect(pages[broken + 1]).toMatchObject({ url: pages[broken]!.url, cut: false });
  });

  it('a proxy that cuts every read of the pods: the plan fails with one line naming the pods and the cause, exit 1', async () => {
    const proxy = await started({ matches: isPods, cuts: Infinity, afterBytes: CUT_AFTER_BYTES });
    const r = await maint(PLAN, await kubeconfigFor(proxy));
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([
      1,
      '',
      `error: list pods from ${proxy.url} broke off 4 times (the last: the connection closed)`,
    ]);
    expect(podReads(proxy).map((read) => read.cut)).toEqual([true, true, true, true]);
  });

  it('a kind that may be listed but not watched, listed again for a later plan and cut every time: one line naming it', async () => {
    // The first LIST of the pods passes; every LIST after it (the refresh a run's next plan makes of a kind
    // it cannot watch) is cut.
    let lists = 0;
    const proxy = await started({
      matches: (url) => isPods(url) && !url.searchParams.has('watch') && ++lists > 1,
      cuts: Infinity,
      afterBytes: CUT_AFTER_BYTES,
      impersonate: LIST_ONLY,
    });
    const cache = await ClusterCache.open(await connect({ kubeconfig: await kubeconfigFor(proxy) }), {
      kinds: ['Pod'],
      required: ['Pod'],
      watch: true,
      freshness: 'consistent',
    });
    try {
      // Its watch refused (403), the cache lists the pods again whenever it is asked for them.
      await eventually(async () => !cache.follows('Pod'), 30_000, 'the watch of the pods refused');
      await expect(cache.refresh()).rejects.toThrow(
        `list pods from ${proxy.url} broke off 4 times (the last: the connection closed)`,
      );
    } finally {
      cache.stop();
    }
    const lastLists = podReads(proxy).filter((read) => !new URL(read.url, 'https://proxy').searchParams.has('watch'));
    expect(lastLists.map((read) => read.cut)).toEqual([false, true, true, true, true]);
  });
});
