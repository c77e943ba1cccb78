import type { V1PodDisruptionBudget } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import {
  budgetFacts,
  neverAllows,
  scaledValue,
  unhealthyPodBypassesBudget,
  type UnhealthyPodEvictionPolicy,
} from '../../../src/plan/budgets.js';
import { makeIndex, makePdb, makePod } from '../builders.js';

const status = (expectedPods: number, desiredHealthy: number) => ({
  disruptionsAllowed: Math.max(0, expectedPods - desiredHealthy),
  currentHealthy: expectedPods,
  desiredHealthy,
  expectedPods,
});

describe('neverAllows', () => {
  const cases: Array<{ name: string; pdb: V1PodDisruptionBudget; expected: string | null }> = [
    {
      name: 'maxUnavailable 0 never allows an eviction',
      pdb: makePdb().maxUnavailable(0).status(status(3, 3)).obj(),
      expected: 'maxUnavailable is 0',
    },
    {
      name: 'maxUnavailable "0%" never allows an eviction',
      pdb: makePdb().maxUnavailable('0%').status(status(3, 3)).obj(),
      expected: 'maxUnavailable is 0%',
    },
    {
      name: 'maxUnavailable 10% of 5 rounds up to 1, so it allows one',
      pdb: makePdb().maxUnavailable('10%').status(status(5, 4)).obj(),
      expected: null,
    },
    {
      name: 'minAvailable 100% never allows an eviction',
      pdb: makePdb().minAvailable('100%').status(status(4, 4)).obj(),
      expected: 'minAvailable is 100%',
    },
    {
      name: 'minAvailable 90% of 5 rounds up to 5: every pod must stay',
      pdb: makePdb().minAvailable('90%').status(status(5, 5)).obj(),
      expected: 'minAvailable 90% of 5 expected pods rounds up to 5: every pod must stay healthy',
    },
    {
      name: 'minAvailable 50% of 3 rounds up to 2, so it allows one',
      pdb: makePdb().minAvailable('50%').status(status(3, 2)).obj(),
      expected: null,
    },
    {
      name: 'minAvailable 1 on a single replica never allows an eviction',
      pdb: makePdb().minAvailable(1).status(status(1, 1)).obj(),
      expected: 'minAvailable 1 >= 1 expected pod: every pod must stay healthy',
    },
    {
      name: 'minAvailable 2 of 4 allows two',
      pdb: makePdb().minAvailable(2).status(status(4, 2)).obj(),
      expected: null,
    },
    {
      name: 'a percentage without "%" cannot be computed',
      pdb: makePdb().maxUnavailable('5').status(status(4, 4)).obj(),
      expected: 'maxUnavailable "5" is not an int or a percentage: the disruption controller cannot compute the budget',
    },
  ];
  it.each(cases)('$name', ({ pdb, expected }) => {
    expect(neverAllows(pdb)).toBe(expected);
  });
});

describe('scaledValue (GetScaledValueFromIntOrPercent, rounding up)', () => {
  it.each([
    { value: '50%', total: 3, expected: 2 },
    { value: '10%', total: 5, expected: 1 },
    { value: '100%', total: 4, expected: 4 },
    { value: 3, total: 10, expected: 3 },
    { value: 'x%', total: 10, expected: undefined },
  ])('$value of $total is $expected', ({ value, total, expected }) => {
    expect(scaledValue(value, total)).toBe(expected);
  });
});

describe('budgetFacts', () => {
  it('reads the status and defaults the unhealthy pod eviction policy to IfHealthyBudget', () => {
    const pdb = makePdb().name('web').ns('shop').maxUnavailable(1).status(status(4, 3)).obj();
    expect(budgetFacts(pdb)).toEqual({
      namespace: 'shop',
      name: 'web',
      key: 'shop/web',
      disruptionsAllowed: 1,
      currentHealthy: 4,
      desiredHealthy: 3,
      expectedPods: 4,
      generation: 1,
      observedGeneration: 1,
      stale: false,
      syncFailed: null,
      unhealthyPodEvictionPolicy: 'IfHealthyBudget',
      neverAllows: null,
    });
  });

  it('is stale when status.observedGeneration is behind metadata.generation', () => {
    const pdb = makePdb()
      .generation(3)
      .status({ ...status(4, 3), observedGeneration: 2 })
      .obj();
    expect(budgetFacts(pdb).stale).toBe(true);
  });

  it('is stale when the disruption controller has written no status yet', () => {
    expect(budgetFacts(makePdb().maxUnavailable(1).obj()).stale).toBe(true);
  });

  it('reports a SyncFailed condition with its message', () => {
    const pdb = makePdb().maxUnavailable('50%').status(status(0, 0)).obj();
    pdb.status!.conditions = [
      {
        type: 'DisruptionAllowed',
        status: 'False',
        reason: 'SyncFailed',
        message: 'daemonsets.apps does not implement the scale subresource',
        lastTransitionTime: new Date(0),
      },
    ];
    expect(budgetFacts(pdb).syncFailed).toBe('daemonsets.apps does not implement the scale subresource');
  });
});

describe('unhealthyPodBypassesBudget (eviction of a pod that is not Ready)', () => {
  const cases: Array<{
    name: string;
    policy: UnhealthyPodEvictionPolicy;
    current: number;
    desired: number;
    expected: boolean;
  }> = [
    {
      name: 'AlwaysAllow lets an unready pod go even when the budget is short',
      policy: 'AlwaysAllow',
      current: 1,
      desired: 3,
      expected: true,
    },
    {
      name: 'IfHealthyBudget lets it go while currentHealthy >= desiredHealthy',
      policy: 'IfHealthyBudget',
      current: 3,
      desired: 3,
      expected: true,
    },
    {
      name: 'IfHealthyBudget holds it while the budget is short',
      policy: 'IfHealthyBudget',
      current: 2,
      desired: 3,
      expected: false,
    },
    {
      name: 'IfHealthyBudget holds it when desiredHealthy is 0',
      policy: 'IfHealthyBudget',
      current: 2,
      desired: 0,
      expected: false,
    },
  ];
  it.each(cases)('$name', ({ policy, current, desired, expected }) => {
    expect(unhealthyPodBypassesBudget(policy, current, desired)).toBe(expected);
  });
});

describe('budgets selecting a pod', () => {
  const pod = makePod().name('web-1').ns('shop').label('app', 'web').obj();
  const names = (...pdbs: V1PodDisruptionBudget[]) =>
    makeIndex({ pods: [pod], pdbs })
      .pdbsForPod(pod)
      .map((p) => p.metadata?.name);

  it('an empty selector selects every pod of its namespace', () => {
    expect(names(makePdb().name('all').ns('shop').selector({}).obj())).toEqual(['all']);
  });
  it('a budget without a selector selects nothing', () => {
    expect(names(makePdb().name('none').ns('shop').selector(null).obj())).toEqual([]);
  });
  it('a budget in another namespace does not select the pod', () => {
    expect(names(makePdb().name('web').ns('other').selector({ app: 'web' }).obj())).toEqual([]);
  });
});
