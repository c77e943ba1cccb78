import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../../src/plan/build-plan.js';
import { makeDeployment, makeIndex, makePdb, makePod, makeReplicaSet } from '../builders.js';
import { nodes, options } from './rules-fixture.js';

/** A single replica in `ns` under minAvailable 1: its budget never allows the eviction. */
function lockedApp(ns: string) {
  return {
    pod: makePod().name(`${ns}-app`).ns(ns).node('n1').label('app', 'app').owner('ReplicaSet', 'app-1').obj(),
    pdb: makePdb()
      .name('app')
      .ns(ns)
      .selector({ app: 'app' })
      .minAvailable(1)
      .status({ disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 })
      .obj(),
    rs: makeReplicaSet().name('app-1').ns(ns).owner('Deployment', 'app').obj(),
    deployment: makeDeployment().name('app').ns(ns).replicas(1).obj(),
  };
}

function index(...apps: ReturnType<typeof lockedApp>[]) {
  return makeIndex({
    nodes,
    pods: apps.map((a) => a.pod),
    pdbs: apps.map((a) => a.pdb),
    replicaSets: apps.map((a) => a.rs),
    deployments: apps.map((a) => a.deployment),
  });
}

describe('buildPlan with --escalate-after', () => {
  it('without it, a budget-locked pod blocks the drain', () => {
    expect(buildPlan(index(lockedApp('batch')), options()).verdict).toBe('blocked');
  });

  it('names the pod it would delete, when, and makes the drain slow instead of blocked', () => {
    const plan = buildPlan(
      index(lockedApp('batch')),
      options({ escalation: { afterSeconds: 120, namespaces: ['batch'] } }),
    );
    expect(plan.verdict).toBe('slow');
    expect(plan.verdictReasons).toEqual([
      'escalation: batch/batch-app is deleted after 2m of refusals by budget batch/app (--escalate-namespace batch): the budget is broken',
    ]);
    expect(plan.pods[0]).toMatchObject({ outcome: 'blocked', escalation: { afterSeconds: 120, when: 'certain' } });
    expect(plan.eta?.totalSeconds).toBe(150);
  });

  it('never a pod outside the named namespaces: those still block', () => {
    const plan = buildPlan(
      index(lockedApp('batch'), lockedApp('payments')),
      options({ escalation: { afterSeconds: 60, namespaces: ['batch'] } }),
    );
    expect(plan.verdict).toBe('blocked');
    expect(plan.pods.map((p) => [p.namespace, p.escalation?.when ?? null])).toEqual([
      ['batch', 'certain'],
      ['payments', null],
    ]);
    expect(plan.eta?.totalSeconds).toBeNull();
  });
});
