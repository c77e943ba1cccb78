import type { V1Node, V1Toleration } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { FilterResult } from '../../../../src/plan/scheduling/framework.js';
import { makeNode, makePod } from '../../builders.js';
import { runPlugin } from './harness.js';

interface Case {
  readonly name: string;
  readonly node: V1Node;
  readonly drained?: boolean;
  readonly tolerations?: readonly V1Toleration[];
  readonly want: FilterResult;
}

const UNSCHEDULABLE: FilterResult = { code: 'UnschedulableAndUnresolvable', reasons: ['node(s) were unschedulable'] };
const cordoned = () => makeNode().name('n1').cordoned().obj();

const cases: Case[] = [
  { name: 'A schedulable node admits a pod without tolerations', node: makeNode().name('n1').obj(), want: null },
  {
    name: "A pod without tolerations can't be scheduled onto an unschedulable node",
    node: cordoned(),
    want: UNSCHEDULABLE,
  },
  {
    name: 'A pod that tolerates node.kubernetes.io/unschedulable:NoSchedule can be scheduled onto an unschedulable node',
    node: cordoned(),
    tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }],
    want: null,
  },
  {
    name: 'A pod with an empty-key Exists toleration tolerates the cordon',
    node: cordoned(),
    tolerations: [{ operator: 'Exists' }],
    want: null,
  },
  {
    name: 'A toleration for the unschedulable key with effect NoExecute does not tolerate the cordon',
    node: cordoned(),
    tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoExecute' }],
    want: UNSCHEDULABLE,
  },
  {
    name: 'spec.unschedulable alone rejects, even before the node lifecycle controller adds the taint',
    node: { ...makeNode().name('n1').obj(), spec: { unschedulable: true } },
    want: UNSCHEDULABLE,
  },
  { name: 'A drained node is seen as cordoned', node: makeNode().name('n1').obj(), drained: true, want: UNSCHEDULABLE },
];

describe('NodeUnschedulable Filter', () => {
  it.each(cases)('$name', ({ node, drained, tolerations, want }) => {
    let pod = makePod().name('incoming');
    for (const t of tolerations ?? []) pod = pod.toleration(t);
    expect(runPlugin('NodeUnschedulable', { nodes: [node], drained: drained ? ['n1'] : [] }, pod.obj(), 'n1')).toEqual(
      want,
    );
  });
});
