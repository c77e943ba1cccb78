import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { NodeInfo } from '../../../../src/plan/scheduling/node-info.js';
import { podInfo } from '../../../../src/plan/scheduling/pod-info.js';
import { pickNode } from '../../../../src/plan/scheduling/placement-score.js';
import { preFilter } from '../../../../src/plan/scheduling/registry.js';
import {
  balancedAllocationScore,
  leastAllocatedScore,
} from '../../../../src/plan/scheduling/plugins/resource-scores.js';
import { defaultNormalizeScore } from '../../../../src/plan/scheduling/plugins/score-normalize.js';
import { nonZeroRequests } from '../../../../src/plan/scheduling/pod-requests.js';
import { makeNode, makePod } from '../../builders.js';
import { clusterOf, type Scene } from './harness.js';

const incoming = (cpu: string, memory: string) => podInfo(makePod().name('incoming').requests(cpu, memory).obj());
const sized = (name: string, cpu: string, memory: string) =>
  new NodeInfo(makeNode().name(name).allocatable(cpu, memory).obj());

/** Where the simulation's scoring puts `pod` among the scene's nodes, and the nodes tied with it. */
function placement(scene: Scene, pod: V1Pod) {
  const cluster = clusterOf(scene);
  const info = podInfo(pod);
  const drained = new Set(scene.drained ?? []);
  const feasible = cluster.nodeInfos.filter((n) => !drained.has(n.name));
  const { node, tiedWith } = pickNode(info, feasible, preFilter(info, cluster), cluster);
  return { node: node?.name, tiedWith: tiedWith.map((n) => n.name) };
}

describe('NodeResourcesFit LeastAllocated and NodeResourcesBalancedAllocation (upstream noderesources tests)', () => {
  // "nothing scheduled, resources requested, differently sized nodes": 3000m/5000 on 4000m/10000 and 6000m/10000.
  const pod = incoming('3000m', '5000');
  it('scores (capacity − requested) × 100 / capacity per resource, averaged: 37 and 50', () => {
    expect(leastAllocatedScore(pod, sized('n1', '4000m', '10000'))).toBe(37);
    expect(leastAllocatedScore(pod, sized('n2', '6000m', '10000'))).toBe(50);
  });

  it('scores the balance of the cpu and memory fractions: 87 and 100', () => {
    expect(balancedAllocationScore(pod, sized('n1', '4000m', '10000'))).toBe(87);
    expect(balancedAllocationScore(pod, sized('n2', '6000m', '10000'))).toBe(100);
  });

  it('counts a container without requests at 100m and 200Mi for LeastAllocated only', () => {
    const bare = makePod().name('bare').obj();
    expect(nonZeroRequests(bare)).toEqual({ cpu: 100, memory: 200 * 1024 * 1024 });
    const node = sized('n1', '1000m', `${400 * 1024 * 1024}`);
    expect(leastAllocatedScore(podInfo(bare), node)).toBe(Math.trunc((90 + 50) / 2));
    expect(balancedAllocationScore(incoming('100m', '0'), node)).toBe(Math.trunc((1 - 0.1 / 2) * 100));
  });

  it('does not score a pod that requests neither cpu nor memory for balance ("nothing requested, skip in PreScore")', () => {
    const bare = podInfo(makePod().name('bare').obj());
    const busy = new NodeInfo(makeNode().name('busy').allocatable('4000m', '10000').obj());
    busy.addPod(incoming('3000m', '0'));
    expect(balancedAllocationScore(bare, sized('idle', '4000m', '10000'))).toBe(0);
    expect(balancedAllocationScore(bare, busy)).toBe(0);
  });
});

describe('DefaultNormalizeScore', () => {
  it('scales to the highest as 100, reversed when fewer is better; all zero gives 0, or 100 reversed', () => {
    expect(defaultNormalizeScore([0, 1, 3], false)).toEqual([0, 33, 100]);
    expect(defaultNormalizeScore([0, 1, 3], true)).toEqual([100, 67, 0]);
    expect(defaultNormalizeScore([0, 0], false)).toEqual([0, 0]);
    expect(defaultNormalizeScore([0, 0], true)).toEqual([100, 100]);
  });
});

