import { describe, expect, it } from 'vitest';
import { SchedulingSimulation } from '../../../../src/plan/scheduling/simulation.js';
import { makeIndex } from '../../builders.js';
import { daemonPods, helloNodes, helloPods } from './hello-topology.js';

const ALL_NODES = ['k8s-master-1', 'k8s-node-1', 'k8s-node-2'];

function drainNode1(nodeTaintsPolicy?: 'Honor' | 'Ignore') {
  const hello = helloPods(nodeTaintsPolicy);
  const sim = new SchedulingSimulation(
    makeIndex({ nodes: helloNodes(), pods: [...hello, ...daemonPods(ALL_NODES)] }),
    new Set(['k8s-node-1']),
  );
  const evicted = hello.filter((p) => p.spec?.nodeName === 'k8s-node-1');
  for (const pod of evicted) sim.evict(pod);
  return evicted.map((pod) => sim.place(pod));
}

describe('SchedulingSimulation on the hello topology', () => {
  it('places both replacements on k8s-node-2 when nodeTaintsPolicy is Honor', () => {
    const [first, second] = drainNode1('Honor');
    expect(first).toMatchObject({ schedulable: true, placedOn: 'k8s-node-2', nodes: ['k8s-node-2'] });
    expect(second).toMatchObject({ schedulable: true, placedOn: 'k8s-node-2' });
    expect(first!.rejected).toEqual([
      { node: 'k8s-master-1', reasons: ['node(s) had untolerated taint(s)'] },
      { node: 'k8s-node-1', reasons: ['node(s) were unschedulable'] },
    ]);
  });

  it('refuses the replacement when nodeTaintsPolicy is Ignore: the tainted and the cordoned node pin the global minimum at 0', () => {
    const [first] = drainNode1();
    expect(first).toMatchObject({ schedulable: false, placedOn: null, nodes: [] });
    expect(first!.message).toBe(
      "0/3 nodes are available: 1 node(s) didn't match pod topology spread constraints, 1 node(s) had untolerated taint(s), 1 node(s) were unschedulable." +
        ' preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.',
    );
  });
});
