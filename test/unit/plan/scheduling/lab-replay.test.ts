/**
 * Replays pods the lab's real kube-scheduler (v1.37.2) refused: for each, the simulation's message must
 * be the FailedScheduling message the scheduler emitted, word for word. The fixture was captured with
 * `kubectl get nodes,pods -A -o json` and `kubectl get events --field-selector reason=FailedScheduling`
 * after creating, in a scratch namespace, pods that fail on each modelled rule (taint, node affinity,
 * host ports, cpu with a sidecar, cpu above allocatable, spread with nodeAffinityPolicy Ignore, required
 * affinity with no match anywhere, an existing pod's anti-affinity). The same namespace showed that
 * `labelSelector: {}` counts no pod in 1.37.2: such a pod was scheduled.
 */
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { SchedulingSimulation } from '../../../../src/plan/scheduling/simulation.js';
import { makeIndex } from '../../builders.js';
import lab from './fixtures/lab-failed-scheduling.json' with { type: 'json' };

const nodes = lab.nodes as unknown as V1Node[];
const pods = lab.pods as unknown as V1Pod[];
const probe = (name: string) => pods.find((p) => p.metadata?.namespace === 'sched-probe' && p.metadata.name === name)!;

describe('SchedulingSimulation against the lab scheduler', () => {
  it.each(Object.entries(lab.failedScheduling))('%s gets the message kube-scheduler gave it', (name, message) => {
    const sim = new SchedulingSimulation(makeIndex({ nodes, pods }), new Set());
    expect(sim.place(probe(name))).toMatchObject({ schedulable: false, message });
  });

  it('places the pod whose spread constraint has labelSelector {} where the scheduler did', () => {
    const scheduled = probe('spread-empty-selector');
    const others = pods.filter((p) => p !== scheduled);
    const sim = new SchedulingSimulation(makeIndex({ nodes, pods: others }), new Set());
    expect(sim.place(scheduled)).toMatchObject({ schedulable: true, placedOn: scheduled.spec!.nodeName });
  });
});
