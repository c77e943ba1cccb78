import type {
  V1Node,
  V1PersistentVolume,
  V1PersistentVolumeClaim,
  V1Pod,
  V1StorageClass,
} from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { FilterResult } from '../../../../src/plan/scheduling/framework.js';
import { NodeInfo } from '../../../../src/plan/scheduling/node-info.js';
import { replacementClaims } from '../../../../src/plan/scheduling/pod-claims.js';
import { volumeBinding, volumeBindingPreFilter } from '../../../../src/plan/scheduling/plugins/volume-binding.js';
import { volumeCatalog } from '../../../../src/plan/scheduling/volume-catalog.js';
import { makeNode, makePod, makeSnapshot } from '../../builders.js';
import {
  csiNode,
  immediateSC,
  makePV,
  makePVC,
  NS,
  podWithClaims,
  storageClass,
  volumePreFilter,
  volumeVerdict,
  waitHDDSC,
  waitSC,
} from './volume-fixtures.js';

const ZONE = 'topology.kubernetes.io/zone';
const REGION = 'topology.kubernetes.io/region';
const NODE_CONFLICT = "node(s) didn't match PersistentVolume's node affinity";
const BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind";
const NOT_ENOUGH_SPACE = 'node(s) did not have enough free storage';
const PV_NOT_EXIST = 'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)';
const uu = (...reasons: string[]): FilterResult => ({ code: 'UnschedulableAndUnresolvable', reasons });

interface Case {
  readonly name: string;
  readonly pod: V1Pod;
  readonly nodes: readonly V1Node[];
  readonly pvcs?: readonly V1PersistentVolumeClaim[];
  readonly pvs?: readonly V1PersistentVolume[];
  readonly classes?: readonly V1StorageClass[];
  /** PreFilter skips: the pod has no claims. */
  readonly skip?: boolean;
  /** PreFilter rejects every node with this status. */
  readonly preFilter?: FilterResult;
  /** Filter's verdict, node by node (nodes in order). */
  readonly filter?: readonly FilterResult[];
}

const node = (name: string) => makeNode().name(name);
/** Local PVs of `className` on one node, each of `capacity` (none when empty). */
const localPVs = (nodeName: string, className: string, capacity: string, ...names: string[]) =>
  names.map((name) => {
    const pv = makePV(name, className).onNode(nodeName);
    return (capacity ? pv.capacity(capacity) : pv).obj();
  });

