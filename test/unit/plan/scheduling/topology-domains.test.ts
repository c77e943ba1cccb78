import { describe, expect, it } from 'vitest';
import { SimulatedCluster } from '../../../../src/plan/scheduling/cluster-state.js';
import { topologyDomains } from '../../../../src/plan/scheduling/topology-domains.js';
import { makeIndex, makeNode } from '../../builders.js';

const ZONE = 'topology.kubernetes.io/zone';
const nodes = [
  makeNode().name('a1').label(ZONE, 'a').obj(),
  makeNode().name('b1').label(ZONE, 'b').obj(),
  makeNode().name('bare').obj(),
  makeNode().name('a2').label(ZONE, 'a').obj(),
];

describe('topologyDomains: the values of a node label, numbered once per cluster state', () => {
  it('gives each node the id of its value by position, -1 without the label, and the values in node order', () => {
    const cluster = new SimulatedCluster(makeIndex({ nodes }), new Set());
    const { ids, values } = topologyDomains(cluster, ZONE);
    const byName = Object.fromEntries(cluster.nodeInfos.map((n) => [n.name, ids[n.position]]));
    expect(values).toEqual(expect.arrayContaining(['a', 'b']));
    expect(values).toHaveLength(2);
    expect(byName.bare).toBe(-1);
    expect(byName.a1).toBe(byName.a2);
    expect(values[byName.a1!]).toBe('a');
    expect(values[byName.b1!]).toBe('b');
    // Every node is its own domain on the hostname label.
    const hosts = topologyDomains(cluster, 'kubernetes.io/hostname');
    expect(new Set(hosts.ids).size).toBe(nodes.length);
  });

  it('is shared by every simulation of the state: a drain cordons nodes, it changes no label', () => {
    const index = makeIndex({ nodes });
    const first = topologyDomains(new SimulatedCluster(index, new Set(['a1'])), ZONE);
    const second = topologyDomains(new SimulatedCluster(index, new Set(['b1'])), ZONE);
    expect(second).toBe(first);
    // Another state (another index) numbers its own nodes.
    expect(topologyDomains(new SimulatedCluster(makeIndex({ nodes }), new Set()), ZONE)).not.toBe(first);
  });
});
