/**
 * The pool plan's shortcuts give the slow path's plans. Each batch is planned against a cluster state the
 * pool plan derives from the previous one (ClusterIndex.withChanges, deriveSchedulerCache) and against a
 * scheduler cache shared by every simulation of that state; the slow path builds a fresh index, and with
 * it a fresh cache, from the state's snapshot for every plan. On a small generated cluster (150 nodes,
 * 3,000 pods: budgets, spread, anti-affinity, taints, DaemonSets) both must give the same plans.
 */
import { describe, expect, it } from 'vitest';
import { drainEveryPod, syntheticClusterList } from '../../../scripts/bench/synthetic-cluster.js';
import { buildPlan, drainBlockedNodes } from '../../../src/plan/build-plan.js';
import { offendingNodes } from '../../../src/plan/batching.js';
import { buildPoolPlan } from '../../../src/plan/pool-plan.js';
import { clusterAfterBatch } from '../../../src/plan/pool-state.js';
import { schedulerCache } from '../../../src/plan/scheduling/scheduler-cache.js';
import { ClusterIndex } from '../../../src/snapshot/cluster-index.js';
import { snapshotFromDocuments } from '../../../src/snapshot/load-file.js';

const CLUSTER = { nodes: 150, pods: 3_000, namespaces: 10, zones: 3, seed: 4 };

function generated(): ClusterIndex {
  const list = syntheticClusterList(CLUSTER);
  return new ClusterIndex(snapshotFromDocuments([list], { type: 'file', path: 'generated' }, 'generated'));
}

const index = generated();
const pool = index.nodes
  .filter((n) => n.metadata?.labels?.['node.example.com/pool'] === 'general')
  .map((n) => n.metadata!.name!)
  .sort()
  .slice(0, 30);
const options = { ...drainEveryPod(pool), maxUnavailable: 5 };

/** A fresh index of the same snapshot: no derived maps, no scheduler cache yet. */
const fresh = (state: ClusterIndex) => new ClusterIndex(state.snapshot);

describe('the pool plan against the slow path', () => {
  it('plans every batch as a fresh index and scheduler cache of the same cluster state would', () => {
    const plan = buildPoolPlan(index, options);
    // The fixture must exercise the shortcuts: batches of several nodes that change the cluster, and
    // nodes blocked alone, set aside and judged at the end.
    expect(plan.batches.filter((b) => b.nodes.length > 1 && b.verdict !== 'blocked').length).toBeGreaterThan(1);
    expect(plan.batches.some((b) => b.verdict === 'blocked')).toBe(true);

    let state = fresh(index);
    for (const batch of plan.batches) {
      const slow = fresh(state);
      const expected = buildPlan(slow, { ...options, nodes: batch.nodes });
      expect(batch.plan).toEqual(expected);
      if (expected.verdict !== 'blocked') state = clusterAfterBatch(slow, expected, batch.number);
    }
  }, 120_000);

  it('derives the next scheduler cache as a fresh one of the next state would be built', () => {
    const first = buildPoolPlan(index, { ...options, nodes: pool.slice(0, 10) }).batches[0]!;
    expect(first.verdict).not.toBe('blocked');
    const before = fresh(index);
    buildPlan(before, { ...options, nodes: first.nodes }); // builds before's cache
    const after = clusterAfterBatch(before, first.plan, 1);
    const summary = (state: ClusterIndex) =>
      schedulerCache(state).nodeInfos.map((n) => ({
        name: n.name,
        node: n.node,
        requested: n.requested,
        podCount: n.podCount,
        ports: n.usedPorts,
      }));
    expect(summary(after)).toEqual(summary(fresh(after)));
    const replaced = after.snapshot.pods.slice(-3);
    for (const pod of replaced) {
      const { namespace = 'default', labels = {} } = pod.metadata ?? {};
      const terms = (state: ClusterIndex) =>
        schedulerCache(state)
          .antiAffinity.candidates(namespace, labels)
          .map((t) => [t.uid, t.node.name, t.term]);
      expect(terms(after)).toEqual(terms(fresh(after)));
    }
  }, 60_000);

  it('leaves the shared scheduler cache as it found it: a plan does not see an earlier plan’s replacements', () => {
    const state = fresh(index);
    const [a, b] = [pool.slice(0, 5), pool.slice(5, 10)];
    const once = buildPlan(state, { ...options, nodes: a });
    buildPlan(state, { ...options, nodes: b });
    expect(buildPlan(state, { ...options, nodes: a })).toEqual(once);
    expect(buildPlan(fresh(index), { ...options, nodes: a })).toEqual(once);
  }, 60_000);

  it('plans each node alone, one after another against one state, as against a fresh state each time', () => {
    // What every simulation of a state shares (spread domains, node-object filter verdicts, pods
    // matching a selector) is filled by the earlier plans; each plan must still be its own.
    const state = fresh(index);
    const groups = [...pool.map((n) => [n]), pool.slice(0, 5), ...pool.slice(0, 10).map((n) => [n])].reverse();
    const honoring = index.snapshot.pods.filter(
      (p) =>
        pool.includes(p.spec?.nodeName ?? '') &&
        (p.spec?.topologySpreadConstraints ?? []).some((c) => c.nodeTaintsPolicy === 'Honor'),
    );
    expect(honoring.length).toBeGreaterThan(0); // a cordon that drops the drained node out of the domains
    for (const nodes of groups) {
      expect(buildPlan(state, { ...options, nodes })).toEqual(buildPlan(fresh(state), { ...options, nodes }));
    }
  }, 120_000);

  it('names as surely blocked only nodes the full plan shows refused or blocked too', () => {
    const state = fresh(index);
    const groups = [...pool.map((n) => [n]), pool.slice(0, 10), pool.slice(10, 20), pool.slice(20, 30)];
    let named = 0;
    for (const nodes of groups) {
      const sure = drainBlockedNodes(state, { ...options, nodes });
      named += sure.length;
      const full = offendingNodes(buildPlan(state, { ...options, nodes }));
      expect(full).toEqual(expect.arrayContaining(sure));
    }
    expect(named).toBeGreaterThan(10);
  }, 60_000);
});
