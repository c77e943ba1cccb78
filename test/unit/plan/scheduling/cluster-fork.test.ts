/**
 * A fork of a simulation (SimulatedCluster.fork) places pods in another order from the moment it was
 * made: what the original commits afterwards must stay out of it, as what the fork commits stays out of
 * the original. WaveOrder keeps a fork from a round's start while the round's replacements are committed.
 */
import { describe, expect, it } from 'vitest';
import { SimulatedCluster } from '../../../../src/plan/scheduling/cluster-state.js';
import { podInfo } from '../../../../src/plan/scheduling/pod-info.js';
import { makeIndex, makeNode, makePod } from '../../builders.js';

const index = makeIndex({ nodes: [makeNode().name('n1').allocatable('4', '8Gi').obj()], pods: [] });
const replacement = (name: string) => podInfo(makePod().name(name).requests('1', '1Gi').obj(), index.snapshot);

function cpuOn(cluster: SimulatedCluster): number {
  return cluster.nodeInfo('n1')!.requested['cpu'] ?? 0;
}

describe('SimulatedCluster.fork', () => {
  it('keeps the room a node had when forked, though the original commits there again afterwards', () => {
    const original = new SimulatedCluster(index, new Set());
    original.commit(replacement('a'), original.nodeInfo('n1')!);
    const fork = original.fork();
    const before = cpuOn(fork);
    original.commit(replacement('b'), original.nodeInfo('n1')!);
    expect(cpuOn(original)).toBe(before + 1000);
    expect(cpuOn(fork)).toBe(before);
    expect(fork.nodeInfo('n1')!.podCount).toBe(1);
  });

  it("keeps the fork's own commits out of the original", () => {
    const original = new SimulatedCluster(index, new Set());
    original.commit(replacement('a'), original.nodeInfo('n1')!);
    const fork = original.fork();
    fork.commit(replacement('b'), fork.nodeInfo('n1')!);
    expect(cpuOn(original)).toBe(1000);
    expect(cpuOn(fork)).toBe(2000);
  });
});
