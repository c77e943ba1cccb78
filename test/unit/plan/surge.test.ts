import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../../src/plan/build-plan.js';
import { makeDeployment, makeIndex, makePdb, makePod, makeReplicaSet, makeStatefulSet } from '../builders.js';
import { nodes, options } from './rules-fixture.js';

const SURGE_ALL = { surge: { all: true, deployments: [] } };

function pdb(spec: { minAvailable?: number | string; maxUnavailable?: number | string }) {
  const builder = makePdb().name('web').ns('shop').selector({ app: 'web' });
  const withSpec =
    spec.minAvailable !== undefined
      ? builder.minAvailable(spec.minAvailable)
      : builder.maxUnavailable(spec.maxUnavailable!);
  return withSpec.status({ disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 }).obj();
}

/** One replica of Deployment shop/web on n1 under `budget`. */
function singleReplica(budget: ReturnType<typeof pdb>) {
  return makeIndex({
    nodes,
    pods: [
      makePod()
        .name('web-1')
        .ns('shop')
        .node('n1')
        .label('app', 'web')
        .owner('ReplicaSet', 'web-rs')
        .requests('100m')
        .obj(),
    ],
    pdbs: [budget],
    replicaSets: [makeReplicaSet().name('web-rs').ns('shop').owner('Deployment', 'web').obj()],
    deployments: [makeDeployment().name('web').ns('shop').replicas(1).obj()],
  });
}

describe('buildPlan with --surge', () => {
  it('a single replica under minAvailable 1: blocked without surge, slow with it, and the plan says how', () => {
    expect(buildPlan(singleReplica(pdb({ minAvailable: 1 })), options()).verdict).toBe('blocked');
    const plan = buildPlan(singleReplica(pdb({ minAvailable: 1 })), options(SURGE_ALL));
    expect(plan.verdict).toBe('slow');
    const line =
      'surge: Deployment shop/web goes from 1 to 2 replicas; once the extra one is Ready (on n2), shop/web-1 is evicted and the Deployment returns to 1';
    expect(plan.verdictReasons).toEqual([line]);
    expect(plan.pods[0]?.surge).toEqual({
      surged: true,
      deployment: 'shop/web',
      fromReplicas: 1,
      toReplicas: 2,
      text: line,
    });
    expect(plan.eta?.totalSeconds).not.toBeNull();
  });

  it('--surge=NS/NAME surges only the Deployments named', () => {
    const other = buildPlan(
      singleReplica(pdb({ minAvailable: 1 })),
      options({ surge: { all: false, deployments: ['shop/api'] } }),
    );
    expect(other.verdict).toBe('blocked');
    const named = buildPlan(
      singleReplica(pdb({ minAvailable: 1 })),
      options({ surge: { all: false, deployments: ['shop/web'] } }),
    );
    expect(named.verdict).toBe('slow');
  });

  it.each([
    [{ maxUnavailable: 0 }, 'maxUnavailable 0'],
    [{ minAvailable: '100%' }, 'minAvailable 100%'],
  ])('a budget extra replicas cannot open (%j) stays blocked, with the reason', (spec, words) => {
    const plan = buildPlan(singleReplica(pdb(spec)), options(SURGE_ALL));
    expect(plan.verdict).toBe('blocked');
    expect(plan.pods[0]?.surge).toMatchObject({ surged: false });
    expect(plan.pods[0]?.surge?.text).toContain(`not surged: budget ${words} counts extra replicas too`);
  });

  it('a StatefulSet pod is not surged, and the plan says why', () => {
    const index = makeIndex({
      nodes,
      pods: [makePod().name('db-0').ns('shop').node('n1').label('app', 'web').owner('StatefulSet', 'db').obj()],
      pdbs: [pdb({ minAvailable: 1 })],
      statefulSets: [makeStatefulSet().name('db').ns('shop').replicas(1).obj()],
    });
    const plan = buildPlan(index, options(SURGE_ALL));
    expect(plan.verdict).toBe('blocked');
    expect(plan.pods[0]?.surge?.text).toBe(
      'not surged: StatefulSet shop/db gives each pod a stable identity; scaling it up adds a new ordinal, not a second copy of db-0',
    );
  });

  it('a bare ReplicaSet pod is not surged, and the plan says why', () => {
    const index = makeIndex({
      nodes,
      pods: [makePod().name('rs-1').ns('shop').node('n1').label('app', 'web').owner('ReplicaSet', 'bare').obj()],
      pdbs: [pdb({ minAvailable: 1 })],
      replicaSets: [makeReplicaSet().name('bare').ns('shop').replicas(1).obj()],
    });
    const plan = buildPlan(index, options(SURGE_ALL));
    expect(plan.verdict).toBe('blocked');
    expect(plan.pods[0]?.surge?.text).toMatch(/^not surged: only Deployments are \(ReplicaSet shop\/bare/);
  });
});
