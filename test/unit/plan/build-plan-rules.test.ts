import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../../src/plan/build-plan.js';
import { makeDeployment, makeIndex, makeNode, makePdb, makePod, makeReplicaSet } from '../builders.js';
import { nodes, options, owners, web } from './rules-fixture.js';

describe('buildPlan rules', () => {
  it('is clear when every pod can go at once, and says how many', () => {
    const plan = buildPlan(makeIndex({ nodes, pods: [web('a').obj(), web('b', 'n2').obj()], ...owners }), options());
    expect([plan.verdict, plan.verdictReasons]).toEqual(['clear', ['the pod can be evicted at once']]);
  });

  it('is clear with nothing to evict on an empty node', () => {
    const plan = buildPlan(makeIndex({ nodes }), options());
    expect([plan.verdict, plan.verdictReasons, plan.pods]).toEqual(['clear', ['nothing to evict'], []]);
  });

  it('groups refusals by kubectl message, one line each', () => {
    const pods = [
      makePod().name('bare-1').ns('shop').node('n1').obj(),
      makePod().name('bare-2').ns('shop').node('n1').obj(),
      web('cache').emptyDir().obj(),
    ];
    const plan = buildPlan(makeIndex({ nodes, pods, ...owners }), options());
    expect(plan.verdictReasons).toEqual([
      'cannot delete Pods that declare no controller (use --force to override): shop/bare-1, shop/bare-2',
      'cannot delete Pods with local storage (use --delete-emptydir-data to override): shop/cache',
    ]);
  });

  it('a pod selected by two budgets is blocked with the API 500 message', () => {
    const status = { disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2 };
    const pdbs = [
      makePdb().name('web').ns('shop').selector({ app: 'web' }).maxUnavailable(1).status(status).obj(),
      makePdb().name('everything').ns('shop').selector({}).maxUnavailable(1).status(status).obj(),
    ];
    const plan = buildPlan(
      makeIndex({ nodes, pods: [web('a').obj(), web('b', 'n2').obj()], pdbs, ...owners }),
      options(),
    );
    expect(plan.verdict).toBe('blocked');
    expect(plan.verdictReasons).toEqual([
      'cannot evict shop/a: the API answers 500 "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support." (shop/everything, shop/web)',
    ]);
    // Blocked, but its ReplicaSet recreates it: whether fixing the budgets is enough is judged.
    expect(plan.pods[0]!.replacement).toMatchObject({ schedulable: true, placedOn: 'n2', whenUnblocked: true });
  });

  describe('a budget spent on a pod whose replacement finds no node', () => {
    const status = { disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3 };
    const pdb = makePdb().name('web').ns('shop').selector({ app: 'web' }).maxUnavailable(1).status(status).obj();
    const full = [nodes[0]!, makeNode().name('n2').taint('dedicated', 'NoSchedule').obj()];

    it('names every interchangeable pod and how many stay, not one the API may evict first', () => {
      const pods = [web('a').obj(), web('b').obj(), web('c').obj()];
      const plan = buildPlan(makeIndex({ nodes: full, pods, pdbs: [pdb], ...owners }), options());
      expect(plan.verdict).toBe('blocked');
      expect(plan.verdictReasons[0]).toBe(
        'cannot evict 2 of shop/a, shop/b, shop/c: no node takes the replacement of the first pod budget shop/web ' +
          'lets go (whichever the API admits), so the budget never frees up for the rest',
      );
    });

    it('names the pod left behind when the pods are not interchangeable (another controller)', () => {
      const other = makePod().name('z').ns('shop').node('n1').label('app', 'web').owner('ReplicaSet', 'web-2');
      const pods = [web('a').obj(), other.requests('100m').obj()];
      const replicaSets = [
        ...owners.replicaSets!,
        makeReplicaSet().name('web-2').ns('shop').owner('Deployment', 'api').obj(),
      ];
      const deployments = [...owners.deployments!, makeDeployment().name('api').ns('shop').replicas(1).obj()];
      const plan = buildPlan(makeIndex({ nodes: full, pods, pdbs: [pdb], replicaSets, deployments }), options());
      expect(plan.verdictReasons[0]).toBe(
        'cannot evict shop/z: budget shop/web will not free up: the replacement of shop/a cannot be scheduled',
      );
    });
  });

  it('a single replica under minAvailable 1 is blocked: the budget never allows an eviction', () => {
    const pdb = makePdb().name('web').ns('shop').selector({ app: 'web' }).minAvailable(1);
    const plan = buildPlan(
      makeIndex({
        nodes,
        pods: [web('a').obj()],
        pdbs: [pdb.status({ disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 }).obj()],
        ...owners,
      }),
      options(),
    );
    expect(plan.pods[0]).toMatchObject({
      outcome: 'blocked',
      outcomeReason:
        'budget shop/web never allows an eviction: minAvailable 1 >= 1 expected pod: every pod must stay healthy',
    });
    expect(plan.budgets[0]?.neverAllows).toBe('minAvailable 1 >= 1 expected pod: every pod must stay healthy');
    expect(plan.pods[0]!.replacement).toMatchObject({ schedulable: true, placedOn: 'n2', whenUnblocked: true });
  });

  it('a blocked pod nothing recreates keeps replacement null', () => {
    const pdb = makePdb().name('bare').ns('shop').selector({ app: 'bare' }).maxUnavailable(0);
    const bare = makePod().name('bare').ns('shop').node('n1').labels({ app: 'bare' }).obj();
    const plan = buildPlan(
      makeIndex({
        nodes,
        pods: [bare],
        pdbs: [pdb.status({ disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 }).obj()],
        ...owners,
      }),
      options({ force: true }),
    );
    expect(plan.pods[0]).toMatchObject({ outcome: 'blocked', controller: null, replacement: null });
  });

  it('the patient pod tolerates the maintenance taint for 30s while its neighbours go at once', () => {
    const patient = makePod()
      .name('patient')
      .ns('demo')
      .node('n1')
      .owner('ReplicaSet', 'p-1')
      .toleration({ key: 'maintenance', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 })
      .obj();
    const plan = buildPlan(makeIndex({ nodes, pods: [patient, web('a').obj()], kinds: ['Node', 'Pod'] }), options());
    expect(plan.noExecute.taint).toBe('maintenance:NoExecute');
    expect(plan.pods.map((p) => [p.name, p.noExecute.afterSeconds])).toEqual([
      ['patient', 30],
      ['a', 0],
    ]);
  });

  it('a snapshot without budgets says the budgets are unknown, in the caveats and on each pod', () => {
    const plan = buildPlan(
      makeIndex({ nodes, pods: [web('a').obj()], kinds: ['Node', 'Pod', 'ReplicaSet'] }),
      options(),
    );
    expect(plan.caveats).toContain(
      'PodDisruptionBudgets were not loaded: budgets are unknown, so evictions the plan calls immediate may wait or be refused',
    );
    expect(plan.pods[0]?.outcomeReason).toBe('PodDisruptionBudgets were not loaded: taken as having none');
  });

  it('an already-terminating pod is evicted again at once although its budget allows nothing', () => {
    const pdb = makePdb()
      .name('web')
      .ns('shop')
      .selector({ app: 'web' })
      .maxUnavailable(0)
      .status({ disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 })
      .obj();
    const plan = buildPlan(
      makeIndex({ nodes, pods: [web('a').deleting(1_799_999_990).obj()], pdbs: [pdb], ...owners }),
      options(),
    );
    expect(plan.pods[0]).toMatchObject({
      outcome: 'immediate',
      outcomeReason: 'already terminating: the API deletes it without consulting budgets',
    });
    expect(plan.verdict).toBe('clear');
  });

  it('a stale budget makes the drain slow and says why', () => {
    const pdb = makePdb()
      .name('web')
      .ns('shop')
      .selector({ app: 'web' })
      .maxUnavailable(1)
      .generation(2)
      .status({ disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3, observedGeneration: 1 })
      .obj();
    const plan = buildPlan(
      makeIndex({ nodes, pods: [web('a').obj(), web('b', 'n2').obj()], pdbs: [pdb], ...owners }),
      options(),
    );
    expect(plan.verdict).toBe('slow');
    expect(plan.verdictReasons).toEqual([
      'budget shop/web lets 1 pod go at a time: 1 wave, each waiting for replacements to become Ready (its status is stale: the first wave waits for the disruption controller)',
    ]);
  });
});

