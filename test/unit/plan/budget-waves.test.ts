import type { V1Pod, V1PodDisruptionBudget } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { scheduleEvictions, type EvictionCandidate, type ReplacementPlacer } from '../../../src/plan/budget-waves.js';
import { budgetFacts, type BudgetKey } from '../../../src/plan/budgets.js';
import { buildPlan } from '../../../src/plan/build-plan.js';
import { scheduleInGroups } from '../../../src/plan/eviction-order.js';
import { podKey } from '../../../src/plan/pod-facts.js';
import { REPLACEMENT_ORDER_UNKNOWN } from '../../../src/plan/scheduling/simulation.js';
import type { ReplacementPlan } from '../../../src/plan/types.js';
import { makeDeployment, makeIndex, makeNode, makePdb, makePod, makeReplicaSet, makeStatefulSet } from '../builders.js';
import { options } from './rules-fixture.js';

/**
 * A stand-in for SchedulingSimulation (tests only): the first `room` replacements fit on node "spare",
 * later ones do not. It records the calls so the tests can check the evict-then-place order per wave.
 */
function placerWithRoom(room: number): ReplacementPlacer & { calls: string[] } {
  const calls: string[] = [];
  let left = room;
  return {
    calls,
    evict: (pod) => void calls.push(`evict ${pod.metadata?.name}`),
    place: (pod): ReplacementPlan => {
      calls.push(`place ${pod.metadata?.name}`);
      const fits = left-- > 0;
      return {
        schedulable: fits,
        nodes: fits ? ['spare'] : [],
        placedOn: fits ? 'spare' : null,
        rejected: fits ? [] : [{ node: 'spare', reasons: ['Too many pods'] }],
        message: fits ? '' : '0/1 nodes are available: 1 Too many pods.',
      };
    },
  };
}

const web = (name: string) =>
  makePod().name(name).ns('shop').node('n1').label('app', 'web').owner('ReplicaSet', 'web-1');
const budget = () => makePdb().name('web').ns('shop').selector({ app: 'web' });
/** maxUnavailable 1 over 4 healthy pods: one disruption at a time. */
const oneAtATime = () =>
  budget().maxUnavailable(1).status({ disruptionsAllowed: 1, currentHealthy: 4, desiredHealthy: 3, expectedPods: 4 });
/** shop/web over `healthy` healthy pods, allowing `maxUnavailable` of them down. */
const spare = (maxUnavailable: number, healthy: number) =>
  budget()
    .maxUnavailable(maxUnavailable)
    .status({
      disruptionsAllowed: maxUnavailable,
      currentHealthy: healthy,
      desiredHealthy: healthy - maxUnavailable,
      expectedPods: healthy,
    });

function candidates(pods: V1Pod[], pdbs: V1PodDisruptionBudget[], recreates = true): EvictionCandidate[] {
  const facts = pdbs.map(budgetFacts);
  return pods.map((pod) => ({ pod, key: podKey(pod), budgets: facts, recreates }));
}

const EVICT = { deleteInsteadOfEvict: false, budgetsKnown: true };

const summary = (schedule: ReturnType<typeof scheduleEvictions>) =>
  Object.fromEntries(
    [...schedule.pods].map(([key, s]) => [key, { outcome: s.outcome, wave: s.wave, reason: s.reason }]),
  );

