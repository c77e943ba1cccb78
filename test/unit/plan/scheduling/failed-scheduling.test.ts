import { describe, expect, it } from 'vitest';
import {
  failedSchedulingMessage,
  type NodeRejected,
  preemptionFailure,
} from '../../../../src/plan/scheduling/failed-scheduling.js';
import { type Rejection, unresolvable, unschedulable } from '../../../../src/plan/scheduling/framework.js';
import { NodeInfo } from '../../../../src/plan/scheduling/node-info.js';
import { makeNode } from '../../builders.js';

function rejectedNode(name: string, rejection: Rejection): NodeRejected {
  return { node: new NodeInfo(makeNode().name(name).obj()), rejection };
}
const cpu = unschedulable('Insufficient cpu');
const taint = unresolvable('node(s) had untolerated taint(s)');
const noVictims = unresolvable('No preemption victims found for incoming pod');

describe('failedSchedulingMessage', () => {
  it('sorts the "<count> <reason>" entries as strings, so 10 comes before 2', () => {
    const cpuNodes = Array.from({ length: 10 }, (_, i) => rejectedNode(`cpu-${i}`, cpu));
    const rejected = [...cpuNodes, rejectedNode('t1', taint), rejectedNode('t2', taint)];
    const tried = cpuNodes.map((r) => ({ ...r, rejection: noVictims }));
    expect(failedSchedulingMessage(12, rejected, preemptionFailure(12, tried))).toBe(
      '0/12 nodes are available: 10 Insufficient cpu, 2 node(s) had untolerated taint(s).' +
        ' preemption: 0/12 nodes are available: 10 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.',
    );
  });

  it('counts a node once under each of its reasons', () => {
    const rejected = [rejectedNode('n1', unschedulable('Insufficient cpu', 'Insufficient memory'))];
    expect(
      failedSchedulingMessage(1, rejected, preemptionFailure(1, [{ ...rejected[0]!, rejection: noVictims }])),
    ).toBe(
      '0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient memory.' +
        ' preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
    );
  });

  it('says preemption is not helpful on a node it did not try (rejected as unresolvable)', () => {
    const rejected = [rejectedNode('n1', taint), rejectedNode('n2', unresolvable('node(s) were unschedulable'))];
    expect(failedSchedulingMessage(2, rejected, preemptionFailure(2, []))).toBe(
      '0/2 nodes are available: 1 node(s) had untolerated taint(s), 1 node(s) were unschedulable.' +
        ' preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
    );
  });

  it('says a pod with preemptionPolicy Never is not eligible to preempt', () => {
    expect(failedSchedulingMessage(1, [rejectedNode('n1', cpu)], preemptionFailure(1, [], true))).toBe(
      '0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.',
    );
  });

  it("counts a tried node under the filter's reason when the pod does not fit even without the lower-priority pods", () => {
    const tried = [rejectedNode('n1', cpu)];
    expect(preemptionFailure(2, tried)).toBe(
      'preemption: 0/2 nodes are available: 1 Insufficient cpu, 1 Preemption is not helpful for scheduling.',
    );
  });
});