describe('caveats that depend on the server version', () => {
  const rules = (plan: { caveats: readonly string[] }) =>
    plan.caveats.filter((c) => /^(Kubernetes version|NodeDeclaredFeatures|DynamicResources)/.test(c));
  const declared = makeNode().name('n2').obj();
  declared.status = { ...declared.status, declaredFeatures: ['GuaranteedQoSPodCPUResize'] } as typeof declared.status;
  const gpuPod = web('a').obj();
  gpuPod.spec!.containers[0]!.resources = { requests: { 'example.com/gpu': '1' } };
  gpuPod.spec!.resourceClaims = [{ name: 'gpu', resourceClaimTemplateName: 'gpu' }];
  const plan = (serverVersion: string | undefined) =>
    buildPlan(makeIndex({ nodes: [nodes[0]!, declared], pods: [gpuPod], ...owners, serverVersion }), options());

  it('on 1.35 none: NodeDeclaredFeatures, DRA extended resources and DeviceTaintRules are off by default', () => {
    expect(rules(plan('v1.35.4'))).toEqual([]);
  });

  it('on 1.36 NodeDeclaredFeatures and DRA extended resources; on 1.37 DeviceTaintRules too', () => {
    expect(rules(plan('v1.36.3')).map((c) => c.split(':')[0])).toEqual(['DynamicResources', 'NodeDeclaredFeatures']);
    expect(rules(plan('v1.37.2')).map((c) => c.split(':')[0])).toEqual([
      'DynamicResources',
      'DynamicResources',
      'NodeDeclaredFeatures',
    ]);
  });

  it('a snapshot that does not say its version is planned as 1.37, and the plan says so', () => {
    const unknown = rules(plan(undefined));
    expect(unknown[0]).toMatch(/^Kubernetes version: the snapshot does not say which version the cluster runs/);
    expect(unknown.slice(1)).toEqual(rules(plan('v1.37.2')));
  });
});