describe('scheduleEvictions', () => {
  it('a budget allowing one disruption lets the pods go one per wave, evicting then placing in each wave', () => {
    const placer = placerWithRoom(10);
    const schedule = scheduleEvictions(
      candidates([web('a').obj(), web('b').obj()], [oneAtATime().obj()]),
      placer,
      EVICT,
    );
    expect(summary(schedule)).toEqual({
      'shop/a': { outcome: 'immediate', wave: 1, reason: 'budget shop/web allows 1 disruption now' },
      'shop/b': {
        outcome: 'waits',
        wave: 2,
        reason: 'waits for budget shop/web: admitted in wave 2, once earlier replacements are Ready',
      },
    });
    expect(placer.calls).toEqual(['evict a', 'place a', 'evict b', 'place b']);
    expect(schedule.budgets.get('shop/web')).toEqual({ perWave: 1, waves: 2 });
    expect(schedule.pods.get('shop/a')?.replacement?.placedOn).toBe('spare');
  });

  it('a budget with room for every pod lets them all go in wave 1', () => {
    const pdb = budget()
      .maxUnavailable(2)
      .status({ disruptionsAllowed: 2, currentHealthy: 4, desiredHealthy: 2, expectedPods: 4 });
    const placer = placerWithRoom(10);
    const schedule = scheduleEvictions(candidates([web('a').obj(), web('b').obj()], [pdb.obj()]), placer, EVICT);
    expect([...schedule.pods.values()].map((s) => s.wave)).toEqual([1, 1]);
    expect(placer.calls).toEqual(['evict a', 'evict b', 'place a', 'place b']);
    expect(schedule.budgets.get('shop/web')).toEqual({ perWave: 2, waves: 1 });
  });

  it('is blocked, not slow, when the replacement of an earlier pod of the budget cannot be scheduled', () => {
    const schedule = scheduleEvictions(
      candidates([web('a').obj(), web('b').obj()], [oneAtATime().obj()]),
      placerWithRoom(0),
      EVICT,
    );
    expect(summary(schedule)['shop/b']).toEqual({
      outcome: 'blocked',
      wave: null,
      reason: 'budget shop/web will not free up: the replacement of shop/a cannot be scheduled',
    });
  });

  describe('behind a replacement whose fate is unknown', () => {
    /** placerWithRoom, with the first replacement's fate unknown. */
    function unknownFirst(room: number): ReplacementPlacer & { calls: string[] } {
      const placer = placerWithRoom(room);
      let first = true;
      return {
        ...placer,
        place: (pod) => {
          const plan = placer.place(pod);
          if (!first) return plan;
          first = false;
          return { ...plan, unknown: 'the race decides' };
        },
      };
    }
    const pods = () => candidates([web('a').obj(), web('b').obj(), web('c').obj()], [oneAtATime().obj()]);
    const why =
      'budget shop/web frees up only once the replacement of shop/a is Ready, and whether that replacement finds a node is unknown';

    it("the budget's later waves are unknown, naming that replacement, when the plan finds it a node", () => {
      const schedule = scheduleEvictions(pods(), unknownFirst(10), EVICT);
      expect(schedule.pods.get('shop/a')?.unknown).toBeUndefined();
      for (const key of ['shop/b', 'shop/c']) {
        expect(schedule.pods.get(key)).toMatchObject({ outcome: 'waits', unknown: why });
        expect(schedule.pods.get(key)?.reason).toMatch(new RegExp(`; whether it goes is unknown: ${why}$`));
      }
      expect(schedule.budgets.get('shop/web')).toEqual({ perWave: 1, waves: 3, unknown: why });
    });

    it('the pods it blocks are unknown too, when the plan finds it no node', () => {
      const schedule = scheduleEvictions(pods(), unknownFirst(0), EVICT);
      expect(schedule.pods.get('shop/b')).toMatchObject({ outcome: 'blocked', unknown: why });
      expect(schedule.budgets.get('shop/web')).toEqual({ perWave: 1, waves: 1, unknown: why });
    });

    it('places each replacement once: the budgets are played again on their arithmetic alone', () => {
      const placer = unknownFirst(10);
      scheduleEvictions(pods(), placer, EVICT);
      expect(placer.calls).toEqual(['evict a', 'place a', 'evict b', 'place b', 'evict c', 'place c']);
    });

    it('a later drain-order group keeps the budget unknown that an earlier group left in doubt', () => {
      const order = {
        by: 'annotation' as const,
        groups: [
          { index: 1, key: 0, pods: ['shop/a', 'shop/b'] },
          { index: 2, key: 1, pods: ['shop/c'] },
        ],
        problems: [],
      };
      const schedule = scheduleInGroups(pods(), order, unknownFirst(10), EVICT);
      expect(schedule.pods.get('shop/b')?.unknown).toBe(why);
      expect(schedule.budgets.get('shop/web')).toEqual({ perWave: 1, waves: 3, unknown: why });
    });

    it('reads a fate the placer calls unknown only after the budget counted the replacement (settleRound)', () => {
      // The placer finds each replacement a node, and once the wave's own replacements are placed calls
      // the first one's fate unknown, in a new plan (as SchedulingSimulation.checkOrder does).
      const placer = placerWithRoom(10);
      const plans: Array<[V1Pod, ReplacementPlan]> = [];
      const late: ReplacementPlacer = {
        ...placer,
        place: (pod) => {
          const plan = placer.place(pod);
          plans.push([pod, plan]);
          return plan;
        },
        settleRound: () =>
          new Map(
            plans.length === 1
              ? [[plans[0]![0], { ...plans[0]![1], placedOn: null, unknown: 'the order decides' }]]
              : [],
          ),
      };
      const schedule = scheduleEvictions(pods(), late, EVICT);
      expect(schedule.pods.get('shop/a')?.replacement?.unknown).toBe('the order decides');
      for (const key of ['shop/b', 'shop/c'])
        expect(schedule.pods.get(key)).toMatchObject({ wave: expect.any(Number), unknown: why });
      expect(schedule.budgets.get('shop/web')?.unknown).toBe(why);
      expect(placer.calls).toEqual(['evict a', 'place a', 'evict b', 'place b', 'evict c', 'place c']);
    });

    interface SpareCase {
      name: string;
      pdb: ReturnType<typeof spare>;
      pods: string[];
      /** wave, and what of it is unknown (whether it goes, or only its wave), by pod. */
      expected: Record<string, [number | null, 'whether' | 'wave' | false]>;
      budgetUnknown: boolean;
    }
    const cases: SpareCase[] = [
      {
        name: 'A budget allowing one disruption lets the second pod go only once the unknown replacement is Ready',
        pdb: oneAtATime(),
        pods: ['a', 'b'],
        expected: { a: [1, false], b: [2, 'whether'] },
        budgetUnknown: true,
      },
      {
        name: "A budget with room to spare lets the third pod go in wave 2 on the second pod's replacement alone",
        pdb: spare(2, 3),
        pods: ['a', 'b', 'c'],
        expected: { a: [1, false], b: [1, false], c: [2, false] },
        budgetUnknown: false,
      },
      {
        name: 'A budget that allows every pod at once waits for no replacement',
        pdb: spare(3, 4),
        pods: ['a', 'b', 'c'],
        expected: { a: [1, false], b: [1, false], c: [1, false] },
        budgetUnknown: false,
      },
      {
        name: 'A pod the budget lets go either way, in a later wave should the unknown replacement never be Ready, has an unknown wave',
        pdb: spare(2, 4),
        pods: ['a', 'b', 'c', 'd'],
        // Never Ready: wave 2 has room for c alone (b's replacement gives one disruption back), d goes in wave 3.
        expected: { a: [1, false], b: [1, false], c: [2, false], d: [2, 'wave'] },
        budgetUnknown: true,
      },
    ];
    it.each(cases)('$name', ({ pdb, pods: names, expected, budgetUnknown }) => {
      const schedule = scheduleEvictions(
        candidates(
          names.map((n) => web(n).obj()),
          [pdb.obj()],
        ),
        unknownFirst(10),
        EVICT,
      );
      const got = Object.fromEntries(
        names.map((n) => {
          const s = schedule.pods.get(`shop/${n}`)!;
          const doubt = s.unknown !== undefined ? 'whether' : s.waveUnknown !== undefined ? 'wave' : false;
          return [n, [s.wave, doubt]];
        }),
      );
      expect(got).toEqual(expected);
      for (const n of names.filter((n) => expected[n]![1] !== false)) {
        const s = schedule.pods.get(`shop/${n}`)!;
        expect(s.unknown ?? s.waveUnknown).toBe(why);
        const text =
          s.unknown !== undefined ? 'whether it goes is unknown' : 'it goes either way, but in which wave is unknown';
        expect(s.reason).toMatch(new RegExp(`; ${text}: ${why}$`));
      }
      expect(schedule.budgets.get('shop/web')?.unknown).toBe(budgetUnknown ? why : undefined);
    });
  });

  it('is blocked when an earlier pod of the budget is not recreated (a bare pod under --force)', () => {
    const schedule = scheduleEvictions(
      candidates([web('a').obj(), web('b').obj()], [oneAtATime().obj()], false),
      placerWithRoom(10),
      EVICT,
    );
    expect(summary(schedule)['shop/b']?.reason).toBe('budget shop/web will not free up: shop/a is not recreated');
    expect(schedule.pods.get('shop/a')?.replacement).toBeNull();
  });

  it('a budget with maxUnavailable 0 blocks every healthy pod', () => {
    const pdb = budget()
      .maxUnavailable(0)
      .status({ disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 2, expectedPods: 2 });
    const schedule = scheduleEvictions(candidates([web('a').obj()], [pdb.obj()]), placerWithRoom(10), EVICT);
    expect(summary(schedule)['shop/a']).toEqual({
      outcome: 'blocked',
      wave: null,
      reason: 'budget shop/web never allows an eviction: maxUnavailable is 0',
    });
  });

  it('a pod selected by two budgets is blocked: the API answers 500', () => {
    const other = makePdb().name('all').ns('shop').selector({}).maxUnavailable(1);
    const pdbs = [
      oneAtATime().obj(),
      other.status({ disruptionsAllowed: 1, currentHealthy: 4, desiredHealthy: 3, expectedPods: 4 }).obj(),
    ];
    const placer = placerWithRoom(10);
    const schedule = scheduleEvictions(candidates([web('a').obj()], pdbs), placer, EVICT);
    expect(summary(schedule)['shop/a']).toEqual({
      outcome: 'blocked',
      wave: null,
      reason:
        'the API answers 500 "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support." (shop/web, shop/all)',
    });
    expect(placer.calls).toEqual([]);
  });

  it('a stale budget admits nothing until the disruption controller catches up', () => {
    const pdb = oneAtATime()
      .generation(2)
      .status({ disruptionsAllowed: 1, currentHealthy: 4, desiredHealthy: 3, expectedPods: 4, observedGeneration: 1 });
    const schedule = scheduleEvictions(candidates([web('a').obj()], [pdb.obj()]), placerWithRoom(10), EVICT);
    expect(summary(schedule)['shop/a']).toEqual({
      outcome: 'waits',
      wave: 2,
      reason:
        'waits for budget shop/web: admitted in wave 2, after the disruption controller catches up (status is stale, observedGeneration 1 < generation 2: the API answers 429 until then)',
    });
  });

  it('a budget the disruption controller cannot compute (SyncFailed) blocks its pods', () => {
    const pdb = oneAtATime().obj();
    pdb.status!.conditions = [
      {
        type: 'DisruptionAllowed',
        status: 'False',
        reason: 'SyncFailed',
        message: 'found no controllers for pod "a"',
        lastTransitionTime: new Date(0),
      },
    ];
    const schedule = scheduleEvictions(candidates([web('a').obj()], [pdb]), placerWithRoom(10), EVICT);
    expect(summary(schedule)['shop/a']?.reason).toBe(
      'budget shop/web cannot be computed by the disruption controller (found no controllers for pod "a"): the API answers 429 until that is fixed',
    );
  });

  it('a budget short of healthy pods elsewhere blocks the drain until they become Ready', () => {
    const pdb = budget()
      .maxUnavailable(1)
      .status({ disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 3, expectedPods: 4 });
    const schedule = scheduleEvictions(candidates([web('a').obj()], [pdb.obj()]), placerWithRoom(10), EVICT);
    expect(summary(schedule)['shop/a']?.reason).toBe(
      'budget shop/web allows 0 disruptions (needs 3 healthy pods, has 2) and the drain frees none: it waits for pods elsewhere to become Ready',
    );
  });

  describe('pods that are not Ready', () => {
    const exhausted = { disruptionsAllowed: 0, currentHealthy: 3, desiredHealthy: 3, expectedPods: 4 };
    const short = { disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 3, expectedPods: 4 };
    const cases = [
      {
        name: 'AlwaysAllow lets an unready pod go at once although the budget allows 0',
        pdb: budget().maxUnavailable(1).unhealthyPodEvictionPolicy('AlwaysAllow').status(short),
        expected: {
          outcome: 'immediate',
          wave: 1,
          reason:
            'not Ready, and budget shop/web has unhealthyPodEvictionPolicy AlwaysAllow: it goes without spending a disruption',
        },
      },
      {
        name: 'IfHealthyBudget lets an unready pod go while the budget is healthy',
        pdb: budget().maxUnavailable(1).status(exhausted),
        expected: {
          outcome: 'immediate',
          wave: 1,
          reason: 'not Ready, and budget shop/web is healthy (3 healthy >= 3 desired): IfHealthyBudget lets it go',
        },
      },
      {
        name: 'IfHealthyBudget holds an unready pod while the budget is short',
        pdb: budget().maxUnavailable(1).status(short),
        expected: {
          outcome: 'blocked',
          wave: null,
          reason:
            'budget shop/web allows 0 disruptions (needs 3 healthy pods, has 2) and the drain frees none: it waits for pods elsewhere to become Ready',
        },
      },
    ];
    it.each(cases)('$name', ({ pdb, expected }) => {
      const schedule = scheduleEvictions(
        candidates([web('a').ready(false).obj()], [pdb.obj()]),
        placerWithRoom(10),
        EVICT,
      );
      expect(summary(schedule)['shop/a']).toEqual(expected);
    });
  });

  describe('pods the API deletes without consulting budgets', () => {
    const zero = () =>
      budget()
        .maxUnavailable(0)
        .status({ disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 2, expectedPods: 2 })
        .obj();
    const cases = [
      {
        name: 'An already-terminating pod is evicted again at once, and its replacement already exists',
        pod: web('a').deleting(1_700_000_000).obj(),
        reason: 'already terminating: the API deletes it without consulting budgets',
        placed: false,
      },
      {
        name: 'A finished pod is deleted at once and not replaced',
        pod: web('a').phase('Failed').obj(),
        reason: 'finished (Failed): the API deletes it without consulting budgets',
        placed: false,
      },
      {
        name: 'A Pending pod is deleted at once and replaced',
        pod: web('a').phase('Pending').ready(false).obj(),
        reason: 'Pending: the API deletes it without consulting budgets',
        placed: true,
      },
    ];
    it.each(cases)('$name', ({ pod, reason, placed }) => {
      const placer = placerWithRoom(10);
      const schedule = scheduleEvictions(candidates([pod], [zero()]), placer, EVICT);
      expect(summary(schedule)['shop/a']).toEqual({ outcome: 'immediate', wave: 1, reason });
      expect(placer.calls).toEqual(placed ? ['evict a', 'place a'] : ['evict a']);
    });

    it('With --disable-eviction every pod is deleted at once, budgets or not', () => {
      const schedule = scheduleEvictions(candidates([web('a').obj(), web('b').obj()], [zero()]), placerWithRoom(10), {
        ...EVICT,
        deleteInsteadOfEvict: true,
      });
      expect([...schedule.pods.values()].map((s) => [s.outcome, s.wave, s.reason])).toEqual([
        ['immediate', 1, 'deleted (--disable-eviction): budgets are not consulted'],
        ['immediate', 1, 'deleted (--disable-eviction): budgets are not consulted'],
      ]);
    });
  });

  it('a pod with no budget, when budgets were not loaded, goes at once and says budgets are unknown', () => {
    const schedule = scheduleEvictions(candidates([web('a').obj()], []), placerWithRoom(10), {
      ...EVICT,
      budgetsKnown: false,
    });
    expect(summary(schedule)['shop/a']?.reason).toBe('PodDisruptionBudgets were not loaded: taken as having none');
  });

  it('a pod no budget selects goes at once', () => {
    const schedule = scheduleEvictions(candidates([web('a').obj()], []), placerWithRoom(10), EVICT);
    expect(summary(schedule)['shop/a']).toEqual({
      outcome: 'immediate',
      wave: 1,
      reason: 'no PodDisruptionBudget selects it',
    });
  });
});