// TestVolumeBinding (pkg/scheduler/framework/plugins/volumebinding/volume_binding_test.go).
const cases: Case[] = [
  {
    name: 'pod has not pvcs',
    pod: makePod().name('pod-a').ns(NS).obj(),
    nodes: [node('node-a').obj()],
    skip: true,
    filter: [null],
  },
  {
    name: 'all bound',
    pod: podWithClaims('pod-a', 'pvc-a'),
    nodes: [node('node-a').obj()],
    pvcs: [makePVC('pvc-a', 'wait-sc').boundTo('pv-a').obj()],
    pvs: [makePV('pv-a', 'wait-sc').obj()],
    filter: [null],
  },
  {
    // upstream's table also expects a PreFilterResult of {node-a}; kube-scheduler v1.37.2 in the lab filters
    // every node (scenario volumes, test/e2e/plan-volumes.test.ts), and so does the simulation.
    name: 'all bound with local volumes',
    pod: podWithClaims('pod-a', 'pvc-a', 'pvc-b'),
    nodes: [node('node-a').obj()],
    pvcs: [makePVC('pvc-a', 'wait-sc').boundTo('pv-a').obj(), makePVC('pvc-b', 'wait-sc').boundTo('pv-b').obj()],
    pvs: ['pv-a', 'pv-b'].map((name) => makePV(name, 'wait-sc').phase('Bound').onNode('node-a').obj()),
    filter: [null],
  },
  {
    name: 'PVC does not exist',
    pod: podWithClaims('pod-a', 'pvc-a'),
    nodes: [node('node-a').obj()],
    preFilter: uu('persistentvolumeclaim "pvc-a" not found'),
  },
  {
    name: 'Part of PVCs do not exist',
    pod: podWithClaims('pod-a', 'pvc-a', 'pvc-b'),
    nodes: [node('node-a').obj()],
    pvcs: [makePVC('pvc-a', 'wait-sc').boundTo('pv-a').obj()],
    preFilter: uu('persistentvolumeclaim "pvc-b" not found'),
  },
  {
    name: 'immediate claims not bound',
    pod: podWithClaims('pod-a', 'pvc-a'),
    nodes: [node('node-a').obj()],
    pvcs: [makePVC('pvc-a', 'immediate-sc').obj()],
    preFilter: uu('pod has unbound immediate PersistentVolumeClaims'),
  },
  {
    name: 'unbound claims no matches',
    pod: podWithClaims('pod-a', 'pvc-a'),
    nodes: [node('node-a').obj()],
    pvcs: [makePVC('pvc-a', 'wait-sc').obj()],
    filter: [uu(BIND_CONFLICT)],
  },
  {
    name: 'bound and unbound unsatisfied',
    pod: podWithClaims('pod-a', 'pvc-a', 'pvc-b'),
    nodes: [node('node-a').label('foo', 'barbar').obj()],
    pvcs: [makePVC('pvc-a', 'wait-sc').boundTo('pv-a').obj(), makePVC('pvc-b', 'wait-sc').obj()],
    pvs: [
      makePV('pv-a', 'wait-sc')
        .nodeAffinity({ foo: ['bar'] })
        .obj(),
    ],
    filter: [uu(NODE_CONFLICT, BIND_CONFLICT)],
  },
  {
    // VolumeBinding's Filter says PV_NOT_EXIST (see below); in the profile VolumeZone's PreFilter, which
    // looks the PV up too, rejects every node first.
    name: 'pv not found',
    pod: podWithClaims('pod-a', 'pvc-a'),
    nodes: [node('node-a').obj()],
    pvcs: [makePVC('pvc-a', 'wait-sc').boundTo('pv-a').obj()],
    preFilter: uu('persistentvolume "pv-a" not found'),
  },
  {
    name: 'pv not found claim lost',
    pod: podWithClaims('pod-a', 'pvc-a'),
    nodes: [node('node-a').obj()],
    pvcs: [makePVC('pvc-a', 'wait-sc').boundTo('pv-a').phase('Lost').obj()],
    preFilter: uu('persistentvolumeclaim "pvc-a" bound to non-existent persistentvolume "pv-a"'),
  },
  {
    name: 'local volumes with close capacity are preferred',
    pod: podWithClaims('pod-a', 'pvc-a'),
    nodes: [node('node-a').obj(), node('node-b').obj(), node('node-c').obj()],
    pvcs: [makePVC('pvc-a', 'wait-sc').request('50Gi').obj()],
    pvs: [
      ...localPVs('node-a', 'wait-sc', '200Gi', 'pv-a-0', 'pv-a-1'),
      ...localPVs('node-b', 'wait-sc', '100Gi', 'pv-b-0', 'pv-b-1'),
    ],
    filter: [null, null, uu(BIND_CONFLICT)],
  },
  {
    name: 'local volumes with close capacity are preferred (multiple pvcs)',
    pod: podWithClaims('pod-a', 'pvc-0', 'pvc-1'),
    nodes: [node('node-a').obj(), node('node-b').obj(), node('node-c').obj()],
    pvcs: [makePVC('pvc-0', 'wait-sc').request('50Gi').obj(), makePVC('pvc-1', 'wait-hdd-sc').request('100Gi').obj()],
    pvs: [
      ...localPVs('node-a', 'wait-sc', '200Gi', 'pv-a-0', 'pv-a-1'),
      ...localPVs('node-a', 'wait-hdd-sc', '200Gi', 'pv-a-2', 'pv-a-3'),
      ...localPVs('node-b', 'wait-sc', '100Gi', 'pv-b-0', 'pv-b-1'),
      ...localPVs('node-b', 'wait-hdd-sc', '100Gi', 'pv-b-2', 'pv-b-3'),
    ],
    filter: [null, null, uu(BIND_CONFLICT)],
  },
  {
    name: 'zonal volumes with close capacity are preferred',
    pod: podWithClaims('pod-a', 'pvc-a'),
    nodes: ['a', 'b', 'c'].flatMap((z) =>
      ['a', 'b'].map((n) => node(`zone-${z}-node-${n}`).label(REGION, `region-${z}`).label(ZONE, `zone-${z}`).obj()),
    ),
    pvcs: [makePVC('pvc-a', 'wait-sc').request('50Gi').obj()],
    pvs: [
      ...['0', '1'].map((i) =>
        makePV(`pv-a-${i}`, 'wait-sc')
          .capacity('200Gi')
          .nodeAffinity({ [REGION]: ['region-a'], [ZONE]: ['zone-a'] })
          .obj(),
      ),
      ...['0', '1'].map((i) =>
        makePV(`pv-b-${i}`, 'wait-sc')
          .capacity('100Gi')
          .nodeAffinity({ [REGION]: ['region-b'], [ZONE]: ['zone-b'] })
          .obj(),
      ),
    ],
    filter: [null, null, null, null, uu(BIND_CONFLICT), uu(BIND_CONFLICT)],
  },
];

