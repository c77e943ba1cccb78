/**
 * Generated clusters of the fidelity harness (scripts/fidelity) where the plan and the lab's real drain
 * disagreed, rebuilt from the evidence the harness recorded (the generator's objects, the pods where the
 * lab's scheduler had put them before the drain) and planned again: the plan must say what the cluster did.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../../../src/plan/build-plan.js';
import type { DrainPlan } from '../../../../src/plan/types.js';
import { ClusterIndex } from '../../../../src/snapshot/cluster-index.js';
import { snapshotFromText } from '../../../../src/snapshot/load-file.js';
import { options } from '../rules-fixture.js';

function planOf(seed: number, node: string): DrainPlan {
  const path = new URL(`../../../fixtures/fidelity/seed-${seed}.json`, import.meta.url);
  const snapshot = snapshotFromText(readFileSync(path, 'utf8'), { type: 'file', path: path.pathname }, `seed ${seed}`);
  const at = Date.parse('2026-01-01T00:10:00Z') / 1000;
  return buildPlan(new ClusterIndex(snapshot), options({ nodes: [node], nowEpochSeconds: at }));
}

const placedOn = (plan: DrainPlan, pod: string) => plan.pods.find((p) => p.name === pod)?.replacement?.placedOn;

describe('seed 139: a replacement with several feasible nodes goes where the weighted scores put it', () => {
  // web-1 (one replica, high priority, zone spread DoNotSchedule) had fid-node-1, -2 and -4 to choose from;
  // the scheduler's default spread and resource scores chose fid-node-1, and web-5, whose pods require
  // web-1's zone, then found room for one of its two replacements only, on fid-node-1.
  const plan = planOf(139, 'fid-node-3');

  it('places web-1 on fid-node-1, as kube-scheduler did', () => {
    expect(placedOn(plan, 'web-1-64b68d9d5b-wvrjr')).toBe('fid-node-1');
  });

  it("finds a node for one of web-5's two replacements only, in web-1's zone", () => {
    const web5 = plan.pods.filter((p) => p.name.startsWith('web-5-')).map((p) => p.replacement?.placedOn ?? null);
    expect(web5.sort()).toEqual(['fid-node-1', null]);
    expect(plan.verdict).toBe('disruptive');
  });
});

describe('seed 59: replacements without a node are tried again once a preemption frees room', () => {
  // A low-priority filler's replacement preempted a DaemonSet pod and a web-1 pod on fid-node-1; a later
  // high-priority web-3 replacement preempted that filler replacement, freeing more than it takes. The
  // scheduler then retried the pods it had left unschedulable, and both victims' replacements found room.
  const plan = planOf(59, 'fid-node-2');
  const victims = plan.pods.flatMap((p) => p.replacement?.preemption?.victims ?? []);

  it("places the first preemption's victims once web-3's preemption has freed room on fid-node-1", () => {
    const replaced = (name: string) => victims.find((v) => v.name === name)?.replacement;
    expect(replaced('agent-wxlk4')).toMatchObject({ schedulable: true, placedOn: 'fid-node-1' });
    expect(replaced('web-1-5dd6957fcf-k24n5')).toMatchObject({ schedulable: true, placedOn: 'fid-node-1' });
  });

  it("leaves the preempted filler replacement's own replacement without a node", () => {
    expect(victims.find((v) => v.name === 'filler-565879977f-ccqm6')?.replacement?.schedulable).toBe(false);
  });
});