describe("a budget behind a replacement whose fate the wave's StatefulSet replacement decides", () => {
  // n1 is drained: db-0 (StatefulSet, priority 1000, no budget), web-a and web-b (Deployment web, budget
  // shop/web one at a time). n2 has room for one 1-cpu pod besides low-a (priority 0). In the plan's order
  // web-a's replacement takes that room and db-0's, made once its pod is gone, preempts low-a; met first,
  // db-0's takes it and web-a's finds no node (checkOrder, once the wave is placed). web-b goes once
  // web-a's replacement is Ready: whether it goes at all is unknown.
  const worker = (name: string, cpu: string) => makeNode().name(name).allocatable(cpu, '8Gi').obj();
  const pod = (name: string, namespace: string, node: string) =>
    makePod().name(name).ns(namespace).node(node).requests('1', '64Mi');
  const web = (name: string) => pod(name, 'shop', 'n1').label('app', 'web').owner('ReplicaSet', 'web-1');
  const plan = buildPlan(
    makeIndex({
      nodes: [worker('n1', '8'), worker('n2', '2')],
      pods: [
        pod('db-0', 'shop', 'n1').label('app', 'db').owner('StatefulSet', 'db').priority(1000).obj(),
        web('web-a').obj(),
        web('web-b').obj(),
        pod('low-a', 'batch', 'n2').owner('ReplicaSet', 'low-1').obj(),
      ],
      pdbs: [spare(1, 3).obj()],
      replicaSets: [makeReplicaSet().name('web-1').ns('shop').owner('Deployment', 'web').obj()],
      deployments: [makeDeployment().name('web').ns('shop').replicas(3).obj()],
      statefulSets: [makeStatefulSet().name('db').ns('shop').replicas(1).obj()],
    }),
    options(),
  );
  const podOf = (name: string) => plan.pods.find((p) => p.name === name)!;
  const why =
    'budget shop/web frees up only once the replacement of shop/web-a is Ready, and whether that replacement finds a node is unknown';

  it("calls web-a's replacement unknown: met after db-0's, it finds no node", () => {
    expect(podOf('web-a')).toMatchObject({ wave: 1, replacement: { unknown: REPLACEMENT_ORDER_UNKNOWN } });
    expect(podOf('web-a').replacement?.message).toMatch(/met after the replacement of db-0, it would find no node\.$/);
  });

  it("leaves whether web-b goes unknown, and its budget's waves, naming that replacement", () => {
    expect(podOf('web-b')).toMatchObject({ outcome: 'waits', wave: 2, outcomeUnknown: why });
    expect(plan.budgets.find((b) => b.name === 'web')?.unknown).toBe(why);
  });

  it('does not call the drain one that finishes', () => {
    expect(plan.verdict).toBe('blocked');
    expect(plan.verdictReasons).toContain(
      `whether shop/web-b can be evicted is unknown, so the drain may not finish: ${why}`,
    );
  });
});