// Cases of binder_test.go (TestFindPodVolumesWithProvisioning, TestCapacity) and pv_helpers_test.go, for
// what the table above leaves out: provisioning, allowedTopologies, storage capacity, pre-bound PVs.
const provisioner = 'test-provisioner';
const waitProvisioned = storageClass('wait-provisioned', 'WaitForFirstConsumer', provisioner);
const topologyClass = storageClass('topology-sc', 'WaitForFirstConsumer', provisioner, {
  allowedTopologies: [{ matchLabelExpressions: [{ key: 'key1', values: ['value1'] }] }],
});
const noProvisioner = storageClass('no-provisioner', 'WaitForFirstConsumer', 'kubernetes.io/no-provisioner');
const driver = {
  apiVersion: 'storage.k8s.io/v1',
  kind: 'CSIDriver',
  metadata: { name: provisioner },
  spec: { storageCapacity: true },
};
const capacity = (name: string, size: string, labels: Record<string, string>) => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'CSIStorageCapacity',
  metadata: { name, namespace: 'kube-system' },
  storageClassName: 'wait-provisioned',
  capacity: size,
  nodeTopology: { matchLabels: labels },
});

const provisioning: Array<Case & { readonly drivers?: readonly object[]; readonly capacities?: readonly object[] }> = [
  {
    name: 'one provisioned claim: a class with a provisioner takes any node',
    pod: podWithClaims('pod-a', 'pvc-a'),
    nodes: [node('node1').label('key1', 'value1').obj()],
    pvcs: [makePVC('pvc-a', 'wait-provisioned').request('1Gi').obj()],
    filter: [null],
  },
  {
    name: 'a class with the no-provisioner provisioner cannot provision',
    pod: podWithClaims('pod-a', 'pvc-a'),
    nodes: [node('node1').obj()],
    pvcs: [makePVC('pvc-a', 'no-provisioner').obj()],
    filter: [uu(BIND_CONFLICT)],
  },
  {
    name: "allowedTopologies: a node without the class's topology label cannot provision",
    pod: podWithClaims('pod-a', 'pvc-a'),
    nodes: [node('node1').label('key1', 'value1').obj(), node('node2').label('key1', 'other').obj()],
    pvcs: [makePVC('pvc-a', 'topology-sc').obj()],
    filter: [null, uu(BIND_CONFLICT)],
  },
  {
    name: 'a claim whose selected node is another node is a bind conflict',
    pod: podWithClaims('pod-a', 'pvc-a'),
    nodes: [node('node1').obj(), node('node2').obj()],
    pvcs: [makePVC('pvc-a', 'wait-provisioned').annotation('volume.kubernetes.io/selected-node', 'node2').obj()],
    filter: [uu(BIND_CONFLICT), null],
  },
  {
    name: 'capacity published: enough on the node passes, too little or none reaching it is not enough space',
    pod: podWithClaims('pod-a', 'pvc-a'),
    nodes: [node('node1').label('pool', 'a').obj(), node('node2').label('pool', 'b').obj(), node('node3').obj()],
    pvcs: [makePVC('pvc-a', 'wait-provisioned').request('10Gi').obj()],
    drivers: [driver],
    capacities: [capacity('c1', '20Gi', { pool: 'a' }), capacity('c2', '5Gi', { pool: 'b' })],
    filter: [null, uu(NOT_ENOUGH_SPACE), uu(NOT_ENOUGH_SPACE)],
  },
  {
    name: 'a PV pre-bound to the claim is used if its node affinity holds, and nothing else is',
    pod: podWithClaims('pod-a', 'pvc-a'),
    nodes: [node('node1').obj(), node('node2').obj()],
    pvcs: [makePVC('pvc-a', 'wait-sc').obj()],
    pvs: [
      makePV('pv-pre', 'wait-sc').claimRef('pvc-a').onNode('node1').obj(),
      ...localPVs('node2', 'wait-sc', '', 'pv-free'),
    ],
    filter: [null, uu(BIND_CONFLICT)],
  },
  {
    name: 'a PV claimed by another claim, or not Available, or too small, is not matched',
    pod: podWithClaims('pod-a', 'pvc-a'),
    nodes: [node('node1').obj()],
    pvcs: [makePVC('pvc-a', 'wait-sc').request('10Gi').obj()],
    pvs: [
      makePV('pv-other', 'wait-sc').capacity('20Gi').claimRef('pvc-other').obj(),
      makePV('pv-released', 'wait-sc').capacity('20Gi').phase('Released').obj(),
      makePV('pv-small', 'wait-sc').capacity('5Gi').obj(),
    ],
    filter: [uu(BIND_CONFLICT)],
  },
];

