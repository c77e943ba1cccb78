import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../../src/plan/build-plan.js';
import { DRAIN_ORDER_ANNOTATION, evictionOrder } from '../../../src/plan/eviction-order.js';
import { makeDeployment, makeIndex, makePdb, makePod, makeReplicaSet, type SnapshotInput } from '../builders.js';
import { nodes, options } from './rules-fixture.js';

const web = (name: string) =>
  makePod().name(name).ns('shop').node('n1').label('app', 'web').owner('ReplicaSet', 'web-1').requests('100m');
const owners: SnapshotInput = {
  replicaSets: [makeReplicaSet().name('web-1').ns('shop').owner('Deployment', 'web').obj()],
  deployments: [makeDeployment().name('web').ns('shop').replicas(4).obj()],
};
const groupsOf = (order: ReturnType<typeof evictionOrder>) => order.groups.map((g) => [g.key, g.pods]);

describe('evictionOrder', () => {
  it('without annotations or --order priority: one group, all at once (kubectl)', () => {
    const order = evictionOrder([web('a').obj(), web('b').obj()], false);
    expect(order.by).toBe('none');
    expect(groupsOf(order)).toEqual([[0, ['shop/a', 'shop/b']]]);
  });

  it('groups by the drain-order annotation, lower first; pods without one count as 0', () => {
    const pods = [
      web('db').annotation(DRAIN_ORDER_ANNOTATION, '10').obj(),
      web('front').annotation(DRAIN_ORDER_ANNOTATION, '-5').obj(),
      web('plain').obj(),
      web('cache').annotation(DRAIN_ORDER_ANNOTATION, '10').obj(),
    ];
    const order = evictionOrder(pods, false);
    expect(order.by).toBe('annotation');
    expect(groupsOf(order)).toEqual([
      [-5, ['shop/front']],
      [0, ['shop/plain']],
      [10, ['shop/db', 'shop/cache']],
    ]);
    expect(order.groups.map((g) => g.index)).toEqual([1, 2, 3]);
  });

  it('a value that is not a whole number counts as 0 and is reported', () => {
    const order = evictionOrder([web('odd').annotation(DRAIN_ORDER_ANNOTATION, 'first').obj(), web('b').obj()], false);
    expect(groupsOf(order)).toEqual([[0, ['shop/odd', 'shop/b']]]);
    expect(order.problems).toEqual([
      'pod shop/odd: maint.kubectl.io/drain-order "first" is not a whole number; taken as 0',
    ]);
  });

  it('--order priority: lowest priority first, the annotation ignored', () => {
    const pods = [
      web('critical').priority(2_000_000_000).annotation(DRAIN_ORDER_ANNOTATION, '-1').obj(),
      web('batch').priority(-10).obj(),
      web('default').obj(),
    ];
    const order = evictionOrder(pods, true);
    expect(order.by).toBe('priority');
    expect(groupsOf(order)).toEqual([
      [-10, ['shop/batch']],
      [0, ['shop/default']],
      [2_000_000_000, ['shop/critical']],
    ]);
  });
});

describe('buildPlan with an eviction order', () => {
  it('numbers the waves on across groups and tells each pod its group', () => {
    const pods = [web('late').annotation(DRAIN_ORDER_ANNOTATION, '2').obj(), web('early').obj()];
    const plan = buildPlan(makeIndex({ nodes, pods, ...owners }), options());
    expect(plan.order).toEqual({
      by: 'annotation',
      groups: [
        { index: 1, key: 0, pods: ['shop/early'] },
        { index: 2, key: 2, pods: ['shop/late'] },
      ],
    });
    expect(plan.pods.map((p) => [p.name, p.orderGroup, p.wave])).toEqual([
      ['early', 1, 1],
      ['late', 2, 2],
    ]);
  });

  it('a blocked group holds every later group back, and the plan says so', () => {
    const pdb = makePdb()
      .name('web')
      .ns('shop')
      .selector({ app: 'web' })
      .maxUnavailable(0)
      .status({ disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 })
      .obj();
    const other = makePod().name('free').ns('shop').node('n1').owner('ReplicaSet', 'web-1');
    const pods = [web('stuck').obj(), other.annotation(DRAIN_ORDER_ANNOTATION, '5').obj()];
    const plan = buildPlan(makeIndex({ nodes, pods, pdbs: [pdb], ...owners }), options());
    expect(plan.verdict).toBe('blocked');
    expect(plan.pods.find((p) => p.name === 'free')).toMatchObject({
      outcome: 'blocked',
      outcomeReason: 'waits for drain-order group 1 (annotation 0), which cannot finish',
    });
  });
});