describe('a budget with room to spare behind a replacement whose fate is unknown', () => {
  // Budget shop/web allows 2 of its 4 pods down, all on the drained n1: gated-a (ReplicaSet gated, whose
  // template has a scheduling gate: where its replacement runs, and whether, is unknown) and web-b, web-c,
  // web-d (ReplicaSet web-1). Wave 1 evicts gated-a and web-b. Should gated-a's replacement never be Ready,
  // web-b's alone gives a disruption back: web-c goes in wave 2, web-d in wave 3 once web-c's is Ready.
  const pod = (name: string, owner: string) =>
    makePod().name(name).ns('shop').node('n1').label('app', 'web').owner('ReplicaSet', owner).requests('100m');
  const gated = makeReplicaSet().name('gated').ns('shop').obj();
  gated.spec!.template!.spec!.schedulingGates = [{ name: 'example.com/capacity' }];
  const plan = buildPlan(
    makeIndex({
      nodes: [makeNode().name('n1').obj(), makeNode().name('n2').obj()],
      pods: [pod('gated-a', 'gated').obj(), ...['web-b', 'web-c', 'web-d'].map((n) => pod(n, 'web-1').obj())],
      pdbs: [spare(2, 4).obj()],
      replicaSets: [gated, makeReplicaSet().name('web-1').ns('shop').obj()],
    }),
    options(),
  );
  const podOf = (name: string) => plan.pods.find((p) => p.name === name)!;
  const why =
    'budget shop/web frees up only once the replacement of shop/gated-a is Ready, and whether that replacement finds a node is unknown';

  it('lets web-d go either way, in wave 2 or 3: its wave is unknown, not whether it goes', () => {
    expect(podOf('gated-a').replacement?.unknown).toMatch(/^its pod template has scheduling gates/);
    expect(podOf('web-c')).toMatchObject({ outcome: 'waits', wave: 2 });
    expect(podOf('web-c').waveUnknown).toBeUndefined();
    expect(podOf('web-d')).toMatchObject({ outcome: 'waits', wave: 2, waveUnknown: why });
    expect(podOf('web-d').outcomeUnknown).toBeUndefined();
    expect(plan.budgets.find((b) => b.name === 'web')?.unknown).toBe(why);
  });

  it('calls the drain slow, saying which pod goes in a wave the plan cannot tell', () => {
    expect(plan.verdict).toBe('slow');
    expect(plan.verdictReasons).toContain(`shop/web-d can be evicted either way, but in which wave is unknown: ${why}`);
  });
});

