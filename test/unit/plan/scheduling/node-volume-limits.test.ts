import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { FilterResult } from '../../../../src/plan/scheduling/framework.js';
import { makeNode } from '../../builders.js';
import type { Scene } from './harness.js';
import { csiNode, makePV, makePVC, podWithClaims, storageClass, volumeVerdict } from './volume-fixtures.js';

const EBS = 'ebs.csi.aws.com';
const GCE = 'pd.csi.storage.gke.io';
const EXCEEDED: FilterResult = { code: 'Unschedulable', reasons: ['node(s) exceed max volume count'] };
const ebsClass = storageClass('csi-sc', 'WaitForFirstConsumer', EBS);

/** Claims csi-ebs-N bound to PVs with handle vol-N of the EBS driver, and csi-gce-N of the GCE one. */
function boundCsi(driver: string, prefix: string, count: number) {
  const claims = [];
  const volumes = [];
  for (let i = 0; i < count; i++) {
    claims.push(makePVC(`${prefix}-${i}`, 'csi-sc').boundTo(`pv-${prefix}-${i}`).obj());
    volumes.push(makePV(`pv-${prefix}-${i}`, 'csi-sc').phase('Bound').csi(driver, `${prefix}-vol-${i}`).obj());
  }
  return { claims, volumes };
}
const ebs = boundCsi(EBS, 'csi-ebs', 6);
const gce = boundCsi(GCE, 'csi-gce', 2);
const storage = {
  persistentVolumeClaims: [...ebs.claims, ...gce.claims, makePVC('pending-ebs', 'csi-sc').obj()],
  persistentVolumes: [...ebs.volumes, ...gce.volumes],
  storageClasses: [ebsClass],
};
const node1 = (): V1Node => makeNode().name('node-1').obj();
const existing = (...claims: string[]): V1Pod => {
  const pod = podWithClaims('existing', ...claims);
  pod.spec!.nodeName = 'node-1';
  return pod;
};
const scene = (limits: Record<string, number | undefined> | null, pods: V1Pod[] = []): Scene => ({
  nodes: [node1()],
  pods,
  storage: { ...storage, csiNodes: limits === null ? [] : [csiNode('node-1', limits)] },
});

// TestCSILimits (pkg/scheduler/framework/plugins/nodevolumelimits/csi_test.go), CSI drivers only.
const cases: ReadonlyArray<{ name: string; scene: Scene; incoming: string[]; want: FilterResult }> = [
  {
    name: 'fits when node volume limit >= new pods CSI volume',
    scene: scene({ [EBS]: 4 }, [existing('csi-ebs-0', 'csi-ebs-1')]),
    incoming: ['csi-ebs-2', 'csi-ebs-3'],
    want: null,
  },
  {
    name: "doesn't when node volume limit <= pods CSI volume",
    scene: scene({ [EBS]: 2 }, [existing('csi-ebs-0', 'csi-ebs-1')]),
    incoming: ['csi-ebs-2', 'csi-ebs-3'],
    want: EXCEEDED,
  },
  {
    name: 'should when driver does not support volume limits',
    scene: scene({ [EBS]: undefined }, [existing('csi-ebs-0', 'csi-ebs-1')]),
    incoming: ['csi-ebs-2', 'csi-ebs-3'],
    want: null,
  },
  {
    name: 'should count pending PVCs if the PV is not bound',
    scene: scene({ [EBS]: 2 }, [existing('csi-ebs-0', 'pending-ebs')]),
    incoming: ['csi-ebs-2'],
    want: EXCEEDED,
  },
  {
    name: 'should count the same volume once: a claim shared with a pod on the node',
    scene: scene({ [EBS]: 2 }, [existing('csi-ebs-0', 'csi-ebs-1')]),
    incoming: ['csi-ebs-1'],
    want: null,
  },
  {
    name: 'limits are per driver: another driver at its limit does not count',
    scene: scene({ [EBS]: 2, [GCE]: 1 }, [existing('csi-gce-0')]),
    incoming: ['csi-ebs-0', 'csi-ebs-1'],
    want: null,
  },
  {
    name: 'a node without CSINode and without attach limits in its allocatable takes any number',
    scene: scene(null, [existing('csi-ebs-0', 'csi-ebs-1')]),
    incoming: ['csi-ebs-2', 'csi-ebs-3', 'csi-ebs-4'],
    want: null,
  },
];

describe('NodeVolumeLimits Filter (CSI)', () => {
  it.each(cases)('$name', ({ scene: s, incoming, want }) => {
    expect(volumeVerdict('NodeVolumeLimits', s, podWithClaims('incoming', ...incoming), 'node-1')).toEqual(want);
  });

  it("the node's legacy allocatable attachable-volumes-csi-<driver> is a limit when there is no CSINode", () => {
    const legacy = node1();
    legacy.status!.allocatable = { ...legacy.status!.allocatable, [`attachable-volumes-csi-${EBS}`]: '2' };
    const s: Scene = { ...scene(null, [existing('csi-ebs-0', 'csi-ebs-1')]), nodes: [legacy] };
    expect(volumeVerdict('NodeVolumeLimits', s, podWithClaims('incoming', 'csi-ebs-2'), 'node-1')).toEqual(EXCEEDED);
  });
});
