import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { FilterResult } from '../../../../src/plan/scheduling/framework.js';
import { NodeInfo } from '../../../../src/plan/scheduling/node-info.js';
import { podInfo } from '../../../../src/plan/scheduling/pod-info.js';
import {
  nodeResourcesFit,
  nodeResourcesFitPlugin,
  nodeResourcesFitPreFilter,
} from '../../../../src/plan/scheduling/plugins/node-resources-fit.js';
import { leastAllocatedScore } from '../../../../src/plan/scheduling/plugins/resource-scores.js';
import { makeNode, makePod } from '../../builders.js';
import { runPlugin } from './harness.js';

interface Case {
  readonly name: string;
  readonly existing: readonly V1Pod[];
  readonly incoming: V1Pod;
  readonly want: FilterResult;
}

const node = () => makeNode().name('n1').allocatable('2', '4Gi', '3').obj();
const existing = (name: string, cpu: string, memory: string) =>
  makePod().name(name).node('n1').requests(cpu, memory).obj();
const incoming = (cpu?: string, memory?: string) => makePod().name('incoming').requests(cpu, memory).obj();

const cases: Case[] = [
  {
    name: 'A pod fits when its requests are within what is left',
    existing: [existing('a', '1', '1Gi')],
    incoming: incoming('1', '3Gi'),
    want: null,
  },
  {
    name: 'A pod asking for more cpu than is left gets "Insufficient cpu"',
    existing: [existing('a', '1500m', '1Gi')],
    incoming: incoming('600m', '1Gi'),
    want: { code: 'Unschedulable', reasons: ['Insufficient cpu'] },
  },
  {
    name: 'Every resource short of room is reported',
    existing: [existing('a', '1500m', '3Gi')],
    incoming: incoming('600m', '2Gi'),
    want: { code: 'Unschedulable', reasons: ['Insufficient cpu', 'Insufficient memory'] },
  },
  {
    name: "A request above the node's whole allocatable is unresolvable: evicting pods cannot help",
    existing: [],
    incoming: incoming('3', '1Gi'),
    want: { code: 'UnschedulableAndUnresolvable', reasons: ['Insufficient cpu'] },
  },
  {
    name: 'Terminating pods still hold their requests',
    existing: [makePod().name('t').node('n1').requests('1500m').deleting(1_700_000_000).obj()],
    incoming: incoming('600m'),
    want: { code: 'Unschedulable', reasons: ['Insufficient cpu'] },
  },
  {
    name: 'Succeeded and Failed pods hold nothing',
    existing: [
      makePod().name('done').node('n1').requests('2').phase('Succeeded').obj(),
      makePod().name('f').node('n1').phase('Failed').obj(),
    ],
    incoming: incoming('2'),
    want: null,
  },
  {
    name: 'A node at its pod limit is "Too many pods", even for a pod that requests nothing',
    existing: [existing('a', '0', '0'), existing('b', '0', '0'), existing('c', '0', '0')],
    incoming: incoming(),
    want: { code: 'Unschedulable', reasons: ['Too many pods'] },
  },
  {
    name: 'A pod without requests needs only a pod slot',
    existing: [existing('a', '2', '4Gi')],
    incoming: incoming(),
    want: null,
  },
];

describe('NodeResourcesFit Filter', () => {
  it.each(cases)('$name', ({ existing: pods, incoming: pod, want }) => {
    expect(runPlugin('NodeResourcesFit', { nodes: [node()], pods }, pod, 'n1')).toEqual(want);
  });

  it('checks extended resources against the allocatable the node advertises ("Insufficient <name>")', () => {
    const gpuNode = node();
    gpuNode.status!.allocatable = { ...gpuNode.status!.allocatable, 'example.com/gpu': '1' };
    const gpu = (name: string, on?: string) => {
      const b = makePod().name(name);
      const p = (on ? b.node(on) : b).obj();
      p.spec!.containers[0]!.resources = { requests: { 'example.com/gpu': '1' } };
      return p;
    };
    expect(runPlugin('NodeResourcesFit', { nodes: [gpuNode] }, gpu('incoming'), 'n1')).toBeNull();
    expect(
      runPlugin('NodeResourcesFit', { nodes: [gpuNode], pods: [gpu('holder', 'n1')] }, gpu('incoming'), 'n1'),
    ).toEqual({
      code: 'Unschedulable',
      reasons: ['Insufficient example.com/gpu'],
    });
  });

  it("counts an init container's peak and the RuntimeClass overhead in the incoming pod's request", () => {
    const pods = [existing('a', '1', '1Gi')];
    const withInit = incoming('100m', '64Mi');
    withInit.spec!.initContainers = [{ name: 'migrate', image: 'x', resources: { requests: { cpu: '1500m' } } }];
    expect(runPlugin('NodeResourcesFit', { nodes: [node()], pods }, withInit, 'n1')).toEqual({
      code: 'Unschedulable',
      reasons: ['Insufficient cpu'],
    });
    const withOverhead = incoming('900m');
    withOverhead.spec!.overhead = { cpu: '200m' };
    expect(runPlugin('NodeResourcesFit', { nodes: [node()], pods }, withOverhead, 'n1')).toEqual({
      code: 'Unschedulable',
      reasons: ['Insufficient cpu'],
    });
  });
});

describe('NodeResourcesFit isRoomReason', () => {
  it.each(['Too many pods', 'Insufficient cpu', 'Insufficient nvidia.com/gpu'])('%s is for room', (reason) => {
    expect(nodeResourcesFitPlugin.isRoomReason!(reason)).toBe(true);
  });

  it('a reason of another filter is not', () => {
    expect(nodeResourcesFitPlugin.isRoomReason!('node(s) had untolerated taint(s)')).toBe(false);
  });
});

describe('NodeInfo views: what a placement commits or a preemption frees is checked on the view only', () => {
  const counts = (cpu: number, memory: number) => ({
    requests: { cpu, memory },
    nonZeroRequests: { cpu, memory },
    hostPorts: [],
  });
  const requests = (cpu: number, memory: number) =>
    nodeResourcesFitPreFilter(podInfo(incoming(`${cpu}m`, `${memory}`)));

  it('a view sees its own commit and its base does not; removing a pod frees its room on the view', () => {
    const base = new NodeInfo(node());
    base.addPod(counts(1500, 1024));
    const view = NodeInfo.viewOf(base, false);
    expect(nodeResourcesFit(requests(400, 1024), view)).toBeNull();
    view.addPod(counts(400, 1024));
    expect(nodeResourcesFit(requests(400, 1024), view)).toEqual({
      code: 'Unschedulable',
      reasons: ['Insufficient cpu'],
    });
    expect(nodeResourcesFit(requests(400, 1024), base)).toBeNull();
    expect(leastAllocatedScore(podInfo(incoming('100m', '0')), view)).toBeLessThan(
      leastAllocatedScore(podInfo(incoming('100m', '0')), base),
    );
    view.removePod(counts(1500, 1024));
    expect(nodeResourcesFit(requests(1500, 1024), view)).toBeNull();
    expect(view.requested).toEqual({ cpu: 400, memory: 1024 });
  });
});
