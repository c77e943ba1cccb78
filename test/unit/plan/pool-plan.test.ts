import type { V1Pod, V1PodDisruptionBudget } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { buildPoolPlan } from '../../../src/plan/pool-plan.js';
import type { PoolPlanOptions } from '../../../src/plan/pool-types.js';
import { PLANNED_REPLACEMENT_ANNOTATION, clusterAfterBatch } from '../../../src/plan/pool-state.js';
import { buildPlan } from '../../../src/plan/build-plan.js';
import { makeIndex, makeNode, makePdb, makePod, makeReplicaSet } from '../builders.js';

const NOW = Date.parse('2026-11-30T12:00:00Z') / 1000;

function options(nodes: string[], maxUnavailable: number, overrides: Partial<PoolPlanOptions> = {}): PoolPlanOptions {
  return {
    nodes,
    maxUnavailable,
    ignoreDaemonSets: true,
    deleteEmptyDirData: false,
    force: false,
    disableEviction: false,
    skipWaitForDeleteTimeoutSeconds: 0,
    taint: { key: 'kubectl-maint/maintenance' },
    nodeMonitorGracePeriodSeconds: 50,
    nowEpochSeconds: NOW,
    ...overrides,
  };
}

const WORKERS = ['w1', 'w2', 'w3', 'w4', 'w5', 'w6'];
const zoneOf = (node: string) => ['a', 'b', 'c'][(Number(node.slice(1)) - 1) % 3]!;

function worker(name: string) {
  return makeNode()
    .name(name)
    .label('kubernetes.io/hostname', name)
    .label('topology.kubernetes.io/zone', zoneOf(name))
    .label('pool', 'blue')
    .allocatable('4', '8Gi')
    .obj();
}

/** A ReplicaSet's pod on `node`. */
function replica(app: string, i: number, node: string, edit: (b: ReturnType<typeof makePod>) => unknown = () => {}) {
  const b = makePod().name(`${app}-${i}`).ns('shop').node(node).label('app', app).owner('ReplicaSet', app);
  b.requests('500m', '256Mi');
  edit(b);
  return b.obj();
}

function budget(app: string, pods: number, spec: { maxUnavailable?: number | string; minAvailable?: number | string }) {
  const b = makePdb().name(app).ns('shop').selector({ app });
  let desired = pods - 1;
  if (spec.maxUnavailable !== undefined) b.maxUnavailable(spec.maxUnavailable);
  if (spec.minAvailable !== undefined) {
    b.minAvailable(spec.minAvailable);
    desired =
      typeof spec.minAvailable === 'number' ? spec.minAvailable : Math.ceil((parseInt(spec.minAvailable) * pods) / 100);
  }
  if (spec.maxUnavailable === 0) desired = pods;
  return b
    .status({
      disruptionsAllowed: Math.max(0, pods - desired),
      currentHealthy: pods,
      desiredHealthy: desired,
      expectedPods: pods,
    })
    .obj();
}

/**
 * Six workers in three zones (w1 and w4 in a, w2 and w5 in b, w3 and w6 in c): web (one per node, zone
 * spread maxSkew 1, maxUnavailable 1), api (three pods, hostname spread, minAvailable 2), cache (two pods,
 * hostname anti-affinity, maxUnavailable 50 %).
 */
function pool(extraPods: V1Pod[] = [], extraBudgets: V1PodDisruptionBudget[] = []) {
  const web = WORKERS.map((n, i) => replica('web', i, n, (b) => b.spread(1, 'topology.kubernetes.io/zone')));
  const api = ['w1', 'w2', 'w3'].map((n, i) => replica('api', i, n, (b) => b.spread(1, 'kubernetes.io/hostname')));
  const antiAffinity = {
    podAntiAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: [
        { labelSelector: { matchLabels: { app: 'cache' } }, topologyKey: 'kubernetes.io/hostname' },
      ],
    },
  };
  const cache = ['w4', 'w5'].map((n, i) => replica('cache', i, n, (b) => b.affinity(antiAffinity)));
  return makeIndex({
    nodes: WORKERS.map(worker),
    pods: [...web, ...api, ...cache, ...extraPods],
    pdbs: [
      budget('web', 6, { maxUnavailable: 1 }),
      budget('api', 3, { minAvailable: 2 }),
      budget('cache', 2, { maxUnavailable: '50%' }),
      ...extraBudgets,
    ],
    replicaSets: ['web', 'api', 'cache', 'lonely'].map((app) =>
      makeReplicaSet().name(app).ns('shop').selector({ app }).obj(),
    ),
  });
}

