/**
 * The framework's CycleState: each plugin's PreFilter writes its own state, kept under the plugin, and
 * its Skip and Filter are given that state alone; the first PreFilter rejection, in the profile's
 * order, is the placement's (every node rejected with it).
 */
import { describe, expect, it } from 'vitest';
import { SimulatedCluster } from '../../../../src/plan/scheduling/cluster-state.js';
import { unresolvable } from '../../../../src/plan/scheduling/framework.js';
import { podInfo } from '../../../../src/plan/scheduling/pod-info.js';
import { nodeAffinityPlugin } from '../../../../src/plan/scheduling/plugins/node-affinity.js';
import { podTopologySpreadPlugin } from '../../../../src/plan/scheduling/plugins/topology-spread.js';
import { volumeBindingPlugin } from '../../../../src/plan/scheduling/plugins/volume-binding.js';
import { POD_FILTERS, preFilter } from '../../../../src/plan/scheduling/registry.js';
import { makeIndex, makeNode, makePod } from '../../builders.js';

const ZONE = 'topology.kubernetes.io/zone';
const nodes = [makeNode().name('a1').label(ZONE, 'a').obj(), makeNode().name('b1').label(ZONE, 'b').obj()];
const index = makeIndex({ nodes });
const cluster = () => new SimulatedCluster(index, new Set());

describe('CycleState', () => {
  it('keeps each PreFilter state under its plugin, and gives each pod filter its own', () => {
    const pod = podInfo(makePod().name('p').ns('default').label('app', 'web').spread(1, ZONE).obj(), index.snapshot);
    const state = preFilter(pod, cluster());
    expect(state.read(podTopologySpreadPlugin).constraints.map((c) => c.topologyKey)).toEqual([ZONE]);
    expect(state.read(nodeAffinityPlugin)(cluster().nodeInfo('a1')!)).toBe(true);
    expect(state.read(volumeBindingPlugin)).toBeNull();
    for (const { plugin, state: own } of state.podFilters) expect(own).toBe(state.read(plugin));
    // No claims, no host port: only the plugins the pod gives something to check run on every node.
    expect(state.podFilters.map((f) => f.plugin.name)).toEqual([
      'NodeResourcesFit',
      'PodTopologySpread',
      'InterPodAffinity',
    ]);
    expect(POD_FILTERS.length).toBeGreaterThan(state.podFilters.length);
  });

  it('the PreFilter rejection is the first in the profile order', () => {
    const pod = podInfo(
      makePod()
        .name('p')
        .ns('default')
        .volume({ name: 'data', persistentVolumeClaim: { claimName: 'missing' } })
        .obj(),
      index.snapshot,
    );
    const state = preFilter(pod, cluster());
    // VolumeRestrictions comes before VolumeBinding and VolumeZone, which would say the same.
    expect(state.rejection).toEqual(unresolvable('persistentvolumeclaim "missing" not found'));
  });
});
