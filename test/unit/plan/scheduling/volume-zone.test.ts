import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { FilterResult } from '../../../../src/plan/scheduling/framework.js';
import { replacementClaims } from '../../../../src/plan/scheduling/pod-claims.js';
import { volumeZonePreFilter } from '../../../../src/plan/scheduling/plugins/volume-zone.js';
import { volumeCatalog } from '../../../../src/plan/scheduling/volume-catalog.js';
import { makeNode, makePod, makeSnapshot } from '../../builders.js';
import type { Scene } from './harness.js';
import { makePV, makePVC, NS, podWithClaims, storageClass, volumePreFilter, volumeVerdict } from './volume-fixtures.js';

const BETA_ZONE = 'failure-domain.beta.kubernetes.io/zone';
const BETA_REGION = 'failure-domain.beta.kubernetes.io/region';
const ZONE = 'topology.kubernetes.io/zone';
const REGION = 'topology.kubernetes.io/region';
const CONFLICT: FilterResult = {
  code: 'UnschedulableAndUnresolvable',
  reasons: ['node(s) had no available volume zone'],
};

// upstream's PV and PVC listers (volume_zone_test.go): each claim bound to the volume of its number.
const volumes = [
  makePV('vol-1', '').label(BETA_ZONE, 'us-west1-a').obj(),
  makePV('vol-2', '').label(BETA_REGION, 'us-west1').label('uselessLabel', 'none').obj(),
  makePV('vol-3', '').label(BETA_ZONE, 'us-west1-c__us-west1-a').obj(),
  makePV('vol-stable-1', '').label(ZONE, 'us-west1-a').obj(),
  makePV('vol-stable-2', '').label(REGION, 'us-west1').label('uselessLabel', 'none').obj(),
  makePV('vol-stable-3', '').label(ZONE, 'us-west1-a').label(REGION, 'us-west1-a').obj(),
  makePV('vol-stable-4', '').label(ZONE, 'us-west1-c__us-west1-a').obj(),
];
const claims = [
  ...volumes.map((v) =>
    makePVC(`pvc-${v.metadata!.name!.slice(4)}`, '')
      .boundTo(v.metadata!.name!)
      .obj(),
  ),
  makePVC('pvc-no-sc', 'class-0').obj(),
  makePVC('pvc-empty-sc', '').obj(),
  makePVC('pvc-wait-sc', 'class-wait').obj(),
];
const classes = [storageClass('class-wait', 'WaitForFirstConsumer')];

function verdict(incoming: V1Pod, labels: Readonly<Record<string, string>>): FilterResult {
  const node = makeNode().name('host1').obj();
  node.metadata!.labels = { ...labels };
  const scene: Scene = {
    nodes: [node],
    storage: { persistentVolumes: volumes, persistentVolumeClaims: claims, storageClasses: classes },
  };
  return volumeVerdict('VolumeZone', scene, incoming, 'host1');
}

const pod = (claim: string) => podWithClaims('pod-1', claim);

// TestSingleZone, TestMultiZone and TestWithBinding (pkg/scheduler/framework/plugins/volumezone/volume_zone_test.go).
const cases: ReadonlyArray<readonly [string, V1Pod, Record<string, string>, FilterResult]> = [
  ['pod without volume', makePod().name('pod-1').ns(NS).obj(), { [BETA_ZONE]: 'us-west1-a' }, null],
  ['node without labels', pod('pvc-1'), {}, null],
  ['beta zone label matched', pod('pvc-1'), { [BETA_ZONE]: 'us-west1-a', uselessLabel: 'none' }, null],
  ['beta region label matched', pod('pvc-2'), { [BETA_REGION]: 'us-west1', uselessLabel: 'none' }, null],
  ["beta region label doesn't match", pod('pvc-2'), { [BETA_REGION]: 'no_us-west1' }, CONFLICT],
  ["beta zone label doesn't match", pod('pvc-1'), { [BETA_ZONE]: 'no_us-west1-a' }, CONFLICT],
  ['zone label matched', pod('pvc-stable-1'), { [ZONE]: 'us-west1-a', uselessLabel: 'none' }, null],
  ['region label matched', pod('pvc-stable-2'), { [REGION]: 'us-west1', uselessLabel: 'none' }, null],
  ["region label doesn't match", pod('pvc-stable-2'), { [REGION]: 'no_us-west1' }, CONFLICT],
  ["zone label doesn't match", pod('pvc-stable-1'), { [ZONE]: 'no_us-west1-a' }, CONFLICT],
  ['pv with zone and region, node with only zone', pod('pvc-stable-3'), { [ZONE]: 'us-west1-a' }, CONFLICT],
  ['pv with zone, node with beta zone', pod('pvc-stable-1'), { [BETA_ZONE]: 'us-west1-a' }, CONFLICT],
  ['pv with beta label, node with ga label, matched', pod('pvc-1'), { [ZONE]: 'us-west1-a' }, null],
  ["pv with beta label, node with ga label, don't match", pod('pvc-1'), { [ZONE]: 'us-west1-b' }, CONFLICT],
  ['multi-zone: beta zone label matched', pod('pvc-3'), { [BETA_ZONE]: 'us-west1-a' }, null],
  ['multi-zone: zone label matched', pod('pvc-stable-4'), { [ZONE]: 'us-west1-a' }, null],
  ["multi-zone: beta zone label doesn't match", pod('pvc-1'), { [BETA_ZONE]: 'us-west1-b' }, CONFLICT],
  ['unbound volume wait binding mode: no zone yet', pod('pvc-wait-sc'), { [BETA_ZONE]: 'us-west1-a' }, null],
];

describe('VolumeZone PreFilter and Filter', () => {
  it.each(cases)('%s', (_name, incoming, labels, want) => {
    expect(verdict(incoming, labels)).toEqual(want);
  });

  it('pod without volume: PreFilter skips', () => {
    const scene: Scene = { nodes: [makeNode().name('host1').obj()] };
    expect(volumePreFilter(scene, makePod().name('pod-1').ns(NS).obj())).toBeNull();
  });

  // In the profile VolumeBinding's PreFilter rejects these claims first (unbound, not WaitForFirstConsumer).
  const zonePreFilter = (claim: string) => {
    const catalog = volumeCatalog(
      makeSnapshot({ persistentVolumes: volumes, persistentVolumeClaims: claims, storageClasses: classes }),
    );
    return volumeZonePreFilter(replacementClaims(pod(claim), catalog), catalog);
  };

  it('unbound volume empty storage class', () => {
    expect(zonePreFilter('pvc-empty-sc')).toEqual({
      rejection: {
        code: 'UnschedulableAndUnresolvable',
        reasons: ['PersistentVolumeClaim had no pv name and storageClass name'],
      },
    });
  });

  it('unbound volume no storage class: the lister not-found error', () => {
    // upstream's fake lister prints the plural resource; the informer's lister prints storageclass.storage.k8s.io.
    expect(zonePreFilter('pvc-no-sc')).toEqual({
      rejection: { code: 'UnschedulableAndUnresolvable', reasons: ['storageclass.storage.k8s.io "class-0" not found'] },
    });
  });
});
