import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connect } from '../../../src/cli/kube-connect.js';
import { openLiveCluster, type LiveCluster } from '../../../src/snapshot/load-live.js';
import { switchableForwarder, type SwitchableForwarder } from '../../support/proxies.js';
import { eventually, kubectl, labConnection, labEnv, seedScenario } from '../lab.js';
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

  it('a snapshot asked for once the network is back has what changed while it was down', async () => {
    await seedScenario('hello');
    const { server } = await labConnection();
    const url = new URL(server);
    forwarder = await switchableForwarder({ host: url.hostname, port: Number(url.port) });
    // The cache reaches the API server through the forwarder; the change below goes straight to it.
    const doc = readFileSync((await labEnv()).KUBECONFIG, 'utf8').replace(server, `https://${forwarder.address}`);
    const kubeconfig = path.join(await mkdtemp(path.join(os.tmpdir(), 'cache-outage-')), 'kubeconfig');
    writeFileSync(kubeconfig, doc);
    const live = await openLiveCluster(await connect({ kubeconfig }));
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