describe("a budget whose wave's evictions race a preemption of one of its pods", () => {
  /** A filler pod on the drained node, no budget: its replacement preempts shop/web-z (breaking shop/web). */
  const filler = makePod().name('filler').ns('shop').node('n1').label('app', 'filler').owner('ReplicaSet', 'filler-1');
  /** Every replacement fits; the filler's preempts web-z on n2, which breaks `budget`. */
  function preemptingPlacer(budgetBroken: BudgetKey): ReplacementPlacer {
    return {
      evict: () => undefined,
      place: (pod): ReplacementPlan => {
        const preempts = pod.metadata?.name === 'filler';
        const victim = {
          namespace: 'shop',
          name: 'web-z',
          node: 'n2',
          priority: 0,
          controller: null,
          replacement: null,
        };
        return {
          schedulable: true,
          nodes: ['n2'],
          placedOn: 'n2',
          rejected: [],
          message: '',
          ...(preempts
            ? {
                preemption: {
                  node: 'n2',
                  victims: [{ ...victim, budgetsBroken: [budgetBroken] }],
                  budgetsBroken: [budgetBroken],
                  tiedWith: [],
                },
              }
            : {}),
        };
      },
    };
  }
  const candidatesOf = (pods: V1Pod[], pdb: V1PodDisruptionBudget) => [
    { pod: filler.obj(), key: podKey(filler.obj()), budgets: [], recreates: true },
    ...candidates(pods, [pdb]),
  ];

  it("leaves whether two of the budget's pods admitted in that wave go unknown, and the budget's waves", () => {
    const schedule = scheduleEvictions(
      candidatesOf([web('a').obj(), web('b').obj()], spare(2, 5).obj()),
      preemptingPlacer('shop/web'),
      EVICT,
    );
    for (const name of ['a', 'b']) {
      expect(schedule.pods.get(`shop/${name}`)).toMatchObject({
        wave: 1,
        unknown: expect.stringMatching(
          /^the API server admits one of budget shop\/web's evictions of a wave at once and the others after a conflict, 500 ms later, while the replacement of shop\/filler preempts shop\/web-z in that wave/,
        ),
      });
    }
    expect(schedule.pods.get('shop/filler')?.unknown).toBeUndefined();
    expect(schedule.budgets.get('shop/web')?.unknown).toBe(schedule.pods.get('shop/a')?.unknown);
  });

  it('leaves a budget that admits one pod in that wave known: the API server admits it at once', () => {
    const schedule = scheduleEvictions(
      candidatesOf([web('a').obj()], spare(1, 5).obj()),
      preemptingPlacer('shop/web'),
      EVICT,
    );
    expect(schedule.pods.get('shop/a')).toMatchObject({ wave: 1 });
    expect(schedule.pods.get('shop/a')?.unknown).toBeUndefined();
    expect(schedule.budgets.get('shop/web')?.unknown).toBeUndefined();
  });

  it('leaves the budget known when the preemption breaks another budget', () => {
    const schedule = scheduleEvictions(
      candidatesOf([web('a').obj(), web('b').obj()], spare(2, 5).obj()),
      preemptingPlacer('shop/other'),
      EVICT,
    );
    expect([...schedule.pods.values()].filter((s) => s.unknown !== undefined)).toEqual([]);
  });
});
