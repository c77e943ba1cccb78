import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../../../src/plan/build-plan.js';
import { SchedulingSimulation } from '../../../../src/plan/scheduling/simulation.js';
import { makeIndex, makeNode, makePod, makeStatefulSet, type SnapshotInput } from '../../builders.js';
import { options } from '../rules-fixture.js';
import { makePV, makePVC, storageClass } from './volume-fixtures.js';

/**
 * Replacements of pods with volumes as a drain places them: a StatefulSet's replacement keeps its claim,
 * so a local PV pinned to the drained node leaves it no node until the node returns; a zonal PV keeps it
 * in its zone; what the snapshot cannot tell is unknown, never a node name.
 */
const ZONE = 'topology.kubernetes.io/zone';
const nodes = ['k8s-node-1', 'k8s-node-2', 'k8s-node-3'].map((name, i) =>
  makeNode()
    .name(name)
    .label(ZONE, i < 2 ? 'zone-a' : 'zone-b')
    .obj(),
);
const local = storageClass('local', 'WaitForFirstConsumer', 'kubernetes.io/no-provisioner');

function db(name: string, claim: string): V1Pod {
  return makePod()
    .name(name)
    .ns('demo')
    .node('k8s-node-1')
    .label('app', 'db')
    .owner('StatefulSet', 'db')
    .volume({ name: 'data', persistentVolumeClaim: { claimName: claim } })
    .obj();
}

/** db-0's claim, bound to `volume` (class local). */
const dbClaim = (volume: string) => inDemo(makePVC('data-db-0', 'local').boundTo(volume).obj());
/** A bound local PV of k8s-node-1. */
const localOnNode1 = () => makePV('pv-local', 'local').phase('Bound').onNode('k8s-node-1').obj();

/** Drains k8s-node-1 and places its pods' replacements; the storage has class local unless it says. */
function drainNode1(pods: V1Pod[], storage: SnapshotInput) {
  const sim = new SchedulingSimulation(
    makeIndex({ storageClasses: [local], ...storage, nodes, pods }),
    new Set(['k8s-node-1']),
  );
  for (const pod of pods) if (pod.spec?.nodeName === 'k8s-node-1') sim.evict(pod);
  return pods.filter((p) => p.spec?.nodeName === 'k8s-node-1').map((pod) => sim.place(pod));
}

