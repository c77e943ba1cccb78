import type { V2HorizontalPodAutoscaler } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../../src/plan/build-plan.js';
import { raisedBounds } from '../../../src/plan/surge.js';
import { SNAPSHOT_KINDS } from '../../../src/snapshot/types.js';
import { etaSection, noExecuteComparison } from '../../../src/ui/plan-sections.js';
import { renderPlanText } from '../../../src/ui/plan-text.js';
import { makeDeployment, makeIndex, makePod, makeReplicaSet, makeStatefulSet } from '../builders.js';
import { nodes, options, pdb, singleReplica } from './rules-fixture.js';

const SURGE_ALL = { surge: { all: true, deployments: [] } };

/** An autoscaler of Deployment `target` in shop with these bounds. */
function hpa(target: string, minReplicas: number, maxReplicas: number): V2HorizontalPodAutoscaler {
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: `${target}-hpa`, namespace: 'shop' },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: target }, minReplicas, maxReplicas },
  };
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

  it('a Deployment under an autoscaler is surged through it: minReplicas (and maxReplicas) raised for the drain', () => {
    const plan = buildPlan(
      singleReplica(pdb({ minAvailable: 1 }), { autoscalers: [hpa('web', 1, 1), hpa('api', 1, 1)] }),
      options(SURGE_ALL),
    );
    expect(plan.verdict).toBe('slow');
    expect(plan.pods[0]?.surge).toMatchObject({
      surged: true,
      toReplicas: 2,
      autoscaler: { name: 'shop/web-hpa', minReplicas: 1, maxReplicas: 1, surgedMin: 2, surgedMax: 2 },
    });
    expect(plan.pods[0]?.surge?.text).toContain(
      'HorizontalPodAutoscaler shop/web-hpa owns its scale, so its minReplicas goes from 1 to 2 (maxReplicas 1 → 2) for the surge and is returned first',
    );
  });

  it('autoscalers not read: the surge is planned, the plan is incomplete and names the surged pod', () => {
    const kinds = SNAPSHOT_KINDS.filter((k) => k !== 'HorizontalPodAutoscaler');
    const plan = buildPlan(singleReplica(pdb({ minAvailable: 1 }), { kinds }), options(SURGE_ALL));
    expect(plan.verdict).toBe('incomplete');
    expect(plan.assumedVerdict).toBe('slow');
    expect(plan.unread).toEqual([expect.objectContaining({ kind: 'HorizontalPodAutoscaler', pods: ['shop/web-1'] })]);
    expect(plan.pods[0]?.surge?.text).toContain('HorizontalPodAutoscalers were not read');
    // Without --surge nothing needs them.
    expect(buildPlan(singleReplica(pdb({ minAvailable: 1 }), { kinds }), options()).unread).toEqual([]);
  });
});

describe('raisedBounds', () => {
  it.each([
    [
      { min: 1, max: 5, to: 2 },
      { surgedMin: 2, surgedMax: 5 },
    ],
    [
      { min: 1, max: 1, to: 2 },
      { surgedMin: 2, surgedMax: 2 },
    ],
    [
      { min: undefined, max: 3, to: 4 },
      { surgedMin: 4, surgedMax: 4 },
    ],
    [
      { min: 6, max: 10, to: 4 },
      { surgedMin: 6, surgedMax: 10 },
    ],
  ])('%j → %j: minReplicas up to the surged count, maxReplicas never below it, neither lowered', (given, want) => {
    expect(raisedBounds(given.min, given.max, given.to)).toMatchObject(want);
  });
});

describe('--surge with maint.kubectl.io/drain-order groups', () => {
  // Group 1 (order 0): web, one replica under minAvailable 1, which only --surge gets out. Group 2
  // (order 1): api, no budget, which goes once group 1 is gone.
  const ordered = () => {
    const { snapshot } = singleReplica(pdb({ minAvailable: 1 }));
    const api = makePod()
      .name('api-1')
      .ns('shop')
      .node('n1')
      .label('app', 'api')
      .owner('ReplicaSet', 'api-rs')
      .annotation('maint.kubectl.io/drain-order', '1')
      .requests('100m')
      .obj();
    return makeIndex({
      ...snapshot,
      kinds: [...snapshot.kinds],
      pods: [...snapshot.pods, api],
      replicaSets: [
        ...snapshot.replicaSets,
        makeReplicaSet().name('api-rs').ns('shop').owner('Deployment', 'api').obj(),
      ],
      deployments: [...snapshot.deployments, makeDeployment().name('api').ns('shop').replicas(1).obj()],
    });
  };

  it('without --surge the first group cannot finish and holds the second: blocked', () => {
    const plan = buildPlan(ordered(), options());
    expect(plan.verdict).toBe('blocked');
    expect(plan.pods.find((p) => p.name === 'api-1')?.outcomeReason).toMatch(/^waits for drain-order group 1/);
  });

  it('with --surge the first group finishes by the surge, so the second goes after it: slow, not blocked', () => {
    const plan = buildPlan(ordered(), options(SURGE_ALL));
    expect(plan.order?.groups.map((g) => g.pods)).toEqual([['shop/web-1'], ['shop/api-1']]);
    expect(plan.verdict).toBe('slow');
    expect(plan.verdictReasons.join('\n')).not.toMatch(/drain-order group/);
    const api = plan.pods.find((p) => p.name === 'api-1')!;
    expect([api.outcome, api.orderGroup, api.replacement?.schedulable]).toEqual(['immediate', 2, true]);
    expect(plan.pods.find((p) => p.name === 'web-1')?.surge).toMatchObject({ surged: true, deployment: 'shop/web' });
    // api goes once web is gone: after the surge replica is Ready and web's grace period.
    const web = plan.pods.find((p) => p.name === 'web-1')!;
    expect(api.eta?.evictedAfterSeconds).toBe(web.eta?.goneAfterSeconds);
    expect(plan.eta?.totalSeconds).toBe(api.eta?.goneAfterSeconds);
  });
});