function sceneOf(c: Case & { readonly drivers?: readonly object[]; readonly capacities?: readonly object[] }) {
  return {
    nodes: c.nodes,
    storage: {
      persistentVolumeClaims: c.pvcs ?? [],
      persistentVolumes: c.pvs ?? [],
      storageClasses: c.classes ?? [immediateSC, waitSC, waitHDDSC, waitProvisioned, topologyClass, noProvisioner],
      csiDrivers: (c.drivers ?? []) as never[],
      csiStorageCapacities: (c.capacities ?? []) as never[],
    },
  };
}

function check(c: Case & { readonly drivers?: readonly object[]; readonly capacities?: readonly object[] }) {
  const scene = sceneOf(c);
  const state = volumePreFilter(scene, c.pod);
  if (c.skip) expect(state).toBeNull();
  else expect(state).not.toBeNull();
  if (c.preFilter) {
    expect(state!.rejection).toEqual(c.preFilter);
    return;
  }
  expect(state?.rejection ?? null).toBeNull();
  const verdicts = c.nodes.map((n) => volumeVerdict('VolumeBinding', scene, c.pod, n.metadata!.name!));
  expect(verdicts).toEqual(c.filter);
}

describe('VolumeBinding PreFilter and Filter', () => {
  it.each(cases)('$name', check);
});

describe('VolumeBinding provisioning, capacity and matching', () => {
  it.each(provisioning)('$name', check);
});

describe('VolumeBinding Filter alone', () => {
  it('pv not found: node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)', () => {
    const snapshot = makeSnapshot({ persistentVolumeClaims: [makePVC('pvc-a', 'wait-sc').boundTo('pv-a').obj()] });
    const pre = volumeBindingPreFilter(
      replacementClaims(podWithClaims('pod-a', 'pvc-a'), volumeCatalog(snapshot)),
      volumeCatalog(snapshot),
    );
    if (!('state' in pre)) throw new Error('PreFilter did not pass');
    expect(volumeBinding(pre.state, new NodeInfo(node('node-a').obj()))).toEqual(uu(PV_NOT_EXIST));
  });
});

describe('VolumeBinding when the snapshot did not read a kind', () => {
  const pod = podWithClaims('pod-a', 'pvc-a');
  const nodes = [node('node-a').obj()];

  it('claims not read: unknown, and the filter passes', () => {
    const state = volumePreFilter({ nodes, storage: { kinds: ['Node', 'Pod'] } }, pod);
    expect(state?.unknown).toBe(
      "PersistentVolumeClaims were not read, so whether a node can mount the replacement's claims is not known",
    );
    expect(volumeVerdict('VolumeBinding', { nodes, storage: { kinds: ['Node', 'Pod'] } }, pod, 'node-a')).toBeNull();
  });

  it('a bound claim whose volumes were not read: unknown', () => {
    const storage = {
      kinds: ['Node', 'Pod', 'PersistentVolumeClaim', 'StorageClass'] as const,
      persistentVolumeClaims: [makePVC('pvc-a', 'wait-sc').boundTo('pv-a').obj()],
    };
    expect(volumePreFilter({ nodes, storage: { ...storage, kinds: [...storage.kinds] } }, pod)?.unknown).toMatch(
      /^PersistentVolumes were not read/,
    );
  });

  it('CSINode limits are another plugin: a bound claim with every kind read is known', () => {
    const storage = {
      persistentVolumeClaims: [makePVC('pvc-a', 'wait-sc').boundTo('pv-a').obj()],
      persistentVolumes: [makePV('pv-a', 'wait-sc').obj()],
      csiNodes: [csiNode('node-a', {})],
    };
    expect(volumePreFilter({ nodes, storage }, pod)?.unknown).toBeNull();
  });
});
