/**
 * Generated clusters of the fidelity harness (scripts/fidelity) where the plan and the lab's real drain
 * disagreed, rebuilt from the evidence the harness recorded (the generator's objects, the pods where the
 * lab's scheduler had put them before the drain; or the cluster as the harness read it just before the
 * drain, its snapshot) and planned again: the plan must say what the cluster did, or that it cannot tell.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../../../src/plan/build-plan.js';
import {
  AFFINITY_RACE_UNKNOWN,
  EVICTION_RACE_UNKNOWN,
  PREEMPTION_BUDGET_UNKNOWN,
  REPLACEMENT_ORDER_UNKNOWN,
  ROOM_CHOICE_UNKNOWN,
} from '../../../../src/plan/scheduling/simulation.js';
import type { DrainPlan, ReplacementPlan } from '../../../../src/plan/types.js';
import { ClusterIndex } from '../../../../src/snapshot/cluster-index.js';
import { snapshotFromText } from '../../../../src/snapshot/load-file.js';
import { options } from '../rules-fixture.js';

/** An object of a fixture's List, as JSON. */
interface FixtureObject {
  readonly kind: string;
  readonly metadata: { readonly name: string };
  readonly [field: string]: unknown;
}

/** `edit`, when given, changes the snapshot's objects first (a variant of the lab's cluster, not evidence). */
function planOf(
  seed: number,
  node: string,
  now = '2026-01-01T00:10:00Z',
  edit?: (items: FixtureObject[]) => FixtureObject[],
): DrainPlan {
  const path = new URL(`../../../fixtures/fidelity/seed-${seed}.json`, import.meta.url);
  let text = readFileSync(path, 'utf8');
  if (edit) {
    const list = JSON.parse(text) as { items: FixtureObject[] };
    text = JSON.stringify({ ...list, items: edit(list.items) });
  }
  const snapshot = snapshotFromText(text, { type: 'file', path: path.pathname }, `seed ${seed}`);
  const at = Date.parse(now) / 1000;
  return buildPlan(new ClusterIndex(snapshot), options({ nodes: [node], nowEpochSeconds: at }));
}

const placedOn = (plan: DrainPlan, pod: string) => plan.pods.find((p) => p.name === pod)?.replacement?.placedOn;
const replacementOf = (plan: DrainPlan, pod: string) => plan.pods.find((p) => p.name === pod)?.replacement;
/** Each of `count` replacements is unknown for the eviction race, as `shape` says, its message naming `why`. */
function expectRaced(
  replacements: ReadonlyArray<ReplacementPlan | null | undefined>,
  count: number,
  shape: Partial<ReplacementPlan>,
  why: string,
): void {
  expect(replacements).toHaveLength(count);
  for (const r of replacements) {
    expect(r).toMatchObject({ ...shape, unknown: EVICTION_RACE_UNKNOWN });
    expect(r?.message).toContain(why);
  }
}

/** The lab's snapshots (seeds 43, 46, 98, 141, 185, 229) were taken on this day. */
const SNAPSHOT_DAY = '2026-12-03T05:00:00Z';

/** The replacement of the plan's first pod whose name starts with `prefix`. */
const replacementStarting = (plan: DrainPlan, prefix: string) =>
  plan.pods.find((p) => p.name.startsWith(prefix))?.replacement;

