import { describe, expect, it } from 'vitest';
import type { FilterResult } from '../../../../src/plan/scheduling/framework.js';
import { makeNode, makePod } from '../../builders.js';
import type { Scene } from './harness.js';
import { makePV, makePVC, NS, podWithClaims, volumeVerdict } from './volume-fixtures.js';

const CONFLICT: FilterResult = {
  code: 'Unschedulable',
  reasons: ['node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode'],
};
const nodes = [makeNode().name('node-1').obj(), makeNode().name('node-2').obj()];
const rwop1 = makePVC('claim-with-rwop-1', '').accessModes('ReadWriteOncePod').boundTo('pv-1').obj();
const rwop2 = makePVC('claim-with-rwop-2', '').accessModes('ReadWriteOncePod').boundTo('pv-2').obj();
const rwo = makePVC('claim-rwo', '').boundTo('pv-3').obj();
const storage = {
  persistentVolumeClaims: [rwop1, rwop2, rwo],
  persistentVolumes: ['pv-1', 'pv-2', 'pv-3'].map((n) => makePV(n, '').phase('Bound').obj()),
};
const on = (node: string, name: string, ...claims: string[]) => {
  const pod = podWithClaims(name, ...claims);
  pod.spec!.nodeName = node;
  return pod;
};

// TestAccessModeConflicts (pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions_test.go).
const cases: ReadonlyArray<{ name: string; scene: Scene; claims: string[]; node: string; want: FilterResult }> = [
  {
    name: 'nothing',
    scene: { nodes, storage },
    claims: [],
    node: 'node-1',
    want: null,
  },
  {
    name: 'failed to get PVC',
    scene: { nodes, storage: { ...storage, persistentVolumeClaims: [] } },
    claims: ['claim-with-rwop-1'],
    node: 'node-1',
    want: { code: 'UnschedulableAndUnresolvable', reasons: ['persistentvolumeclaim "claim-with-rwop-1" not found'] },
  },
  {
    name: 'no access mode conflict',
    scene: { nodes, storage, pods: [on('node-1', 'pod-1', 'claim-with-rwop-1')] },
    claims: ['claim-with-rwop-2'],
    node: 'node-1',
    want: null,
  },
  {
    name: 'access mode conflict',
    scene: { nodes, storage, pods: [on('node-1', 'pod-1', 'claim-with-rwop-1', 'claim-with-rwop-2')] },
    claims: ['claim-with-rwop-1', 'claim-with-rwop-2'],
    node: 'node-1',
    want: CONFLICT,
  },
  {
    name: 'access mode conflict on a node the user is not on: the count is cluster-wide',
    scene: { nodes, storage, pods: [on('node-1', 'pod-1', 'claim-with-rwop-1')] },
    claims: ['claim-with-rwop-1'],
    node: 'node-2',
    want: CONFLICT,
  },
  {
    name: 'a ReadWriteOnce claim used elsewhere is not the scheduler’s business',
    scene: { nodes, storage, pods: [on('node-1', 'pod-1', 'claim-rwo')] },
    claims: ['claim-rwo'],
    node: 'node-2',
    want: null,
  },
  {
    name: 'a pod not bound to a node does not hold the claim',
    scene: { nodes, storage, pods: [podWithClaims('pending', 'claim-with-rwop-1')] },
    claims: ['claim-with-rwop-1'],
    node: 'node-2',
    want: null,
  },
];

describe('VolumeRestrictions Filter (ReadWriteOncePod)', () => {
  it.each(cases)('$name', ({ scene, claims, node, want }) => {
    const incoming = claims.length > 0 ? podWithClaims('incoming', ...claims) : makePod().name('incoming').ns(NS).obj();
    expect(volumeVerdict('VolumeRestrictions', scene, incoming, node)).toEqual(want);
  });
});