describe('buildPoolPlan', () => {
  it('takes six workers two at a time in three batches, each node once, none blocked', () => {
    const plan = buildPoolPlan(pool(), options(WORKERS, 2));
    expect(plan.kind).toBe('PoolPlan');
    expect(plan.batches.map((b) => b.nodes.length)).toEqual([2, 2, 2]);
    expect(plan.batches.flatMap((b) => b.nodes).sort()).toEqual(WORKERS);
    expect(plan.batches.map((b) => b.verdict)).toEqual(['slow', 'slow', 'slow']);
    expect(plan.verdict).toBe('slow');
  });

  it("never pairs two nodes of one zone: web's zone spread would leave its replacements no node", () => {
    const plan = buildPoolPlan(pool(), options(WORKERS, 2));
    for (const batch of plan.batches) expect(new Set(batch.nodes.map(zoneOf)).size).toBe(2);
    // The emptiest node (w6: web only) goes first; w1 would pair with w4 (zone a) only by the node list.
    expect(plan.batches[0]!.nodes[0]).toBe('w6');
  });

  it("places later batches' replacements on nodes already done, and says which pods move twice", () => {
    const plan = buildPoolPlan(pool(), options(WORKERS, 2));
    expect(plan.batches[0]!.replacementsOn.doneNodes).toBe(0);
    expect(plan.batches[1]!.replacementsOn.doneNodes).toBeGreaterThan(0);
    expect(plan.batches[2]!.replacementsOn.laterNodes).toBe(0);
    const moved = plan.batches[0]!.replacementsOn.laterNodes + plan.batches[1]!.replacementsOn.laterNodes;
    expect(plan.movedTwice).toHaveLength(moved);
  });

  it('counts waves inside a batch: two web pods behind maxUnavailable 1 go in two waves', () => {
    const plan = buildPoolPlan(pool(), options(WORKERS, 2));
    expect(plan.batches[0]!.waves).toBe(2);
    expect(plan.batches[0]!.plan.budgets.find((b) => b.name === 'web')).toMatchObject({ perWave: 1, waves: 2 });
  });

  it('with max unavailable 1 plans one node per batch, emptiest first, ties by name', () => {
    const plan = buildPoolPlan(pool(), options(WORKERS, 1));
    expect(plan.batches.map((b) => b.nodes)).toEqual([['w6'], ['w1'], ['w2'], ['w3'], ['w4'], ['w5']]);
    // w3, w4 and w5 received the web replacements of the first three batches, so their own drains take
    // two web pods behind maxUnavailable 1: two waves.
    expect(plan.batches.map((b) => b.waves)).toEqual([1, 1, 1, 2, 2, 2]);
    expect(plan.verdict).toBe('slow');
  });

  it('a budget that never frees blocks the run, naming the batch, the pod and the reason', () => {
    const lonely = makePod()
      .name('lonely-0')
      .ns('shop')
      .node('w3')
      .label('app', 'lonely')
      .owner('ReplicaSet', 'lonely')
      .obj();
    const plan = buildPoolPlan(pool([lonely], [budget('lonely', 1, { maxUnavailable: 0 })]), options(WORKERS, 2));
    expect(plan.verdict).toBe('blocked');
    const blocked = plan.batches.filter((b) => b.verdict === 'blocked');
    expect(blocked.map((b) => b.nodes)).toEqual([['w3']]);
    expect(plan.verdictReasons[0]).toMatch(
      new RegExp(
        `^batch ${blocked[0]!.number} \\(w3\\) is blocked: cannot evict shop/lonely-0: budget shop/lonely never allows`,
      ),
    );
    // The other nodes are still planned, two at a time where they can be.
    expect(plan.batches.flatMap((b) => b.nodes).sort()).toEqual(WORKERS);
  });

  it('never puts two nodes together when their replacements would find no room', () => {
    // db: required hostname anti-affinity, two pods on n1 and n2, and a third node with room for one.
    const nodes = ['n1', 'n2', 'n3'].map((n) => makeNode().name(n).label('kubernetes.io/hostname', n).obj());
    const anti = {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { labelSelector: { matchLabels: { app: 'db' } }, topologyKey: 'kubernetes.io/hostname' },
        ],
      },
    };
    const db = ['n1', 'n2'].map((n, i) =>
      makePod().name(`db-${i}`).ns('shop').node(n).label('app', 'db').owner('ReplicaSet', 'db').affinity(anti).obj(),
    );
    const index = makeIndex({
      nodes,
      pods: db,
      replicaSets: [makeReplicaSet().name('db').ns('shop').selector({ app: 'db' }).obj()],
    });
    const plan = buildPoolPlan(index, options(['n1', 'n2', 'n3'], 2));
    expect(plan.batches.map((b) => b.nodes)).toEqual([['n3'], ['n1'], ['n2']]);
    expect(plan.verdict).toBe('clear');
    expect(plan.batches[2]!.plan.pods[0]!.replacement?.placedOn).toBe('n1');
    expect(plan.movedTwice).toEqual([]);
  });

  it('reports pods whose replacement lands on a node of a later batch as moved twice', () => {
    const nodes = ['n1', 'n2'].map((n) => makeNode().name(n).obj());
    const pod = makePod().name('app-0').ns('shop').node('n1').owner('ReplicaSet', 'app').label('app', 'x').obj();
    const index = makeIndex({
      nodes,
      pods: [pod],
      replicaSets: [makeReplicaSet().name('app').ns('shop').selector({ app: 'x' }).obj()],
    });
    const plan = buildPoolPlan(index, options(['n1', 'n2'], 1));
    // n2 is empty, so it goes first; n1's pod then lands on n2, already done.
    expect(plan.batches.map((b) => b.nodes)).toEqual([['n2'], ['n1']]);
    expect(plan.movedTwice).toEqual([]);
    expect(plan.batches[1]!.replacementsOn).toEqual({ doneNodes: 1, laterNodes: 0, outsidePool: 0 });
  });

  it('rejects a max unavailable below 1 and unknown nodes', () => {
    expect(() => buildPoolPlan(pool(), options(WORKERS, 0))).toThrow('max unavailable must be at least 1');
    expect(() => buildPoolPlan(pool(), options(['w9'], 1))).toThrow('node "w9" not found');
  });
});

describe('clusterAfterBatch', () => {
  it('moves each evicted pod to its placed node, Ready, and keeps the budget whole', () => {
    const index = pool();
    const plan = buildPlan(index, options(['w6'], 1));
    expect(plan.pods[0]!.replacement?.placedOn).toBe('w3');
    const after = clusterAfterBatch(index, plan, 1);
    expect(after.podsOnNode('w6')).toEqual([]);
    const moved = after.snapshot.pods.find((p) => p.metadata?.annotations?.[PLANNED_REPLACEMENT_ANNOTATION] === '1');
    expect(moved?.spec?.nodeName).toBe(plan.pods[0]!.replacement?.placedOn);
    expect(moved?.status?.conditions).toEqual([{ type: 'Ready', status: 'True' }]);
    const web = after.snapshot.pdbs.find((b) => b.metadata?.name === 'web');
    expect(web?.status).toMatchObject({ currentHealthy: 6, disruptionsAllowed: 1 });
    // The input is untouched.
    expect(index.podsOnNode('w6')).toHaveLength(1);
  });
});
