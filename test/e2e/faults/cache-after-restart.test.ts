import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { V1Node } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { connect } from '../../../src/cli/kube-connect.js';
import { openLiveCluster, type LiveCluster } from '../../../src/snapshot/load-live.js';
import { switchableForwarder, type SwitchableForwarder } from '../../support/proxies.js';
import { eventually, kubectl, kubectlJson, labConnection, labEnv, seedScenario } from '../lab.js';
import { labComponent, restartedApiServer } from './faults.js';

// The live cluster a drain and a run plan from (snapshot/load-live.ts) keeps its objects current from
// watches. When they break (the API server restarts, the network goes), a plan asked for afterwards waits
// for the cache to hold again, and is never made from what it held before: what changed while the watches
// were down is in the next snapshot.

const names = (live: Awaited<ReturnType<LiveCluster['snapshot']>>) =>
  live.deployments.map((d) => `${d.metadata?.namespace}/${d.metadata?.name}`);

describe("the live cluster's cache across an outage", () => {
  let forwarder: SwitchableForwarder | undefined;
  afterEach(async () => {
    await forwarder?.close();
    forwarder = undefined;
    await labComponent('start', 'kube-apiserver');
    await labComponent('start', 'kube-controller-manager');
  });

  /** The lab's kubeconfig through a forwarder that the test takes down: the changes the test makes go straight to the API server. */
  async function throughForwarder(): Promise<{ kubeconfig: string; forwarder: SwitchableForwarder }> {
    const { server } = await labConnection();
    const url = new URL(server);
    const through = await switchableForwarder({ host: url.hostname, port: Number(url.port) });
    const doc = readFileSync((await labEnv()).KUBECONFIG, 'utf8').replace(server, `https://${through.address}`);
    const kubeconfig = path.join(await mkdtemp(path.join(os.tmpdir(), 'cache-outage-')), 'kubeconfig');
    writeFileSync(kubeconfig, doc);
    return { kubeconfig, forwarder: through };
  }

  it('a snapshot asked for once the network is back has what changed while it was down', async () => {
    await seedScenario('hello');
    const through = await throughForwarder();
    forwarder = through.forwarder;
    const live = await openLiveCluster(await connect({ kubeconfig: through.kubeconfig }));
    try {
      expect(names(await live.snapshot())).not.toContain('demo/while-down');

      forwarder.down();
      await eventually(async () => live.cache.stale().length > 0, 60_000, 'the cache to see its watches break');
      await kubectl(['create', 'deployment', 'while-down', '-n', 'demo', '--image=registry.k8s.io/pause:3.10']);
      forwarder.up();

      expect(names(await live.snapshot())).toContain('demo/while-down');
      expect(live.cache.stale()).toEqual([]);
    } finally {
      live.stop();
    }
  });

  it("the process's own write of a node is in the cache at once, and the watch's older versions of it, brought later, never take it back", async () => {
    await seedScenario('hello');
    const through = await throughForwarder();
    forwarder = through.forwarder;
    const live = await openLiveCluster(await connect({ kubeconfig: through.kubeconfig }));
    const NODE = 'k8s-node-1';
    const KEY = 'e2e.kubectl-maint.io/own-write';
    const annotated = (value: string) =>
      kubectlJson<V1Node>(['annotate', 'node', NODE, `${KEY}=${value}`, '--overwrite']);
    const cached = () => (live.cache.get('Node', NODE) as V1Node | undefined)?.metadata?.annotations?.[KEY];
    const told: Array<string | undefined> = [];
    const watch = live.cache.watch<V1Node>('Node', (n) => n.metadata?.name === NODE, {
      onUpsert: (n) => told.push(n.metadata?.annotations?.[KEY]),
      onDelete: () => told.push('deleted'),
    });
    try {
      await live.snapshot();
      told.length = 0;
      // The watch down: two writes it will bring once it is back, in order; the second is the process's own.
      forwarder.down();
      await eventually(async () => live.cache.stale().length > 0, 60_000, 'the cache to see its watches break');
      await annotated('older');
      expect(live.cache.own('Node', await annotated('own'))).toBe(true);
      expect(cached()).toBe('own');

      forwarder.up();
      await live.snapshot();
      // A write the process did not tell the cache of: the watch brings it, after the two before it.
      await annotated('later');
      await eventually(async () => cached() === 'later', 60_000, "the watch to bring the node's later write");
      expect(told).toEqual(['own', 'later']);
    } finally {
      watch.stop();
      live.stop();
      await kubectl(['annotate', 'node', NODE, `${KEY}-`]);
    }
  });

  it('a snapshot asked for as one made since a moment is the last one when it was made since, though the cluster changed after it', async () => {
    await seedScenario('hello');
    const live = await openLiveCluster(await connect({ kubeconfig: (await labEnv()).KUBECONFIG }));
    const KEY = 'e2e.kubectl-maint.io/since';
    const annotation = () => (live.cache.get('Node', 'k8s-node-1') as V1Node | undefined)?.metadata?.annotations?.[KEY];
    try {
      const before = Date.now();
      const first = await live.snapshot();
      await kubectl(['annotate', 'node', 'k8s-node-1', `${KEY}=1`, '--overwrite']);
      await eventually(async () => annotation() === '1', 60_000, 'the cache to see the change');
      expect(await live.snapshot(before)).toBe(first);
      const now = await live.snapshot();
      expect(now).not.toBe(first);
      expect(now.nodes.find((n) => n.metadata?.name === 'k8s-node-1')?.metadata?.annotations?.[KEY]).toBe('1');
    } finally {
      live.stop();
      await kubectl(['annotate', 'node', 'k8s-node-1', `${KEY}-`]);
    }
  });

  it('a snapshot asked for while kube-apiserver is down waits for it, and is made once the watches hold', async () => {
    await seedScenario('hello');
    const live = await openLiveCluster(await connect({ kubeconfig: (await labEnv()).KUBECONFIG }));
    try {
      const before = await live.snapshot();
      await labComponent('stop', 'kube-apiserver');
      await eventually(async () => live.cache.stale().length > 0, 60_000, 'the cache to see its watches break');
      let answered = false;
      const asked = live.snapshot().finally(() => (answered = true));
      // While the server is down the snapshot cannot be current: it is not answered from the cache.
      await kubectl(['version', '--client']);
      expect(answered).toBe(false);
      await restartedApiServer();
      const after = await asked;
      expect(live.cache.stale()).toEqual([]);
      expect(names(after)).toEqual(names(before));
    } finally {
      live.stop();
    }
  });
});