describe('seed 139: a replacement with several feasible nodes goes where the weighted scores put it', () => {
  // web-1 (one replica, high priority, zone spread DoNotSchedule) had fid-node-1, -2 and -4 to choose from;
  // the scheduler's default spread and resource scores chose fid-node-1, and web-5, whose pods require
  // web-1's zone, then found room for one of its two replacements only, on fid-node-1 (met after web-1's
  // replacement was placed; met before, it finds no node: see seed 43).
  const plan = planOf(139, 'fid-node-3');

  it('places web-1 on fid-node-1, as kube-scheduler did', () => {
    expect(placedOn(plan, 'web-1-64b68d9d5b-wvrjr')).toBe('fid-node-1');
  });

  it("finds room for one of web-5's two replacements only, in web-1's zone, if met after web-1's", () => {
    const web5 = plan.pods.filter((p) => p.name.startsWith('web-5-')).map((p) => p.replacement);
    const placed = web5.find((r) => r?.schedulable);
    expect(placed).toMatchObject({ nodes: ['fid-node-1'], placedOn: null, unknown: AFFINITY_RACE_UNKNOWN });
    expect(web5.filter((r) => r?.schedulable === false)).toHaveLength(1);
  });

  it("leaves whether web-5's budget lets its second pod go unknown, so the drain may not finish", () => {
    const second = plan.pods.find((p) => p.name.startsWith('web-5-') && p.wave === 2);
    expect(second?.outcomeUnknown).toMatch(
      /^budget fidelity\/web-5 frees up only once the replacement of fidelity\/web-5-/,
    );
    expect(plan.verdict).toBe('blocked');
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

describe("seed 141: a replacement whose spread counts its wave's other pods is unknown", () => {
  // web-2 (3 replicas, zone spread DoNotSchedule, maxSkew 1): two pods on fid-node-1 (zone-a, drained),
  // one on fid-node-2 (zone-b), no other node it may use. Once both evictions are seen, zone-a counts 0
  // and neither replacement fits on fid-node-2; the scheduler met the first replacement while the other
  // pod still ran (zone-a 1) and placed it there. The plan said both had no node.
  const plan = planOf(141, 'fid-node-1', SNAPSHOT_DAY);
  const web2 = ['web-2-597c54c9bb-29rs5', 'web-2-597c54c9bb-dc674'];

  it.each(web2)('%s: unknown, naming no node, and saying where it goes if met first', (pod) => {
    expect(replacementOf(plan, pod)).toMatchObject({ placedOn: null, unknown: EVICTION_RACE_UNKNOWN });
    expect(replacementOf(plan, pod)?.message).toContain('placed first, it would go to fid-node-2');
  });

  it("keeps web-3's replacement, which no race decides, on fid-node-2", () => {
    expect(replacementOf(plan, 'web-3-67c6656d76-ss6c2')).toMatchObject({ placedOn: 'fid-node-2' });
    expect(replacementOf(plan, 'web-3-67c6656d76-ss6c2')?.unknown).toBeUndefined();
  });

  it('says up to 2 replicas are down, with the race as a caveat on those pods', () => {
    expect(plan.verdictReasons[0]).toMatch(
      /^Deployment fidelity\/web-2: up to 2 of 3 replicas down until fid-node-1 returns/,
    );
    const pods = web2.map((p) => `fidelity/${p}`);
    expect(plan.caveatScopes).toContainEqual({
      caveat: `${EVICTION_RACE_UNKNOWN} (pods ${pods.join(', ')})`,
      pods,
      rule: EVICTION_RACE_UNKNOWN,
    });
  });
});

describe('seed 185: a replacement that, met first, would preempt is unknown', () => {
  // db-6 (StatefulSet, 5 replicas, zone spread DoNotSchedule): db-6-0 and db-6-3 on fid-node-3 (zone-c,
  // drained). Both gone, zone-c counts 0 and no node is allowed, preemption included; the cluster met
  // db-6-0 while db-6-3 still ran, and it preempted a filler pod on fid-node-2 (zone-b).
  const plan = planOf(185, 'fid-node-3', SNAPSHOT_DAY);

  it.each(['db-6-0', 'db-6-3'])('%s: unknown', (pod) => {
    expect(replacementOf(plan, pod)).toMatchObject({ placedOn: null, unknown: EVICTION_RACE_UNKNOWN });
  });

  it('db-6-0, met first, preempts on fid-node-2', () => {
    expect(replacementOf(plan, 'db-6-0')?.message).toContain('placed first, it would preempt on fid-node-2');
  });

  it("leaves db-1-2's replacement, whose spread no other pod of the wave shares, without a node", () => {
    expect(replacementOf(plan, 'db-1-2')).toMatchObject({ schedulable: false });
    expect(replacementOf(plan, 'db-1-2')?.unknown).toBeUndefined();
  });
});

describe("seed 98: a wave's preemptions read the budgets without each other's victims", () => {
  // Two filler replacements (priority 100) preempt in one wave. The first deletes db-3-0 on fid-node-1;
  // the second's dry run on fid-node-3 reads db-3's budget before the disruption controller has counted
  // that deletion (1 allowed, after the drain's eviction of db-3-1), so db-3-2 does not violate it and is
  // reprieved after the DaemonSet pod that started earlier: db-3-2 is the victim, not agent-zxt8v.
  const plan = planOf(98, 'fid-node-2', SNAPSHOT_DAY);
  const victims = (pod: string) => replacementOf(plan, pod)?.preemption?.victims.map((v) => `${v.name}@${v.node}`);

  it('the second preemption deletes db-3-2 on fid-node-3, as kube-scheduler did', () => {
    expect(victims('filler-565879977f-zzrht')).toEqual(['db-3-2@fid-node-3']);
  });

  it("says that deletion breaks db-3's budget, counted with the wave's first preemption", () => {
    expect(replacementOf(plan, 'filler-565879977f-zzrht')?.preemption?.budgetsBroken).toEqual(['fidelity/db-3']);
    expect(replacementOf(plan, 'filler-565879977f-jlrh5')?.preemption?.budgetsBroken).toEqual([]);
  });

  it("web-2's replacement fits in the room that frees, and the drain finishes", () => {
    expect(placedOn(plan, 'web-2-56f9bd988f-l2pb2')).toBe('fid-node-3');
    expect(plan.pods.find((p) => p.name === 'web-2-56f9bd988f-tz8p6')?.outcome).toBe('waits');
    expect(plan.verdict).toBe('disruptive');
  });
});

describe('seed 229: a replacement whose room depends on where another of its wave goes is unknown', () => {
  // One wave evicts web-4's pod, two filler pods, db-2-1 and db-5-2 from fid-node-1. web-4's replacement
  // (400m) scores alike on fid-node-2…5 once the fillers' replacements are placed, and met before them it
  // goes to fid-node-4, the least allocated; db-2-1's (500m), whose zonal volume allows fid-node-4 only,
  // fits there only if web-4's does not go there. The cluster put web-4's on fid-node-4, and db-2-1's
  // preempted db-5-0 there; the plan had put web-4's on fid-node-2 and db-2-1's beside it, no preemption.
  const plan = planOf(229, 'fid-node-1', SNAPSHOT_DAY);

  it('db-2-1: unknown, naming no node, and saying whose placement decides it', () => {
    expect(replacementOf(plan, 'db-2-1')).toMatchObject({ placedOn: null, unknown: ROOM_CHOICE_UNKNOWN });
    expect(replacementOf(plan, 'db-2-1')?.message).toContain('the replacement of web-4-648b9f77cb-tqbfn');
  });

  it('web-4: unknown, naming the nodes it may take, fid-node-4 among them', () => {
    const web4 = replacementOf(plan, 'web-4-648b9f77cb-tqbfn');
    expect(web4).toMatchObject({ placedOn: null, unknown: ROOM_CHOICE_UNKNOWN });
    expect(web4?.tiedWith).toBeUndefined();
    expect(web4?.message).toMatch(/Where it goes \([^)]*fid-node-4[^)]*\) decides whether the replacement of db-2-1/);
  });

  it('leaves db-5-2, whose local volume is on fid-node-1, without a node until it returns', () => {
    expect(replacementOf(plan, 'db-5-2')).toMatchObject({ schedulable: false, untilNodeReturns: ['fid-node-1'] });
    expect(replacementOf(plan, 'db-5-2')?.unknown).toBeUndefined();
  });
});

describe('seed 43: a replacement whose required affinity selects pods of its wave being replaced is unknown', () => {
  // One wave evicts web-2's pod, web-3's two and two StatefulSet pods from fid-node-2 (zone-b, its only
  // node). web-3's pods require a web-2 pod in their zone (a term with a namespaceSelector); the other
  // web-2 pod is on fid-node-3 (zone-c), too full for a web-3 replacement. The plan places web-2's
  // replacement on fid-node-1 (zone-a) first and both web-3 replacements beside it. The cluster met one
  // web-3 replacement before web-2's was placed: no node, and kube-scheduler did not try it again.
  const plan = planOf(43, 'fid-node-2', SNAPSHOT_DAY);
  const web3 = ['web-3-65b7789ddc-f6qqh', 'web-3-65b7789ddc-jcbpt'];

  it.each(web3)("%s: unknown, naming no node, and saying what becomes of it met before web-2's", (pod) => {
    expect(replacementOf(plan, pod)).toMatchObject({ placedOn: null, unknown: AFFINITY_RACE_UNKNOWN });
    expect(replacementOf(plan, pod)?.message).toContain(
      'its required pod affinity selects pods of its wave being replaced (web-2-75b8d9c987-2mg82); met once their old pods are gone and before their replacements are placed, it would find no node',
    );
  });

  it("keeps web-2's replacement, which no race decides, on fid-node-1", () => {
    expect(replacementOf(plan, 'web-2-75b8d9c987-2mg82')).toMatchObject({ placedOn: 'fid-node-1' });
    expect(replacementOf(plan, 'web-2-75b8d9c987-2mg82')?.unknown).toBeUndefined();
  });
});

describe("seed 46: a replacement whose fate depends on meeting the wave's StatefulSet replacement first is unknown", () => {
  // One wave evicts db-2-0 (StatefulSet, priority 1000, its zonal volume allows zone-a: fid-node-3), two
  // filler pods (priority 100, fid-node-3 their only node with room), web-3's and web-4's pods from
  // fid-node-1. In the plan's order the fillers' and web-3's replacements take fid-node-3's room first and
  // db-2-0's preempts web-4-845d4c5d99-hkjw4 there. The cluster met db-2-0's replacement before the
  // fillers' had taken that room: it went to fid-node-3 without preempting, and a filler replacement
  // preempted a web-4 pod elsewhere (web-4-845d4c5d99-5mhv7 on fid-node-4).
  const plan = planOf(46, 'fid-node-1', SNAPSHOT_DAY);

  it('db-2-0: unknown, naming no node, and saying where it goes met before the others', () => {
    expect(replacementOf(plan, 'db-2-0')).toMatchObject({ placedOn: null, unknown: REPLACEMENT_ORDER_UNKNOWN });
    expect(replacementOf(plan, 'db-2-0')?.message).toContain(
      "met before the wave's other replacements, it would go to fid-node-3",
    );
  });

  it('the filler replacement that would then find no room: unknown, and it would preempt a web-4 pod', () => {
    const fillers = ['filler-565879977f-865vt', 'filler-565879977f-krblj'].map((p) => replacementOf(plan, p));
    const unknown = fillers.filter((r) => r?.unknown === REPLACEMENT_ORDER_UNKNOWN);
    expect(unknown).toHaveLength(1);
    expect(unknown[0]).toMatchObject({ schedulable: true, placedOn: null });
    expect(unknown[0]?.message).toMatch(
      /met after the replacement of db-2-0, it would preempt web-4-845d4c5d99-\w+ on/,
    );
  });

  it("says db-2-0's replacement only may preempt web-4-845d4c5d99-hkjw4, and web-4 may be short of up to 2 replicas", () => {
    expect(plan.verdictReasons).toContain(
      'the replacement of fidelity/db-2-0 may preempt (whether it does is unknown: see the caveats) fidelity/web-4-845d4c5d99-hkjw4 on fid-node-3: deleted, not evicted',
    );
    expect(plan.verdictReasons[0]).toMatch(/^Deployment fidelity\/web-4: up to 2 of 4 replicas down/);
  });

  it("keeps web-3's replacement, which the order does not change, on fid-node-3", () => {
    expect(replacementOf(plan, 'web-3-6f59bddf58-5kzw5')).toMatchObject({ placedOn: 'fid-node-3' });
    expect(replacementOf(plan, 'web-3-6f59bddf58-5kzw5')?.unknown).toBeUndefined();
  });
});

describe("seed 96: a budget's later waves wait for a replacement whose fate is unknown", () => {
  // web-2 has 5 pods on fid-node-1 and a budget allowing 1 disruption at a time. The first replacement's
  // required pod affinity selects web-2 pods of its wave being replaced: whether it finds a node is
  // unknown. In the lab it found none, the budget never freed up, 4 pods stayed and the drain blocked.
  const plan = planOf(96, 'fid-node-1', SNAPSHOT_DAY);
  const web2 = plan.pods.filter((p) => p.name.startsWith('web-2-'));
  const first = web2.find((p) => p.wave === 1);

  it("calls the first web-2 replacement unknown, for its affinity's race", () => {
    expect(first?.replacement?.unknown).toBe(AFFINITY_RACE_UNKNOWN);
    expect(first?.outcomeUnknown).toBeUndefined();
  });

  it("leaves the fate of web-2's 4 later pods and of its budget's waves unknown, naming that replacement", () => {
    const later = web2.filter((p) => p !== first);
    expect(later).toHaveLength(4);
    const why = `budget fidelity/web-2 frees up only once the replacement of fidelity/${first?.name} is Ready, and whether that replacement finds a node is unknown`;
    for (const p of later) expect(p.outcomeUnknown).toBe(why);
    expect(plan.budgets.find((b) => b.name === 'web-2')?.unknown).toBe(why);
  });

  it('does not call the drain one that finishes', () => {
    expect(plan.verdict).toBe('blocked');
    expect(plan.verdictReasons.some((r) => r.includes('so the drain may not finish'))).toBe(true);
  });
});

describe('seed 96, varied: a budget with room to spare does not wait for the replacement whose fate is unknown', () => {
  // Not a lab run: the seed 96 cluster with three of web-2's pods removed and its budget covering web-1 and
  // web-2 (3 pods, all on fid-node-1) with maxUnavailable 2. Wave 1 evicts web-1 and web-2's first pod, whose
  // replacement is unknown (its affinity selects web-1, replaced in the same wave); web-1's replacement,
  // known to find a node, gives back the disruption wave 2 needs, whatever becomes of the unknown one.
  const removed = new Set(['web-2-8464cc5996-sj4hm', 'web-2-8464cc5996-wspwc', 'web-2-8464cc5996-xzp46']);
  const plan = planOf(96, 'fid-node-1', SNAPSHOT_DAY, (items) =>
    items
      .filter((o) => !removed.has(o.metadata.name))
      .map((o) =>
        o.kind === 'PodDisruptionBudget' && o.metadata.name === 'web-2'
          ? {
              ...o,
              spec: {
                maxUnavailable: 2,
                selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web-1', 'web-2'] }] },
              },
              status: {
                ...(o.status as object),
                currentHealthy: 3,
                desiredHealthy: 1,
                disruptionsAllowed: 2,
                expectedPods: 3,
              },
            }
          : o,
      ),
  );
  const web2 = plan.pods.filter((p) => p.name.startsWith('web-2-'));

  it("admits web-2's second pod in wave 2, known, behind the unknown replacement of its first", () => {
    expect(web2.find((p) => p.wave === 1)?.replacement?.unknown).toBe(AFFINITY_RACE_UNKNOWN);
    const second = web2.find((p) => p.wave === 2);
    expect(second).toMatchObject({ outcome: 'waits' });
    expect(second?.outcomeUnknown).toBeUndefined();
    expect(plan.budgets.find((b) => b.name === 'web-2')).toMatchObject({ perWave: 2, waves: 2 });
    expect(plan.budgets.find((b) => b.name === 'web-2')?.unknown).toBeUndefined();
  });

  it('calls the drain slow, not blocked', () => {
    expect(plan.verdict).toBe('slow');
  });
});

describe("seed 403: a replacement that, met first, would take room its wave's earlier ones need is unknown", () => {
  // Three filler replacements (500m each) and web-3's (100m), all of one priority, were made at once.
  // In the plan's order the fillers took fid-node-1's 1,590m and web-3's went to fid-node-3; in the lab
  // the scheduler met web-3's first, which went to fid-node-1, and the third filler, left without room,
  // preempted a DaemonSet pod on fid-node-3.
  const plan = planOf(403, 'fid-node-2', '2026-12-03T15:00:00Z');
  const fillers = plan.pods.filter((p) => p.name.startsWith('filler-')).map((p) => p.replacement);

  it("calls web-3's replacement unknown: placed first, it goes to fid-node-1", () => {
    const web3 = replacementOf(plan, 'web-3-5c5575b8d8-tr55t');
    expect(web3).toMatchObject({ placedOn: null, unknown: EVICTION_RACE_UNKNOWN });
    expect(web3?.message).toContain('placed first, it would go to fid-node-1');
  });

  it('calls the fillers placed on fid-node-1 unknown too, naming what takes their room', () => {
    expectRaced(
      fillers,
      3,
      { placedOn: null },
      'the replacement of web-3-5c5575b8d8-tr55t, placed first, would take fid-node-1',
    );
  });

  it("still finds web-2's replacement no node anywhere (its zone spread)", () => {
    expect(replacementOf(plan, 'web-2-7bfd67fcf5-rjm28')).toMatchObject({ schedulable: false });
    expect(replacementOf(plan, 'web-2-7bfd67fcf5-rjm28')?.unknown).toBeUndefined();
  });
});

describe("seed 387: a budget's evictions racing a preemption of its own pod in the same wave are unknown", () => {
  // web-7's budget allowed 3 disruptions and its 3 pods on fid-node-1 went in one wave in the plan, while a
  // filler's replacement preempted another web-7 pod on fid-node-2. In the lab the API server admitted one
  // web-7 eviction at once; the other two, tried again after their conflict on the budget, met the budget
  // after the disruption controller had counted the preempted pods: refused, and the drain blocked.
  const plan = planOf(387, 'fid-node-1', '2026-12-03T15:00:00Z');
  const web7 = plan.pods.filter((p) => p.name.startsWith('web-7-'));

  it("leaves whether web-7's three pods go unknown, naming the preemption, and the budget's waves", () => {
    expect(web7).toHaveLength(3);
    for (const p of web7)
      expect(p.outcomeUnknown).toMatch(
        /^the API server admits one of budget fidelity\/web-7's evictions of a wave at once and the others after a conflict, 500 ms later, while the replacement of fidelity\/filler-565879977f-lkws9 preempts fidelity\/web-7-8655cc66cf-fpklc in that wave/,
      );
    expect(plan.budgets.find((b) => b.name === 'web-7')?.unknown).toBe(web7[0]?.outcomeUnknown);
  });

  it('does not call the drain one that finishes', () => {
    expect(plan.verdict).toBe('blocked');
    expect(plan.verdictReasons.some((r) => r.includes('so the drain may not finish'))).toBe(true);
  });
});

describe('seed 7329: a replacement whose room another replacement of unknown fate took, met first, is unknown', () => {
  // web-2 (high priority) requires a web-1 pod in its zone; web-1's only pod and three of web-2's were on
  // fid-node-6 (zone-c). The plan placed web-2's first replacement on fid-node-3, beside web-1's old pod,
  // while calling it unknown (met before web-1's replacement is placed, it finds no node); web-6's
  // replacement (zone spread) then found fid-node-3 full and preempted web-3 there. In the lab web-2's
  // replacements went to zone-a, after web-1's, and web-6's found room on fid-node-3: nothing preempted.
  // Met first, web-6's goes to fid-node-3, whose room web-2's took in the plan's order.
  const plan = planOf(7329, 'fid-node-6', '2026-12-04T21:40:00Z');

  it("keeps web-2's first replacement unknown for its affinity race, and names web-6's as taking its node", () => {
    const web2 = replacementOf(plan, 'web-2-5b44f5b6cf-b8cpj');
    expect(web2).toMatchObject({ placedOn: null, unknown: AFFINITY_RACE_UNKNOWN });
    expect(web2?.message).toContain('the replacement of web-6-57cf844dc8-wb2sh, placed first, would take fid-node-3');
  });

  it("calls web-6's replacement, which preempts in the plan's order, unknown: met first, it fits", () => {
    expect(replacementOf(plan, 'web-6-57cf844dc8-wb2sh')).toMatchObject({
      placedOn: null,
      unknown: EVICTION_RACE_UNKNOWN,
    });
    expect(replacementOf(plan, 'web-6-57cf844dc8-wb2sh')?.message).toContain('placed first, it would go to fid-node-3');
  });

  it("leaves whether web-2's later pods go, and so their replacements' preemptions, unknown", () => {
    const later = plan.pods.filter((p) => p.name.startsWith('web-2-') && (p.wave ?? 0) > 1);
    expect(later).toHaveLength(2);
    for (const p of later) expect(p.outcomeUnknown).toMatch(/^budget fidelity\/web-2 frees up only once/);
  });
});

describe('seed 7423: a competitor the race check already called unknown still holds the room it took', () => {
  // fid-node-1 had 1,490m free. In the plan's order web-2's two replacements (high priority) took 1,000m,
  // a filler's preempted the DaemonSet pod for the rest, and web-3's (200m) preempted on fid-node-3 while
  // web-1's (zone spread) found no node, so web-1's budget never let its second pod go: blocked. The lab
  // met web-1's and web-3's replacements before the fillers', both on fid-node-1, and the drain finished.
  // The filler's race check called web-2's replacements unknown; the later replacements, met first, fit on
  // fid-node-1, whose room those took.
  const plan = planOf(7423, 'fid-node-2', '2026-12-04T21:45:00Z');

  it.each(['web-3-649c7876fb-gwvjh', 'web-1-5dbfc6fbf9-lzsbk', 'filler-565879977f-qlljx'])(
    '%s: unknown, met first it goes to fid-node-1',
    (pod) => {
      expect(replacementOf(plan, pod)).toMatchObject({ placedOn: null, unknown: EVICTION_RACE_UNKNOWN });
      expect(replacementOf(plan, pod)?.message).toContain('placed first, it would go to fid-node-1');
    },
  );

  it("leaves whether web-1's second pod goes unknown, so the drain may not finish", () => {
    const second = plan.pods.find((p) => p.name === 'web-1-5dbfc6fbf9-xk5vz');
    expect(second?.outcomeUnknown).toMatch(
      /^budget fidelity\/web-1 frees up only once the replacement of fidelity\/web-1-5dbfc6fbf9-lzsbk/,
    );
    expect(plan.verdict).toBe('blocked');
  });
});

describe("seed 7324: a budget's wave after a StatefulSet pod deleted at once waits up to the disruption controller's DeletionTimeout", () => {
  // db-1 (StatefulSet, 5 replicas, budget maxUnavailable 1, terminationGracePeriodSeconds 0): db-1-0 and
  // db-1-3 on fid-node-2. The eviction of the first went through and its replacement, of the same name, was
  // Ready within 2 s; but the disruption controller had not seen the evicted pod go before the new one
  // came, counted that name as disrupted for 2 minutes after the eviction, and the budget refused the
  // second pod until then (in 3 of 4 runs; in the fourth it freed up at once). The harness's 90 s drain
  // timeout cut that wait short.
  const plan = planOf(7324, 'fid-node-2', '2026-12-04T21:30:00Z');

  it('still says the drain finishes, db-1 in two waves', () => {
    expect(plan.verdict).not.toBe('blocked');
    const db1 = plan.pods.filter((p) => p.name.startsWith('db-1-'));
    expect(db1.map((p) => [p.outcome, p.wave])).toEqual([
      ['immediate', 1],
      ['waits', 2],
    ]);
  });

  it("puts db-1's second wave up to 120 s after the first eviction, saying why", () => {
    const [first, second] = plan.eta!.waves;
    expect(first).toMatchObject({ freesAfterSeconds: 120 });
    expect(first!.basis).toContain('the disruption controller counts that name as disrupted');
    expect(second).toMatchObject({ startsAfterSeconds: 120, pods: ['fidelity/db-1-3'] });
  });
});

describe('seed 7406: a replacement whose only node another of its wave could take, met before it, is unknown', () => {
  // web-1's replacement (400m, zone spread) fits on fid-node-1 only; web-3's and web-5's (of the same
  // priority, placed after it in the plan's order) found no node, and met first go to fid-node-2. The
  // lab made web-1's replacement last: web-2's had taken fid-node-2, web-5's took fid-node-1, and web-1's
  // found no node.
  const plan = planOf(7406, 'fid-node-4', '2026-12-04T22:00:00Z');

  it("calls web-1's replacement unknown, naming the replacements that could take fid-node-1 first", () => {
    const web1 = replacementOf(plan, 'web-1-756cc9df65-rgtbv');
    expect(web1).toMatchObject({ placedOn: null, unknown: EVICTION_RACE_UNKNOWN, nodes: ['fid-node-1'] });
    expect(web1?.message).toContain('the replacement of web-5-7d49dfd4cc-w7rlh, met before it, could take fid-node-1');
  });

  it("keeps db-4-1's replacement, held by its local volume, without a node", () => {
    expect(replacementOf(plan, 'db-4-1')).toMatchObject({ schedulable: false });
    expect(replacementOf(plan, 'db-4-1')?.unknown).toBeUndefined();
  });
});

describe("seed 7310 (a 1.34.4 lab): a preemption by a replacement whose fate is a race leaves its victim's replacement unknown", () => {
  // db-2 (StatefulSet, local volumes, one replica per node): db-2-1 on the drained fid-node-2, its
  // replacement held there by its volume. In the plan's order a filler's replacement preempts db-2-2 on
  // fid-node-3, whose own replacement its volume holds there, beside the filler's: two db-2 replacements
  // without a node. In the lab the wave's replacements were met in another order, a DaemonSet pod was
  // preempted instead and db-2-2 stayed: one db-2 replacement without a node (in another run, two).
  const plan = planOf(7310, 'fid-node-2', '2026-12-04T22:30:00Z');
  const preempting = plan.pods.filter((p) => p.replacement?.preemption?.victims.some((v) => v.name === 'db-2-2'));

  it("calls the replacement that preempts db-2-2 unknown, so db-2-2's own replacement may not be made", () => {
    expect(preempting).toHaveLength(1);
    expect(preempting[0]!.replacement).toMatchObject({ unknown: EVICTION_RACE_UNKNOWN });
  });

  it("keeps db-2-1's replacement, held by its volume on the drained node, without a node", () => {
    expect(replacementOf(plan, 'db-2-1')).toMatchObject({ schedulable: false, untilNodeReturns: ['fid-node-2'] });
    expect(replacementOf(plan, 'db-2-1')?.unknown).toBeUndefined();
  });
});

describe('seed 8057: a replacement that, met before a higher-priority one of its wave, would preempt is unknown', () => {
  // Draining fid-node-2: web-1's replacement (priority 1000, 200m) takes fid-node-3 first in the plan's
  // order, and the fillers' (priority 100, 500m each) then find no node, not even by preemption. In the
  // lab (1.34.4 and 1.37.2 alike) a filler's replacement was made and scheduled before web-1's: it
  // preempted a priority-0 pod on the node web-1's later took (web-3's on 1.37.2, the node agent on 1.34.4).
  const plan = planOf(8057, 'fid-node-2', '2026-12-05T10:00:00Z');
  const fillers = plan.pods.filter((p) => p.name.startsWith('filler-')).map((p) => p.replacement);

  it("calls the fillers' replacements unknown, saying where one met first would preempt", () => {
    const why =
      'met before the replacements placed ahead of it (web-1-5d5cb48484-tpnwm), it would preempt on fid-node-3';
    expectRaced(fillers, 4, { schedulable: false }, why);
  });

  it("keeps web-1's replacement on fid-node-3: a lower-priority nomination holds no room against it", () => {
    expect(replacementOf(plan, 'web-1-5d5cb48484-tpnwm')).toMatchObject({ placedOn: 'fid-node-3' });
    expect(replacementOf(plan, 'web-1-5d5cb48484-tpnwm')?.unknown).toBeUndefined();
  });
});

describe("seed 8093 (a 1.34.4 lab): a preemption that spares a budget's pods only because its wave spent it races that wave", () => {
  // Draining fid-node-1 evicts web-1's two pods in one wave (maxUnavailable 50% of 4). In the plan's order
  // both are admitted first, and the fillers' replacements then preempt db pods, web-1's being spared for
  // its spent budget. In the lab the API server admitted one eviction and retried the other after a
  // conflict; meanwhile the fillers' replacements met web-1's budget with room and preempted a web-1 pod on
  // each of fid-node-2 and fid-node-3: the budget then refused the second eviction for good.
  const plan = planOf(8093, 'fid-node-1', '2026-12-05T10:00:00Z');

  it("names web-1's budget as spared by the fillers' preemptions", () => {
    const preemptions = plan.pods.filter((p) => p.name.startsWith('filler-')).map((p) => p.replacement?.preemption);
    expect(preemptions.some((p) => p?.budgetsSpared?.includes('fidelity/web-1'))).toBe(true);
  });

  it("calls whether web-1's pods can be evicted unknown, so the drain may not finish", () => {
    const web1 = plan.pods.filter((p) => p.name.startsWith('web-1-'));
    expect(web1).toHaveLength(2);
    for (const pod of web1) expect(pod.outcomeUnknown).toMatch(/may preempt a pod of that budget on fid-node-[23]/);
    expect(plan.verdict).toBe('blocked');
  });
});

describe('seed 9023: two ValidatingAdmissionPolicies deny the same eviction, and the API server names either', () => {
  // fidelity-deny-1 (by name) and fidelity-deny-2 (by a params ConfigMap) both deny web-2's evictions. The
  // plan named the first by name; the lab's API server named fidelity-deny-2: it reports the first denial
  // in the order its policy cache holds the policies, which follows no name.
  const plan = planOf(9023, 'fid-node-2', '2026-12-05T11:01:00Z');
  const web2 = plan.pods.find((p) => p.name === 'web-2-5954666bdf-75rzx')!;

  it("names both policies' denials of web-2's eviction, either of which the API server may report", () => {
    const denials = [web2.admission?.denied, ...(web2.admission?.deniedAlso ?? [])].map((d) => d?.name);
    expect(denials).toEqual(['fidelity-deny-1', 'fidelity-deny-2']);
    expect(web2.admission?.unknown).toEqual([]);
    expect(web2.outcome).toBe('blocked');
    expect(plan.verdict).toBe('blocked');
  });

  it("judges db-3's eviction admitted: neither policy concerns it", () => {
    const db = plan.pods.find((p) => p.name === 'db-3-2')!;
    expect(db.admission?.denied).toBeUndefined();
    expect(db.admission?.unknown ?? []).toEqual([]);
  });
});

describe('seed 9253: a replacement that finds a node only met after a lower-priority one of its wave', () => {
  // web-3 (priority 1000) has required zone affinity to web-2's pods, all five on the drained fid-node-3,
  // alone in zone-c. In the plan's order web-3's replacement comes first and finds no zone with a web-2
  // pod, so its budget never frees up. In the lab web-2's eviction landed first, its replacement was
  // bound in zone-a, and web-3's, made after it, went there: the drain finished.
  const plan = planOf(9253, 'fid-node-3', '2026-12-05T16:42:00Z');

  it("calls web-3's replacement that found no node unknown, saying where it goes met after web-2's", () => {
    const web3 = plan.pods.filter((p) => p.name.startsWith('web-3-') && p.wave === 1);
    expect(web3).toHaveLength(1);
    expect(web3[0]!.replacement).toMatchObject({ unknown: EVICTION_RACE_UNKNOWN });
    expect(web3[0]!.replacement?.message).toMatch(
      /met after the replacements placed behind it \(.*web-2-.*\), it would go to fid-node-[12]/,
    );
  });

  it("calls web-3's later pods unknown: its budget waits for that replacement", () => {
    const later = plan.pods.filter((p) => p.name.startsWith('web-3-') && p.wave !== 1);
    expect(later).toHaveLength(2);
    for (const p of later) expect(p.outcomeUnknown).toBeDefined();
  });
});

describe("seed 9280: a replacement whose single node's room another of its wave, met in another order, could take", () => {
  // web-2 (zone spread DoNotSchedule) leaves its replacement fid-node-4 only, the last node of zone-b. The
  // plan placed web-6's, web-2's and web-5's replacements there and the filler's on fid-node-1; in the lab
  // the filler's was met before web-6's took room on fid-node-4, went there, and web-2's found no room.
  const plan = planOf(9280, 'fid-node-2', '2026-12-05T19:51:00Z');
  const replacementNamed = (prefix: string) => replacementStarting(plan, prefix);

  it("calls web-2's replacement unknown, naming the filler's whose node decides its room", () => {
    expect(replacementNamed('web-2-')).toMatchObject({ placedOn: null, unknown: ROOM_CHOICE_UNKNOWN });
    expect(replacementNamed('web-2-')?.message).toContain('depends on where the replacement of filler-');
  });

  it("calls the filler's replacement unknown too: where it goes decides web-2's room", () => {
    expect(replacementNamed('filler-')).toMatchObject({ placedOn: null, unknown: ROOM_CHOICE_UNKNOWN });
  });
});

describe('seed 9518: a replacement whose single node is the plan order’s, met after one its affinity selects', () => {
  // web-4 (priority 100) requires zone affinity to web-2 (through a namespaceSelector). In the plan's order
  // web-4's replacement came first, while zone-a alone held a web-2 pod: fid-node-3 its single node. In the
  // lab web-2's replacement was bound on fid-node-4 (zone-b) first, and web-4's went there.
  const plan = planOf(9518, 'fid-node-1', '2026-12-05T22:39:00Z');
  const replacementNamed = (prefix: string) => replacementStarting(plan, prefix);

  it("calls web-4's replacement unknown, saying where it goes met after web-2's", () => {
    expect(replacementNamed('web-4-')).toMatchObject({ placedOn: null, unknown: EVICTION_RACE_UNKNOWN });
    expect(replacementNamed('web-4-')?.message).toContain('met after the replacements placed behind it (web-2-');
    expect(replacementNamed('web-4-')?.message).toContain('it would go to fid-node-4 instead');
  });

  it("leaves web-2's replacement as it was: fid-node-4", () => {
    expect(replacementNamed('web-2-')).toMatchObject({ placedOn: 'fid-node-4' });
    expect(replacementNamed('web-2-')?.unknown).toBeUndefined();
  });
});

describe('seed 7328: replacements a wave met in another order leaves without a node', () => {
  // web-1 (zone spread), web-3 and the filler on fid-node-1. In the lab web-3's replacement, met first,
  // took fid-node-3, web-1's single node, and web-1's found none: the race of the wave's evictions.
  const plan = planOf(7328, 'fid-node-1', '2026-12-05T23:08:00Z');
  const replacementNamed = (prefix: string) => replacementStarting(plan, prefix);

  it("calls web-1's, web-3's and the filler's replacements unknown, naming web-3's met first", () => {
    for (const prefix of ['web-1-', 'web-3-', 'filler-'])
      expect(replacementNamed(prefix)).toMatchObject({ placedOn: null, unknown: EVICTION_RACE_UNKNOWN });
    expect(replacementNamed('web-1-')?.message).toContain(
      'the replacement of web-3-5c576b77bc-758wp, placed first, would take fid-node-3',
    );
  });
});

describe("seed 9639: a preemption at a replacement's priority on the node it would take met first", () => {
  // web-2's replacement (priority 100) finds no node in the plan's order, behind web-4's (1000) and the
  // fillers' (100), which preempt db-1 pods on fid-node-2 and fid-node-3. In the lab web-2's was met
  // first and went to fid-node-2, and the filler's meant for fid-node-2 found no node.
  const plan = planOf(9639, 'fid-node-1', '2026-12-05T23:32:00Z');
  const replacements = plan.pods.filter((p) => p.name.startsWith('filler-')).map((p) => p.replacement);

  it("calls the filler's replacement that preempts on fid-node-2 unknown, naming web-2's met before it", () => {
    const onNode2 = replacements.filter((r) => r?.preemption?.node === 'fid-node-2');
    expect(onNode2).toHaveLength(1);
    expect(onNode2[0]).toMatchObject({ unknown: EVICTION_RACE_UNKNOWN });
    expect(onNode2[0]?.message).toContain(
      'the replacement of web-2-6c8fb48b96-2wkx9, met before it, could go to fid-node-2',
    );
  });

  it("calls the filler's replacement that preempts on fid-node-3 unknown too: web-2's, met between the two, could take that node (seed 10059)", () => {
    const onNode3 = replacements.filter((r) => r?.preemption?.node === 'fid-node-3');
    expect(onNode3).toHaveLength(1);
    expect(onNode3[0]).toMatchObject({ unknown: EVICTION_RACE_UNKNOWN });
    expect(onNode3[0]?.message).toContain(
      'the replacement of web-2-6c8fb48b96-2wkx9, met before it, could take fid-node-3.',
    );
  });
});

describe("seed 9934: a preemption that spares a budget's pods only because an eviction a webhook holds spent it", () => {
  // Draining fid-node-2 evicts three fillers (priority 100), web-1 and web-2-8brz8 in one wave. The plan
  // placed a filler's replacement on fid-node-4 by preempting the node agent (priority 0), sparing
  // web-2-lrvkm (priority 0, started after the agent) because web-2's budget was spent by 8brz8's eviction.
  // But KubeVirt's webhook answers that eviction 429 first and an unknown webhook decides it: in the lab
  // the replacement met web-2's budget with room, and the scheduler deleted web-2-lrvkm, keeping the agent.
  const plan = planOf(9934, 'fid-node-2', '2026-12-07T09:24:00Z');
  const onNode4 = () => plan.pods.map((p) => p.replacement).filter((r) => r?.preemption?.node === 'fid-node-4');

  it("calls the filler's preemption on fid-node-4 unknown, naming the budget it spares and the eviction held", () => {
    expect(onNode4()).toHaveLength(1);
    const [filler] = onNode4();
    expect(filler?.preemption?.budgetsSpared).toEqual(['fidelity/web-2']);
    expect(filler).toMatchObject({ unknown: PREEMPTION_BUDGET_UNKNOWN, placedOn: null });
    expect(filler?.message).toContain(
      'Which pods it preempts is not known: it spares the pods of budget fidelity/web-2 on fid-node-4 because the eviction of fidelity/web-2-778757d654-8brz8 spent it',
    );
  });

  it('keeps the preemption as it was where nothing holds that eviction', () => {
    const alone = planOf(9934, 'fid-node-2', '2026-12-07T09:24:00Z', (items) =>
      items.filter((o) => o.kind !== 'ValidatingWebhookConfiguration'),
    );
    const fillers = alone.pods.map((p) => p.replacement).filter((r) => r?.preemption?.node === 'fid-node-4');
    expect(fillers).toHaveLength(1);
    expect(fillers[0]?.preemption?.victims.map((v) => v.name)).toEqual(['agent-62hz8']);
    expect(fillers[0]?.unknown).toBeUndefined();
  });
});

describe('seed 10059 (a 1.34.4 lab): a preemption whose node a replacement of its wave at its priority can take, met first', () => {
  // Draining fid-node-2: in the plan's order two fillers' replacements (priority 100) preempt, on
  // fid-node-3 and fid-node-1, and web-4's (priority 100 too) then finds no node. In the lab web-4's was met
  // before the filler's meant for fid-node-3 and went there; that filler's replacement found no node.
  const plan = planOf(10059, 'fid-node-2', '2026-12-07T10:00:00Z');
  const preempting = plan.pods.filter((p) => p.name.startsWith('filler-') && p.replacement?.preemption);

  it("calls both fillers' preemptions unknown, naming web-4's replacement met before them", () => {
    expect(preempting.map((p) => p.replacement?.preemption?.node).sort()).toEqual(['fid-node-1', 'fid-node-3']);
    for (const p of preempting) {
      expect(p.replacement).toMatchObject({ unknown: EVICTION_RACE_UNKNOWN, placedOn: null });
      expect(p.replacement?.message).toContain(
        `the replacement of web-4-56fcd4f958-wsmbh, met before it, could take ${p.replacement?.preemption?.node}.`,
      );
    }
  });

  it("leaves web-4's own replacement unknown for the race it was found in", () => {
    expect(replacementOf(plan, 'web-4-56fcd4f958-wsmbh')).toMatchObject({
      schedulable: false,
      unknown: EVICTION_RACE_UNKNOWN,
    });
  });
});

describe('seed 10046 (a 1.34.4 lab): a webhook denies an eviction that another answers 429 first', () => {
  // web-1's pods are both KubeVirt VM launchers (its webhook answers 429 while it migrates the VM) and
  // Strimzi brokers (its drain cleaner denies with 500). The API server calls validating webhooks in
  // parallel and reports the first refusal to arrive: in the lab the drain met KubeVirt's 429 three times
  // and ended before it met the denial.
  const plan = planOf(10046, 'fid-node-3', '2026-12-07T09:56:00Z');
  const web1 = plan.pods.find((p) => p.name === 'web-1-6d586f7ff9-lvqhg')!;

  it("names the denial, and KubeVirt's webhook as one whose 429 the drain may meet first", () => {
    expect(web1.admission?.denied?.name).toBe('strimzi-drain-cleaner.strimzi.io');
    expect(web1.admission?.waitsFirst).toEqual(['virt-launcher-eviction-interceptor.kubevirt.io']);
    expect(web1.outcome).toBe('blocked');
    expect(web1.outcomeReason).toContain(
      'the API server calls "virt-launcher-eviction-interceptor.kubevirt.io" beside it and reports the first refusal to arrive',
    );
  });
});

describe("seed 10149: a preemption that spares a budget an eviction a webhook holds spent, and that budget's pod", () => {
  // Draining fid-node-2 evicts web-3-vs5fz, which KubeVirt's webhook answers 429 first, and web-5's pods,
  // whose replacement preempts on fid-node-1, sparing web-3's pod there for web-3's budget. In the lab the
  // preemption met the budget with room and deleted that web-3 pod; the budget then refused vs5fz for good.
  const plan = planOf(10149, 'fid-node-2', '2026-12-07T11:15:00Z');
  const web3 = plan.pods.find((p) => p.name === 'web-3-5d6454bb6c-vs5fz')!;

  it("calls whether web-3's pod goes unknown: a preemption of its wave may spend its budget first", () => {
    expect(web3.outcomeUnknown).toMatch(/may preempt a pod of that budget on fid-node-1/);
    expect(plan.budgets.find((b) => b.name === 'web-3')?.unknown).toBe(web3.outcomeUnknown);
  });
});

describe("seed 10169: a StatefulSet's replacement met between two fillers' takes the room a filler's preemption needed", () => {
  // Draining fid-node-1 evicts db-2-0 (StatefulSet, priority 100, 100m) and three filler pods (priority
  // 100, 500m). In the plan's order the first filler replacement takes fid-node-3, the second preempts the
  // agent pod on fid-node-2 (one victim, where fid-node-3 needs two), and db-2-0's, met last, finds no
  // node. In the lab db-2-0's replacement was met after the first filler's and took fid-node-2; the next
  // filler's could then preempt only on fid-node-3 (the agent and web-3's pod), and the last found no node.
  const plan = planOf(10169, 'fid-node-1', '2026-12-07T12:37:00Z');
  const fillers = ['filler-565879977f-65wkj', 'filler-565879977f-c9d2m', 'filler-565879977f-wz48s'];

  it('keeps the first filler on fid-node-3 and calls the preempting one unknown, saying what it meets after db-2-0', () => {
    expect(replacementOf(plan, fillers[0]!)).toMatchObject({ placedOn: 'fid-node-3' });
    const preempting = replacementOf(plan, fillers[1]!);
    expect(preempting).toMatchObject({ schedulable: true, placedOn: null, unknown: REPLACEMENT_ORDER_UNKNOWN });
    expect(preempting?.message).toContain('met after the replacement of db-2-0, it would');
  });

  it("keeps db-2-0's replacement unknown, saying where it goes met before the others", () => {
    expect(replacementOf(plan, 'db-2-0')).toMatchObject({ placedOn: null, unknown: REPLACEMENT_ORDER_UNKNOWN });
    expect(replacementOf(plan, 'db-2-0')?.message).toContain(
      "met before the wave's other replacements, it would go to fid-node-3",
    );
  });
});