describe('replacements of pods with volumes', () => {
  it('a StatefulSet pod bound to a local PV on the drained node has no node until that node returns', () => {
    const [plan] = drainNode1([db('db-0', 'data-db-0')], {
      persistentVolumeClaims: [dbClaim('pv-local')],
      persistentVolumes: [localOnNode1()],
    });
    expect(plan).toMatchObject({ schedulable: false, placedOn: null, untilNodeReturns: ['k8s-node-1'] });
    expect(plan!.message).toBe(
      "0/3 nodes are available: 1 node(s) were unschedulable, 2 node(s) didn't match PersistentVolume's node affinity. " +
        'preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
    );
  });

  it('a PV whose affinity is by zone keeps the replacement in its zone: it moves to the other node of the zone', () => {
    const [plan] = drainNode1([db('db-0', 'data-db-0')], {
      persistentVolumeClaims: [dbClaim('pv-zonal')],
      persistentVolumes: [
        makePV('pv-zonal', 'local')
          .phase('Bound')
          .nodeAffinity({ [ZONE]: ['zone-a'] })
          .obj(),
      ],
    });
    expect(plan).toMatchObject({ schedulable: true, placedOn: 'k8s-node-2' });
    expect(plan!.rejected).toContainEqual({
      node: 'k8s-node-3',
      reasons: ["node(s) didn't match PersistentVolume's node affinity"],
    });
    expect(plan!.untilNodeReturns).toBeUndefined();
  });

  it('a PV zone label whose zone has no other node with room: no node until the drained node returns', () => {
    const big = db('db-0', 'data-db-0');
    big.spec!.containers[0]!.resources = { requests: { cpu: '1500m' } };
    const filler = makePod().name('filler').ns('other').node('k8s-node-2').requests('1').obj();
    const [plan] = drainNode1([big, filler], {
      persistentVolumeClaims: [dbClaim('pv-zonal')],
      persistentVolumes: [makePV('pv-zonal', 'local').phase('Bound').label(ZONE, 'zone-a').obj()],
    });
    expect(plan).toMatchObject({ schedulable: false, untilNodeReturns: ['k8s-node-1'] });
    expect(plan!.rejected).toContainEqual({ node: 'k8s-node-3', reasons: ['node(s) had no available volume zone'] });
    expect(plan!.rejected).toContainEqual({ node: 'k8s-node-2', reasons: ['Insufficient cpu'] });
  });

  it('claims not read: the replacement fits, but where is unknown and no node is named', () => {
    const [plan] = drainNode1([db('db-0', 'data-db-0')], { kinds: ['Node', 'Pod', 'StatefulSet'] });
    expect(plan).toMatchObject({ schedulable: true, placedOn: null });
    expect(plan!.unknown).toMatch(/^PersistentVolumeClaims were not read/);
    expect(plan!.message).toMatch(/where the replacement runs is unknown: PersistentVolumeClaims were not read/);
  });

  it('a generic ephemeral volume gets a new claim: provisioned where it lands, unknown when capacity is not published', () => {
    const pod = makePod()
      .name('web-1')
      .ns('demo')
      .node('k8s-node-1')
      .owner('ReplicaSet', 'web')
      .volume({
        name: 'scratch',
        ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'fast' } } },
      })
      .obj();
    const fast = storageClass('fast', 'WaitForFirstConsumer', 'fast.csi.example.com');
    const [plan] = drainNode1([pod], { storageClasses: [fast] });
    expect(plan).toMatchObject({ schedulable: true, placedOn: null });
    expect(plan!.unknown).toBe(
      'VolumeBinding: fast.csi.example.com provisions a new volume (StorageClass fast) where the replacement lands and publishes no storage capacity, so whether it can is not known',
    );
  });

  it('a ReadWriteOncePod claim is held by the evicted pod until it is gone: the replacement waits for it', () => {
    const [plan] = drainNode1([db('db-0', 'data-db-0')], {
      persistentVolumeClaims: [
        inDemo(makePVC('data-db-0', 'local').accessModes('ReadWriteOncePod').boundTo('pv-any').obj()),
      ],
      persistentVolumes: [makePV('pv-any', 'local').phase('Bound').obj()],
    });
    expect(plan).toMatchObject({ schedulable: true, waitsForTermination: true });
    expect(plan!.message).toMatch(
      /^0\/3 nodes are available: 1 node\(s\) were unschedulable, 2 node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode\./,
    );
  });
});

describe('the whole plan when db-0 is on a local PV of the drained node', () => {
  it('is not a routine drain: db is down until k8s-node-1 returns, and no node is named for db-0', () => {
    const index = makeIndex({
      nodes,
      pods: [db('db-0', 'data-db-0')],
      statefulSets: [makeStatefulSet().name('db').ns('demo').replicas(1).obj()],
      persistentVolumeClaims: [dbClaim('pv-local')],
      persistentVolumes: [localOnNode1()],
      storageClasses: [local],
    });
    const plan = buildPlan(index, options({ nodes: ['k8s-node-1'] }));
    expect(plan.pods[0]!.replacement).toMatchObject({
      schedulable: false,
      placedOn: null,
      untilNodeReturns: ['k8s-node-1'],
    });
    expect(plan.verdict).toBe('disruptive');
    expect(plan.outages?.map((o) => [o.kind, o.name, o.until, o.returnsOn])).toEqual([
      ['StatefulSet', 'db', 'node-returns', ['k8s-node-1']],
    ]);
    expect(plan.caveats.filter((c) => /VolumeBinding|PersistentVolume/.test(c))).toEqual([]);
  });
});

function inDemo<T extends { metadata?: { namespace?: string } }>(object: T): T {
  object.metadata!.namespace = 'demo';
  return object;
}
