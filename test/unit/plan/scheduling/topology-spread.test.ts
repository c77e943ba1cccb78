import type { V1Node, V1Pod, V1TopologySpreadConstraint } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { FilterResult } from '../../../../src/plan/scheduling/framework.js';
import { podInfo } from '../../../../src/plan/scheduling/pod-info.js';
import { podTopologySpreadPlugin } from '../../../../src/plan/scheduling/plugins/topology-spread.js';
import { makeNode, makePod, makeSnapshot } from '../../builders.js';
import { onNodes, type PluginCase, runPlugin, type Scene } from './harness.js';
import { daemonPods, helloNodes, helloPod, helloPods } from './hello-topology.js';

const SKEW: FilterResult = { code: 'Unschedulable', reasons: ["node(s) didn't match pod topology spread constraints"] };
const MISSING_LABEL: FilterResult = {
  code: 'UnschedulableAndUnresolvable',
  reasons: ["node(s) didn't match pod topology spread constraints (missing required label)"],
};
const ZONE = 'topology.kubernetes.io/zone';

const zoned = (name: string, zone?: string, extra: Record<string, string> = {}) => {
  let b = makeNode().name(name);
  if (zone) b = b.label(ZONE, zone);
  for (const [k, v] of Object.entries(extra)) b = b.label(k, v);
  return b.obj();
};
const web = (name: string, node?: string, labels: Record<string, string> = {}) => {
  const b = makePod().name(name).label('app', 'web').labels(labels);
  return (node ? b.node(node) : b).obj();
};
/** An incoming web pod with one DoNotSchedule constraint (selector app=web unless given). */
const spreading = (key: string, extra: Partial<V1TopologySpreadConstraint> = {}, labels: Record<string, string> = {}) =>
  makePod().name('incoming').label('app', 'web').spread(1, key, extra).labels(labels).obj();

const threeZones: V1Node[] = [zoned('a1', 'a'), zoned('b1', 'b'), zoned('c1', 'c')];

const helloDrain = (policy?: 'Honor') => {
  const hello = helloPods(policy);
  return {
    nodes: helloNodes(),
    pods: [...hello, ...daemonPods(['k8s-master-1', 'k8s-node-1', 'k8s-node-2'])],
    drained: ['k8s-node-1'],
    evicted: hello.filter((p) => p.spec?.nodeName === 'k8s-node-1'),
  };
};

const twoTwoOne: Scene = {
  nodes: threeZones,
  pods: [web('w1', 'a1'), web('w2', 'a1'), web('w3', 'b1'), web('w4', 'b1'), web('w5', 'c1')],
};
const oneEachInTwoZones: Scene = {
  nodes: [zoned('a1', 'a'), zoned('b1', 'b')],
  pods: [web('w1', 'a1'), web('w2', 'b1')],
};
const webPool: Scene = {
  nodes: [zoned('a1', 'a', { pool: 'web' }), zoned('b1', 'b', { pool: 'batch' })],
  pods: [web('w1', 'a1')],
};
const inWebPool = (extra: Partial<V1TopologySpreadConstraint> = {}) =>
  makePod().name('incoming').label('app', 'web').nodeSelector({ pool: 'web' }).spread(1, ZONE, extra).obj();
const oldRevisionOnN1: Scene = {
  nodes: [zoned('n1'), zoned('n2')],
  pods: [web('old-1', 'n1', { 'pod-template-hash': 'v1' }), web('old-2', 'n1', { 'pod-template-hash': 'v1' })],
};
const newRevision = (extra: Partial<V1TopologySpreadConstraint> = {}) =>
  spreading('kubernetes.io/hostname', extra, { 'pod-template-hash': 'v2' });
const threeOnN1: Scene = {
  nodes: [zoned('n1'), zoned('n2')],
  pods: [web('w1', 'n1'), web('w2', 'n1'), web('w3', 'n1')],
};
const byHost = (extra: Partial<V1TopologySpreadConstraint> = {}) => spreading('kubernetes.io/hostname', extra);