describe('pickNode: the default profile’s weighted scores', () => {
  const zoned = (name: string, zone: string, cpu = '4') =>
    makeNode().name(name).label('topology.kubernetes.io/zone', zone).allocatable(cpu, '16Gi').obj();
  const web = (name: string, node: string) =>
    makePod().name(name).node(node).label('app', 'web').owner('ReplicaSet', 'web-abc').requests('200m', '64Mi');
  const replicaSet = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'web-abc', namespace: 'default', uid: 'rs-uid' },
    spec: { selector: { matchLabels: { app: 'web' } }, template: {} },
  };

  it('spreads a ReplicaSet’s replica by the system default constraints: the zone with fewer replicas wins over more room', () => {
    // zone-a holds two replicas and the largest node; zone-b one replica on a smaller node.
    const nodes = [zoned('a1', 'zone-a', '8'), zoned('a2', 'zone-a'), zoned('b1', 'zone-b', '3')];
    const pods = [web('w1', 'a1').obj(), web('w2', 'a2').obj(), web('w3', 'b1').obj()];
    const scene = { nodes, pods, storage: { replicaSets: [replicaSet] as never } };
    expect(placement(scene, web('new', '').obj())).toMatchObject({ node: 'b1' });
  });

  it('without a controller or Service selecting the pod, room decides', () => {
    const nodes = [zoned('a1', 'zone-a', '8'), zoned('a2', 'zone-a'), zoned('b1', 'zone-b', '3')];
    const pods = [web('w1', 'a1').obj(), web('w2', 'a2').obj(), web('w3', 'b1').obj()];
    expect(placement({ nodes, pods }, web('new', '').obj())).toMatchObject({ node: 'a1' });
  });

  it('takes the default selector from owners of the pod’s own namespace only: a Service there spreads it, a ReplicaSet elsewhere does not', () => {
    const nodes = [zoned('a1', 'zone-a', '8'), zoned('a2', 'zone-a'), zoned('b1', 'zone-b', '3')];
    const pods = [web('w1', 'a1').obj(), web('w2', 'a2').obj(), web('w3', 'b1').obj()];
    const elsewhere = { ...replicaSet, metadata: { ...replicaSet.metadata, namespace: 'other' } };
    const service = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'default' },
      spec: { selector: { app: 'web' } },
    };
    const other = { nodes, pods, storage: { replicaSets: [elsewhere] as never } };
    expect(placement(other, web('new', '').obj())).toMatchObject({ node: 'a1' });
    const served = { nodes, pods, storage: { replicaSets: [elsewhere] as never, services: [service] as never } };
    expect(placement(served, web('new', '').obj())).toMatchObject({ node: 'b1' });
  });

  it('takes the default selector from every owner that selects the pod: a ReplicaSet selecting by expressions alone, a Service by another label', () => {
    const nodes = [zoned('a1', 'zone-a', '8'), zoned('a2', 'zone-a'), zoned('b1', 'zone-b', '3')];
    const pods = [web('w1', 'a1').obj(), web('w2', 'a2').obj(), web('w3', 'b1').obj()];
    const byExpression = {
      ...replicaSet,
      spec: { selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] }, template: {} },
    };
    const service = (selector: Record<string, string>) => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'default' },
      spec: { selector },
    });
    const scene = (owners: object) => ({ nodes, pods, storage: owners as never });
    expect(placement(scene({ replicaSets: [byExpression] }), web('new', '').obj())).toMatchObject({ node: 'b1' });
    // The Service's first label is the pod's second.
    const tiered = web('new', '').label('tier', 'front').obj();
    const front = [web('w1', 'a1'), web('w2', 'a2'), web('w3', 'b1')].map((p) => p.label('tier', 'front').obj());
    const served = { nodes, pods: front, storage: { services: [service({ tier: 'front', app: 'web' })] } as never };
    expect(placement(served, tiered)).toMatchObject({ node: 'b1' });
    // A Service that needs a label the pod lacks does not select it: room decides.
    expect(placement(scene({ services: [service({ app: 'web', tier: 'back' })] }), tiered)).toMatchObject({
      node: 'a1',
    });
  });

  it('draws a pod to the zone of an existing pod whose required affinity selects it (hardPodAffinityWeight)', () => {
    const nodes = [zoned('a1', 'zone-a'), zoned('b1', 'zone-b')];
    const follower = makePod()
      .name('follower')
      .node('b1')
      .affinity({
        podAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { labelSelector: { matchLabels: { app: 'leader' } }, topologyKey: 'topology.kubernetes.io/zone' },
          ],
        },
      })
      .obj();
    const leader = makePod().name('leader').label('app', 'leader').requests('100m', '64Mi').obj();
    expect(placement({ nodes, pods: [follower] }, leader)).toEqual({ node: 'b1', tiedWith: [] });
  });

  it('names the nodes that score alike: kube-scheduler picks among them at random', () => {
    const nodes = [zoned('a1', 'zone-a'), zoned('b1', 'zone-b'), zoned('c1', 'zone-c')];
    const pod = makePod().name('alone').requests('100m', '64Mi').obj();
    expect(placement({ nodes }, pod)).toEqual({ node: 'a1', tiedWith: ['b1', 'c1'] });
  });
});