describe('--surge in the estimate and the NoExecute comparison', () => {
  // web-1 (one replica under minAvailable 1) goes only by the surge; api-1 (no budget) in wave 1. Both
  // workloads' readiness probes make a replica Ready 7 s after it starts.
  const probed = (name: string, app: string) =>
    makePod()
      .name(name)
      .ns('shop')
      .node('n1')
      .label('app', app)
      .owner('ReplicaSet', `${app}-rs`)
      .requests('100m')
      .container({
        name: 'probed',
        image: 'x',
        readinessProbe: { httpGet: { path: '/', port: 8080 }, initialDelaySeconds: 4, periodSeconds: 3 },
      })
      .obj();
  const cluster = (apps: readonly string[]) =>
    makeIndex({
      nodes,
      pods: apps.map((app) => probed(`${app}-1`, app)),
      pdbs: [pdb({ minAvailable: 1 })],
      replicaSets: apps.map((app) => makeReplicaSet().name(`${app}-rs`).ns('shop').owner('Deployment', app).obj()),
      deployments: apps.map((app) => makeDeployment().name(app).ns('shop').replicas(1).obj()),
    });

  it('the surge is a step of the estimate: the extra replica starts with the drain, the eviction once it is Ready', () => {
    const plan = buildPlan(cluster(['web', 'api']), options(SURGE_ALL));
    expect(plan.eta?.steps).toEqual([
      {
        strategy: 'surge',
        pod: 'shop/web-1',
        group: 1,
        startsAfterSeconds: 0,
        removedAfterSeconds: 7,
        goneAfterSeconds: 37,
        basis: 'readiness probe: initialDelaySeconds + periodSeconds = 7 s (no Ready pod to learn from)',
      },
    ]);
    expect(plan.eta?.totalSeconds).toBe(37);
    expect(etaSection(plan).lines).toEqual([
      'wave 1 (at 0s): shop/api-1; then each pod is gone within its grace period',
      "surge for shop/web-1 (at 0s): its Deployment's extra replica Ready after 7s, then shop/web-1 is evicted; gone by 37s",
      'basis: readiness probe: initialDelaySeconds + periodSeconds = 7 s (no Ready pod to learn from)',
    ]);
  });

  it('a drain whose only pod goes by the surge still has its estimate, in the brief plan too', () => {
    const plan = buildPlan(cluster(['web']), options(SURGE_ALL));
    expect(plan.eta?.waves).toEqual([]);
    const title = 'Estimate: about 37s from the first eviction until the last pod is gone';
    expect(etaSection(plan).title).toBe(title);
    expect(renderPlanText(plan, { brief: true })).toContain(title);
  });

  it('the NoExecute comparison says the drain evicts the surged pod after its surge replica, not that it is blocked', () => {
    const plan = buildPlan(cluster(['web']), options(SURGE_ALL));
    expect(noExecuteComparison(plan)).toEqual([
      {
        taint: 'deleted at once',
        drain: 'evicted after its surge replica (at 7s)',
        tone: 'bad',
        pods: ['shop/web-1'],
      },
    ]);
    expect(noExecuteComparison(buildPlan(cluster(['web']), options()))[0]?.drain).toBe('blocked');
  });

  it('--escalate-after is a step too, and its pod is deleted by it in the comparison', () => {
    const plan = buildPlan(cluster(['web']), options({ escalation: { afterSeconds: 60, namespaces: ['shop'] } }));
    expect(plan.eta?.steps).toEqual([
      expect.objectContaining({ strategy: 'escalate-after', removedAfterSeconds: 60, goneAfterSeconds: 90 }),
    ]);
    expect(noExecuteComparison(plan)[0]?.drain).toBe('deleted by --escalate-after (at 1m)');
  });
});