const cases: PluginCase[] = [
  ...onNodes(helloDrain('Honor'), helloPod('hello-a', 'k8s-node-1', 'Honor'), [
    [
      'nodeTaintsPolicy Honor: the tainted control plane and the cordoned node are not domains, so k8s-node-2 is the global minimum',
      'k8s-node-2',
      null,
    ],
  ]),
  ...onNodes(helloDrain(), helloPod('hello-a', 'k8s-node-1'), [
    [
      'nodeTaintsPolicy Ignore: the tainted control plane and the cordoned node still count as domains with 0 pods, so k8s-node-2 is over the skew',
      'k8s-node-2',
      SKEW,
    ],
  ]),
  ...onNodes(twoTwoOne, spreading(ZONE), [
    ['Zones holding [2, 2, 1] with maxSkew 1 refuse a zone holding 2', 'a1', SKEW],
    ['Zones holding [2, 2, 1] with maxSkew 1 admit the zone holding 1', 'c1', null],
  ]),
  ...onNodes(oneEachInTwoZones, spreading(ZONE, { minDomains: 3 }), [
    ['minDomains: with fewer eligible domains than minDomains the global minimum is 0', 'a1', SKEW],
  ]),
  ...onNodes(oneEachInTwoZones, spreading(ZONE, { minDomains: 2 }), [
    ['minDomains has no effect once there are that many eligible domains', 'a1', null],
  ]),
  ...onNodes(webPool, inWebPool(), [
    ["nodeAffinityPolicy Honor (the default): nodes outside the pod's nodeSelector are not domains", 'a1', null],
  ]),
  ...onNodes(webPool, inWebPool({ nodeAffinityPolicy: 'Ignore' }), [
    [
      "nodeAffinityPolicy Ignore: nodes outside the pod's nodeSelector are domains too and pin the minimum at 0",
      'a1',
      SKEW,
    ],
  ]),
  ...onNodes(oldRevisionOnN1, newRevision({ matchLabelKeys: ['pod-template-hash'] }), [
    ['matchLabelKeys [pod-template-hash]: pods of the old revision are not counted', 'n1', null],
  ]),
  ...onNodes(oldRevisionOnN1, newRevision(), [
    ['Without matchLabelKeys the pods of the old revision are counted', 'n1', SKEW],
  ]),
  ...onNodes({ nodes: [zoned('a1', 'a'), zoned('nolabel')] }, spreading(ZONE), [
    ['A node without the topology key is rejected as missing the required label', 'nolabel', MISSING_LABEL],
  ]),
  ...onNodes(
    {
      nodes: [zoned('n1'), zoned('n2')],
      pods: [makePod().name('w1').label('app', 'web').node('n1').deleting(1_700_000_000).obj()],
    },
    byHost(),
    [['Terminating pods are not counted', 'n1', null]],
  ),
  ...onNodes({ nodes: [zoned('n1'), zoned('n2')], pods: [web('w1', 'n1')], evicted: [web('w1', 'n1')] }, byHost(), [
    ['Pods evicted by the simulation are terminating and not counted', 'n1', null],
  ]),
  ...onNodes(
    {
      nodes: [zoned('n1'), zoned('n2')],
      pods: [makePod().name('w1').ns('other').label('app', 'web').node('n1').obj()],
    },
    byHost(),
    [['Pods of another namespace are not counted', 'n1', null]],
  ),
  ...onNodes(
    { nodes: [zoned('a1', 'a'), zoned('b1')], pods: [web('w1', 'a1')] },
    makePod().name('incoming').label('app', 'web').spread(1, 'kubernetes.io/hostname').spread(5, ZONE).obj(),
    [['A node lacking the key of another constraint is no domain for any constraint', 'a1', null]],
  ),
  ...onNodes(threeOnN1, byHost(), [['A node over the skew is refused', 'n1', SKEW]]),
  ...onNodes(threeOnN1, byHost({ labelSelector: {} }), [
    ['labelSelector {} counts no pod in 1.37 (countPodsMatchSelector returns 0 for an Empty selector)', 'n1', null],
  ]),
  ...onNodes(threeOnN1, byHost({ labelSelector: undefined }), [
    ['An unset labelSelector selects nothing and never rejects', 'n1', null],
  ]),
  ...onNodes(threeOnN1, byHost({ whenUnsatisfiable: 'ScheduleAnyway' }), [
    ['ScheduleAnyway constraints never filter', 'n1', null],
  ]),
  ...onNodes(threeOnN1, web('incoming'), [
    ['A pod without constraints gets the system defaults, which are ScheduleAnyway and never filter', 'n1', null],
  ]),
];

describe('PodTopologySpread Filter', () => {
  it.each(cases)('$name', ({ scene, incoming, node, want }) => {
    expect(runPlugin('PodTopologySpread', scene, incoming, node)).toEqual(want);
  });
});

describe('PodTopologySpread countsWhileRunning', () => {
  const snapshot = makeSnapshot({});
  const counts = (pod: V1Pod) => podTopologySpreadPlugin.countsWhileRunning!(podInfo(pod, snapshot));

  it('tests the pods a DoNotSchedule constraint selects in its own namespace', () => {
    const test = counts(spreading(ZONE))!;
    expect(test('default', { app: 'web' })).toBe(true);
    expect(test('default', { app: 'db' })).toBe(false);
    expect(test('shop', { app: 'web' })).toBe(false);
  });

  it('counts no pod for a pod whose constraints only score', () => {
    expect(counts(spreading(ZONE, { whenUnsatisfiable: 'ScheduleAnyway' }))).toBeNull();
  });
});
