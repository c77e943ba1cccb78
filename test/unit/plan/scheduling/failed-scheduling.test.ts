import { describe, expect, it } from 'vitest';
import { failedSchedulingMessage, type NodeRejected } from '../../../../src/plan/scheduling/failed-scheduling.js';
import { type Rejection, unresolvable, unschedulable } from '../../../../src/plan/scheduling/framework.js';
import { NodeInfo } from '../../../../src/plan/scheduling/node-info.js';
import { podInfo } from '../../../../src/plan/scheduling/pod-info.js';
import { makeNode, makePod, makeSnapshot } from '../../builders.js';

/** A node holding one pod of the given priority (none when undefined). */
function rejectedNode(name: string, rejection: Rejection, podPriority?: number): NodeRejected {
  const node = new NodeInfo(makeNode().name(name).obj());
  if (podPriority !== undefined) node.addPod({ requests: {}, hostPorts: [], priority: podPriority });
  return { node, rejection };
}
const incoming = (priority = 0, preemptionPolicy?: string) => {
  const pod = makePod().name('web').priority(priority).obj();
  if (preemptionPolicy) pod.spec!.preemptionPolicy = preemptionPolicy;
  return podInfo(pod, makeSnapshot());
};
const cpu = unschedulable('Insufficient cpu');
const taint = unresolvable('node(s) had untolerated taint(s)');

describe('failedSchedulingMessage', () => {
  it('sorts the "<count> <reason>" entries as strings, so 10 comes before 2', () => {
    const rejected = [
      ...Array.from({ length: 10 }, (_, i) => rejectedNode(`cpu-${i}`, cpu, 0)),
      rejectedNode('t1', taint),
      rejectedNode('t2', taint),
    ];
    expect(failedSchedulingMessage(incoming(), 12, rejected)).toBe(
      '0/12 nodes are available: 10 Insufficient cpu, 2 node(s) had untolerated taint(s).' +
        ' preemption: 0/12 nodes are available: 10 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.',
    );
  });

  it('counts a node once under each of its reasons', () => {
    const rejected = [rejectedNode('n1', unschedulable('Insufficient cpu', 'Insufficient memory'))];
    expect(failedSchedulingMessage(incoming(), 1, rejected)).toBe(
      '0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient memory.' +
        ' preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
    );
  });

  it('says preemption is not helpful anywhere when every rejection is unresolvable', () => {
    const rejected = [rejectedNode('n1', taint), rejectedNode('n2', unresolvable('node(s) were unschedulable'))];
    expect(failedSchedulingMessage(incoming(), 2, rejected)).toBe(
      '0/2 nodes are available: 1 node(s) had untolerated taint(s), 1 node(s) were unschedulable.' +
        ' preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
    );
  });

  it('says a pod with preemptionPolicy Never is not eligible to preempt', () => {
    expect(failedSchedulingMessage(incoming(1000, 'Never'), 1, [rejectedNode('n1', cpu, 0)])).toBe(
      '0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.',
    );
  });

  it('does not pretend to know the outcome when lower-priority pods could be preempted', () => {
    expect(failedSchedulingMessage(incoming(1000), 2, [rejectedNode('n1', cpu, 0), rejectedNode('n2', taint, 0)])).toBe(
      '0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint(s).' +
        ' preemption: not simulated (1 node holds lower-priority pods that preemption might evict).',
    );
  });
});
