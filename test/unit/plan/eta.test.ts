import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../../src/plan/build-plan.js';
import {
  DISRUPTED_POD_TIMEOUT_SECONDS,
  estimateDrain,
  startToReady,
  type EtaPod,
  type StartToReady,
} from '../../../src/plan/eta.js';
import { makeDeployment, makeIndex, makeNode, makePdb, makePod, makeReplicaSet } from '../builders.js';
import { options as planOptions } from './rules-fixture.js';

const T0 = Date.parse('2026-11-30T12:00:00Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();

/** A pod created at `created` s whose Ready condition turned True at `ready` s (file-snapshot strings). */
function history(name: string, created: number, ready: number | null): V1Pod {
  const pod = makePod().name(name).ns('shop').owner('ReplicaSet', 'web-1').obj();
  (pod.metadata as Record<string, unknown>).creationTimestamp = at(created);
  pod.status!.conditions = [
    { type: 'PodScheduled', status: 'True', lastTransitionTime: at(created) as unknown as Date },
    {
      type: 'Ready',
      status: ready === null ? 'False' : 'True',
      lastTransitionTime: at(ready ?? created) as unknown as Date,
    },
  ];
  return pod;
}

const observed = (seconds: number): StartToReady => ({ seconds, basis: 'observed', text: `observed ${seconds} s` });
const etaPod = (key: string, wave: number, extra: Partial<EtaPod> = {}): EtaPod => ({
  key,
  wave,
  group: 1,
  graceSeconds: 5,
  budgets: ['shop/web'],
  replacement: observed(2),
  ...extra,
});

describe('startToReady', () => {
  it("is the mean over the workload's Ready pods of Ready's transition minus creation", () => {
    const siblings = [history('a', 0, 2), history('b', 10, 13), history('c', 20, 22), history('d', 30, null)];
    const result = startToReady(siblings[0]!, siblings, 'Deployment shop/web');
    expect(result).toEqual({
      seconds: 7 / 3,
      basis: 'observed',
      text: 'observed start-to-Ready of 3 pods of Deployment shop/web: 2.3 s (mean)',
    });
  });

  it('falls back to the readiness probe (initialDelaySeconds + periodSeconds) without a Ready pod', () => {
    const pod = makePod()
      .container({
        name: 'app',
        image: 'x',
        readinessProbe: { httpGet: { path: '/', port: 8080 }, initialDelaySeconds: 4, periodSeconds: 3 },
      })
      .ready(false)
      .obj();
    expect(startToReady(pod, [pod], 'web')).toMatchObject({ seconds: 7, basis: 'readiness-probe' });
  });

  it('says so when there is neither history nor probe', () => {
    const pod = makePod().ready(false).obj();
    expect(startToReady(pod, [], 'web')).toMatchObject({ seconds: 0, basis: 'none' });
  });
});

describe('estimateDrain', () => {
  it('one wave: the total is the longest grace period', () => {
    const eta = estimateDrain([etaPod('shop/a', 1), etaPod('shop/b', 1, { graceSeconds: 8 })], false);
    expect(eta.totalSeconds).toBe(8);
    expect(eta.waves).toEqual([
      expect.objectContaining({
        wave: 1,
        startsAfterSeconds: 0,
        freesAfterSeconds: 0,
        basis: 'no replacement to wait for',
      }),
    ]);
  });

  it('waves of one budget: each waits for the previous replacements to be Ready; the last pod needs its grace period', () => {
    const eta = estimateDrain(
      [etaPod('shop/a', 1), etaPod('shop/b', 2), etaPod('shop/c', 3, { replacement: observed(4) })],
      false,
    );
    expect(eta.waves.map((w) => [w.wave, w.startsAfterSeconds, w.freesAfterSeconds])).toEqual([
      [1, 0, 2],
      [2, 2, 2],
      [3, 4, 0],
    ]);
    expect(eta.totalSeconds).toBe(9);
    expect(eta.pods.get('shop/c')).toMatchObject({ evictedAfterSeconds: 4, goneAfterSeconds: 9 });
    expect(eta.basis).toEqual(['observed 2 s', 'observed 4 s']);
  });

  it('a wave waits only for the replacements of budgets the next wave needs', () => {
    const eta = estimateDrain(
      [
        etaPod('shop/a', 1),
        etaPod('shop/other', 1, { budgets: ['shop/other'], replacement: observed(30) }),
        etaPod('shop/b', 2),
      ],
      false,
    );
    expect(eta.waves[0]).toMatchObject({ freesAfterSeconds: 2 });
    expect(eta.totalSeconds).toBe(7);
  });

  it('eviction-order groups: the next group starts when the previous is gone', () => {
    const eta = estimateDrain([etaPod('shop/a', 1), etaPod('shop/b', 2, { group: 2, graceSeconds: 3 })], false);
    expect(eta.waves.map((w) => [w.group, w.startsAfterSeconds, w.freesAfterSeconds])).toEqual([
      [1, 0, 5],
      [2, 5, 0],
    ]);
    expect(eta.totalSeconds).toBe(8);
  });

  it("a StatefulSet's pod deleted at once holds its budget's next wave up to the disruption controller's DeletionTimeout", () => {
    const sts = { replacementKeepsName: true, graceSeconds: 0 };
    const eta = estimateDrain([etaPod('shop/db-0', 1, sts), etaPod('shop/db-1', 2, sts)], false);
    expect(eta.waves.map((w) => [w.wave, w.startsAfterSeconds, w.freesAfterSeconds])).toEqual([
      [1, 0, DISRUPTED_POD_TIMEOUT_SECONDS],
      [2, DISRUPTED_POD_TIMEOUT_SECONDS, 0],
    ]);
    expect(eta.waves[0]!.basis).toMatch(
      /^up to 120 s after the eviction of shop\/db-0: its replacement takes its name/,
    );
    expect(eta.totalSeconds).toBe(DISRUPTED_POD_TIMEOUT_SECONDS);
  });

  it('a pod with a grace period, or whose replacement has a name of its own, frees its budget once that is Ready', () => {
    const graceful = { replacementKeepsName: true, graceSeconds: 1 };
    const newName = { replacementKeepsName: false, graceSeconds: 0 };
    for (const extra of [graceful, newName]) {
      const eta = estimateDrain([etaPod('shop/a', 1, extra), etaPod('shop/b', 2, extra)], false);
      expect(eta.waves[0]).toMatchObject({
        freesAfterSeconds: 2,
        basis: 'its replacements Ready (observed start-to-Ready)',
      });
    }
  });

  it('a drain that cannot finish has no total', () => {
    expect(estimateDrain([etaPod('shop/a', 1)], true).totalSeconds).toBeNull();
  });
});

describe('buildPlan estimates', () => {
  it("from the workload's observed start-to-Ready times and the pods' grace periods, per wave and in total", () => {
    const options = planOptions({ nowEpochSeconds: T0 / 1000 + 100 });
    const onNode = (name: string, created: number, ready: number) => {
      const pod = history(name, created, ready);
      pod.spec = { ...pod.spec!, nodeName: 'n1', terminationGracePeriodSeconds: 3 };
      (pod.metadata!.labels ??= {}).app = 'web';
      return pod;
    };
    const pods = [onNode('a', 0, 5), onNode('b', 0, 5)];
    const pdb = makePdb()
      .name('web')
      .ns('shop')
      .selector({ app: 'web' })
      .maxUnavailable(1)
      .status({ disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2 })
      .obj();
    const plan = buildPlan(
      makeIndex({
        nodes: [makeNode().name('n1').obj(), makeNode().name('n2').obj()],
        pods,
        pdbs: [pdb],
        replicaSets: [makeReplicaSet().name('web-1').ns('shop').owner('Deployment', 'web').obj()],
        deployments: [makeDeployment().name('web').ns('shop').replicas(2).obj()],
      }),
      options,
    );
    expect(plan.eta?.totalSeconds).toBe(8);
    expect(plan.eta?.waves.map((w) => [w.wave, w.startsAfterSeconds, w.pods])).toEqual([
      [1, 0, ['shop/a']],
      [2, 5, ['shop/b']],
    ]);
    expect(plan.eta?.basis).toEqual(['observed start-to-Ready of 2 pods of Deployment shop/web: 5 s (mean)']);
    expect(plan.pods[1]?.eta).toMatchObject({ evictedAfterSeconds: 5, goneAfterSeconds: 8, graceSeconds: 3 });
  });
});
