import { afterEach, describe, expect, it } from 'vitest';
import { connect } from '../../../src/cli/kube-connect.js';
import { openLiveCluster } from '../../../src/snapshot/load-live.js';
import { eventually, kubectl, labEnv, seedScenario } from '../lab.js';
import { labComponent, restartedApiServer } from './faults.js';

// The live cluster a drain and a run plan from (snapshot/load-live.ts) keeps its objects current from
// watches. When kube-apiserver restarts, every watch breaks; a plan asked for once the server is back must
// wait for the watches to hold again, and never be made from what the cache held before the outage: a
// Deployment created the moment the server is back (before the cache could have seen it) is in the next
// snapshot.

describe("the live cluster's cache across a kube-apiserver restart", () => {
  afterEach(async () => {
    await labComponent('start', 'kube-apiserver');
    await labComponent('start', 'kube-controller-manager');
  });

  it('a snapshot asked for after the restart has what changed since, never the cache from before', async () => {
    await seedScenario('hello');
    const client = await connect({ kubeconfig: (await labEnv()).KUBECONFIG });
    const live = await openLiveCluster(client);
    try {
      const before = await live.snapshot();
      expect(before.deployments.map((d) => d.metadata?.name)).not.toContain('after-outage');

      await labComponent('stop', 'kube-apiserver');
      // The cache has seen its watches break: from here on it knows that what it holds may be out of date.
      await eventually(async () => live.cache.stale().length > 0, 60_000, 'the cache to see its watches break');
      await restartedApiServer();
      await kubectl(['create', 'deployment', 'after-outage', '-n', 'demo', '--image=registry.k8s.io/pause:3.10']);

      const after = await live.snapshot();
      expect(after.deployments.map((d) => `${d.metadata?.namespace}/${d.metadata?.name}`)).toContain(
        'demo/after-outage',
      );
      expect(live.cache.stale()).toEqual([]);
    } finally {
      live.stop();
    }
  });
});
