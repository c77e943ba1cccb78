import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { drainEveryPod } from '../../scripts/bench/synthetic-cluster.js';
import { connect } from '../../src/cli/kube-connect.js';
import { buildPlan } from '../../src/plan/build-plan.js';
import { schedulerCache } from '../../src/plan/scheduling/scheduler-cache.js';
import { ClusterIndex } from '../../src/snapshot/cluster-index.js';
import { openLiveCluster } from '../../src/snapshot/load-live.js';
import { eventually, kubectl, labEnv, seedScenario } from './lab.js';

// A run plans again and again from the live cluster's cache (snapshot/load-live.ts). Each new snapshot
// holds the cache's objects, the same ones where nothing changed and in the same order, so its index is
// derived from the last one's (ClusterIndex.follows) rather than built again: on the lab, after a pod is
// relabelled and a node cordoned, the derived index and the plan made on it are a fresh build's.

const NODE = 'k8s-node-2';
const KEY = 'e2e.kubectl-maint.io/relabelled';

const options = drainEveryPod;

describe("the live cluster's index, read after read", () => {
  it('derives the next snapshot’s index from the last one’s, as a fresh build of it would be', async () => {
    await seedScenario('hello');
    const live = await openLiveCluster(await connect({ kubeconfig: (await labEnv()).KUBECONFIG }));
    const label = (pod: V1Pod | undefined) => pod?.metadata?.labels?.[KEY];
    try {
      const first = await live.snapshot();
      const before = ClusterIndex.of(first);
      buildPlan(before, options(['k8s-node-1']));
      const pod = first.pods.find((p) => p.metadata?.namespace === 'demo' && p.spec?.nodeName)!;
      const key = `demo/${pod.metadata!.name!}`;
      await kubectl(['label', 'pod', '-n', 'demo', pod.metadata!.name!, `${KEY}=yes`]);
      await kubectl(['cordon', NODE]);
      await eventually(
        async () =>
          label(live.cache.get('Pod', key) as V1Pod | undefined) === 'yes' &&
          (live.cache.get('Node', NODE) as { spec?: { unschedulable?: boolean } } | undefined)?.spec?.unschedulable ===
            true,
        60_000,
        'the cache to see the label and the cordon',
      );
      const next = await live.snapshot();
      expect(next).not.toBe(first);
      const fresh = new ClusterIndex(next);
      expect(ClusterIndex.following(before, next)).not.toBeNull();
      const derived = ClusterIndex.of(next);
      expect(derived.podsInNamespace('demo')).toEqual(fresh.podsInNamespace('demo'));
      expect(derived.podsMatching('demo', { matchLabels: { [KEY]: 'yes' } }).map((p) => p.metadata?.name)).toEqual([
        pod.metadata!.name,
      ]);
      expect(derived.node(NODE)?.spec?.unschedulable).toBe(true);
      for (const node of ['k8s-node-1', NODE]) {
        expect(buildPlan(derived, options([node]))).toEqual(buildPlan(fresh, options([node])));
      }
      // Derived, not built again: the scheduler's view of a node nothing changed on is the last one's.
      const shared = schedulerCache(derived).nodeInfos.filter((n, i) => n === schedulerCache(before).nodeInfos[i]);
      expect(shared.length).toBeGreaterThan(0);
    } finally {
      live.stop();
      await kubectl(['uncordon', NODE]);
    }
  });
});
