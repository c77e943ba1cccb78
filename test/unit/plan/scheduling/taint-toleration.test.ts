import type { V1Taint, V1Toleration } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { FilterResult } from '../../../../src/plan/scheduling/framework.js';
import { makeNode, makePod } from '../../builders.js';
import { runPlugin } from './harness.js';

interface Case {
  readonly name: string;
  readonly taints: readonly V1Taint[];
  readonly tolerations: readonly V1Toleration[];
  readonly want: FilterResult;
}

const UNTOLERATED: FilterResult = {
  code: 'UnschedulableAndUnresolvable',
  reasons: ['node(s) had untolerated taint(s)'],
};
const dedicated = (value: string): V1Taint => ({ key: 'dedicated', value, effect: 'NoSchedule' });

const cases: Case[] = [
  {
    name: "A pod having no tolerations can't be scheduled onto a node with nonempty taints",
    taints: [dedicated('user1')],
    tolerations: [],
    want: UNTOLERATED,
  },
  {
    name: 'A pod which can be scheduled on a dedicated node assigned to user1 with effect NoSchedule',
    taints: [dedicated('user1')],
    tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'user1', effect: 'NoSchedule' }],
    want: null,
  },
  {
    name: "A pod which can't be scheduled on a dedicated node assigned to user2 with effect NoSchedule",
    taints: [dedicated('user1')],
    tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }],
    want: UNTOLERATED,
  },
  {
    name: 'A pod can be scheduled onto the node, with a toleration uses operator Exists that tolerates the taints on the node',
    taints: [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }],
    tolerations: [{ key: 'foo', operator: 'Exists', effect: 'NoSchedule' }],
    want: null,
  },
  {
    name: 'A pod has multiple tolerations, node has multiple taints, all the taints are tolerated, pod can be scheduled onto the node',
    taints: [dedicated('user2'), { key: 'foo', value: 'bar', effect: 'NoExecute' }],
    tolerations: [
      { key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' },
      { key: 'foo', operator: 'Exists', effect: 'NoExecute' },
    ],
    want: null,
  },
  {
    name: "A pod has a toleration that keys and values match the taint on the node, but (non-empty) effect doesn't match, can't be scheduled onto the node",
    taints: [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }],
    tolerations: [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' }],
    want: UNTOLERATED,
  },
  {
    name: 'The pod has a toleration that keys and values match the taint on the node, the effect of toleration is empty, and the effect of taint is NoSchedule. Pod can be scheduled onto the node',
    taints: [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }],
    tolerations: [{ key: 'foo', operator: 'Equal', value: 'bar' }],
    want: null,
  },
  {
    name: "The pod has a toleration that key and value don't match the taint on the node, but the effect of taint on node is PreferNoSchedule. Pod can be scheduled onto the node",
    taints: [{ key: 'dedicated', value: 'user1', effect: 'PreferNoSchedule' }],
    tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }],
    want: null,
  },
  {
    name: 'The pod has no toleration, but the effect of taint on node is PreferNoSchedule. Pod can be scheduled onto the node',
    taints: [{ key: 'dedicated', value: 'user1', effect: 'PreferNoSchedule' }],
    tolerations: [],
    want: null,
  },
  {
    name: "A NoExecute taint keeps out a pod that doesn't tolerate it",
    taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }],
    tolerations: [],
    want: UNTOLERATED,
  },
  {
    name: 'An empty key with operator Exists tolerates every taint',
    taints: [dedicated('user1'), { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }],
    tolerations: [{ operator: 'Exists' }],
    want: null,
  },
  {
    name: 'Operator Equal with no value tolerates a taint without a value',
    taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }],
    tolerations: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }],
    want: null,
  },
  {
    name: 'Operator Gt never matches while TaintTolerationComparisonOperators is alpha and off (1.37)',
    taints: [{ key: 'tier', value: '5', effect: 'NoSchedule' }],
    tolerations: [{ key: 'tier', operator: 'Gt', value: '3', effect: 'NoSchedule' }],
    want: UNTOLERATED,
  },
];

describe('TaintToleration Filter', () => {
  it.each(cases)('$name', ({ taints, tolerations, want }) => {
    let node = makeNode().name('n1');
    for (const t of taints) node = node.taint(t.key, t.effect as 'NoSchedule', t.value);
    let pod = makePod().name('incoming');
    for (const t of tolerations) pod = pod.toleration(t);
    expect(runPlugin('TaintToleration', { nodes: [node.obj()] }, pod.obj(), 'n1')).toEqual(want);
  });
});

// kube-scheduler named the taint in its reason until 1.34.1; 1.34.2 and 1.35 on say "taint(s)".
describe('TaintToleration reason by the server version', () => {
  const node = makeNode().name('n1').taint('dedicated', 'NoSchedule', 'user1').obj();
  const bare = makeNode().name('n2').taint('node-role.kubernetes.io/control-plane', 'NoSchedule').obj();
  it.each([
    ['v1.34.0', 'n1', 'node(s) had untolerated taint {dedicated: user1}'],
    ['v1.34.1', 'n2', 'node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }'],
    ['v1.34.2', 'n1', 'node(s) had untolerated taint(s)'],
    ['v1.35.0', 'n1', 'node(s) had untolerated taint(s)'],
    ['v1.37.2', 'n1', 'node(s) had untolerated taint(s)'],
  ])('on %s', (serverVersion, nodeName, reason) => {
    const scene = { nodes: [node, bare], storage: { serverVersion } };
    expect(runPlugin('TaintToleration', scene, makePod().name('incoming').obj(), nodeName)).toEqual({
      code: 'UnschedulableAndUnresolvable',
      reasons: [reason],
    });
  });
});
