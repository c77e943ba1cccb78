import type { V1Node, V1Pod, V1PodDisruptionBudget } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../../../src/plan/build-plan.js';
import { numCandidates } from '../../../../src/plan/scheduling/plugins/default-preemption.js';
import { SchedulingSimulation } from '../../../../src/plan/scheduling/simulation.js';
import type { ReplacementPlan } from '../../../../src/plan/types.js';
import { renderPlanText } from '../../../../src/ui/plan-text.js';
import { makeIndex, makeNode, makePdb, makePod, makeReplicaSet } from '../../builders.js';
import { options } from '../rules-fixture.js';

// Upstream's fixtures (default_preemption_test.go): priorities and requests (cpu, memory in bytes).
const [neg, low, mid, high, veryHigh] = [-100, 0, 100, 1000, 10000];
const small = ['100m', '100'] as const;
const medium = ['200m', '200'] as const;
const large = ['300m', '300'] as const;
const veryLarge = ['500m', '500'] as const;
type Res = readonly [string, string];

/** A pod on a node: name, node, priority, requests, start time (seconds after the epoch). */
function running(name: string, node: string, priority: number, res: Res, started?: number, labels = {}): V1Pod {
  const pod = makePod().name(name).node(node).priority(priority).requests(res[0], res[1]).labels(labels).obj();
  if (started !== undefined) pod.status!.startTime = new Date(started * 1000);
  return pod;
}

/**
 * The scene of every case: the preemptor runs on a drained node of its own beside `nodes`; it is evicted
 * and its replacement placed. The drained node is rejected as unresolvable, so it adds one "Preemption is
 * not helpful" to the messages.
 */
function placeFromDrained(
  nodes: readonly V1Node[],
  preemptor: V1Pod,
  pods: readonly V1Pod[],
  pdbs: readonly V1PodDisruptionBudget[] = [],
): ReplacementPlan {
  const all = [...nodes, makeNode().name('drained').allocatable('4', '4Gi').obj()];
  const sim = new SchedulingSimulation(
    makeIndex({ nodes: all, pods: [preemptor, ...pods], pdbs: [...pdbs] }),
    new Set(['drained']),
  );
  sim.evict(preemptor);
  return sim.place(preemptor);
}

/**
 * Upstream's dry run seen through the drain: each node has the capacity of `veryLargeRes` (and 32 pods),
 * and the preemptor's replacement fits nowhere else without preempting.
 */
function preempt(
  nodeNames: readonly string[],
  preemptor: { priority: number; res: Res; never?: boolean },
  pods: readonly V1Pod[],
  pdbs: readonly V1PodDisruptionBudget[] = [],
): ReplacementPlan {
  const nodes = nodeNames.map((n) => makeNode().name(n).allocatable(veryLarge[0], veryLarge[1], '32').obj());
  const pod = running('p', 'drained', preemptor.priority, preemptor.res);
  pod.metadata!.ownerReferences = [
    { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'p', uid: 'rs-p', controller: true },
  ];
  if (preemptor.never) pod.spec!.preemptionPolicy = 'Never';
  return placeFromDrained(nodes, pod, pods, pdbs);
}

/** One pod of a node's table row: priority, requests, start time (seconds after the epoch). */
type PodRow = readonly [priority: number, res: Res, started: number];
const at = (priority: number, res: Res, started = 0): PodRow => [priority, res, started];

/** Upstream's pods per node, named as its fixtures name them: p1.1, p1.2… on node1, p2.1… on node2. */
function podsOn(rows: Readonly<Record<string, readonly PodRow[]>>): V1Pod[] {
  return Object.entries(rows).flatMap(([node, pods]) =>
    pods.map(([priority, res, started], i) =>
      running(`p${node.replace('node', '')}.${i + 1}`, node, priority, res, started),
    ),
  );
}

/** A budget's status as the disruption controller wrote it: what it allows, and the pods it already counts. */
function allowing(pdb: V1PodDisruptionBudget, disruptionsAllowed: number, disruptedPods: Record<string, Date> = {}) {
  pdb.status = { disruptionsAllowed, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0, disruptedPods };
  return pdb;
}

const victimsOf = (plan: ReplacementPlan) => plan.preemption?.victims.map((v) => v.name) ?? [];

interface BestCandidateCase {
  readonly name: string;
  readonly nodes: readonly string[];
  readonly preemptor: { priority: number; res: Res };
  readonly pods: readonly V1Pod[];
  /** Any of these is valid (upstream breaks the last tie at random). */
  readonly expected: readonly string[];
}

const n123 = ['node1', 'node2', 'node3'];
const bestCandidateCases: BestCandidateCase[] = [
  {
    name: 'a pod that fits on both nodes when lower priority pods are preempted',
    nodes: ['node1', 'node2'],
    preemptor: { priority: high, res: large },
    pods: [running('p1', 'node1', mid, large, 0), running('p2', 'node2', mid, large, 0)],
    expected: ['node1', 'node2'],
  },
  {
    name: 'node with min highest priority pod is picked',
    nodes: n123,
    preemptor: { priority: high, res: veryLarge },
    pods: podsOn({
      node1: [at(mid, medium), at(mid, large)],
      node2: [at(mid, medium), at(low, medium)],
      node3: [at(low, medium), at(low, medium)],
    }),
    expected: ['node3'],
  },
  {
    name: 'when highest priorities are the same, minimum sum of priorities is picked',
    nodes: n123,
    preemptor: { priority: high, res: veryLarge },
    pods: podsOn({
      node1: [at(mid, medium), at(mid, large)],
      node2: [at(mid, large), at(low, medium)],
      node3: [at(mid, medium), at(mid, medium)],
    }),
    expected: ['node2'],
  },
  {
    name: 'when highest priority and sum are the same, minimum number of pods is picked',
    nodes: n123,
    preemptor: { priority: high, res: veryLarge },
    pods: podsOn({
      node1: [at(mid, small), at(neg, small), at(mid, small), at(neg, small)],
      node2: [at(mid, large), at(neg, medium)],
      node3: [at(mid, medium), at(neg, small), at(low, small)],
    }),
    expected: ['node2'],
  },
  {
    name: 'sum of adjusted priorities is considered',
    nodes: n123,
    preemptor: { priority: high, res: veryLarge },
    pods: podsOn({
      node1: [at(mid, small), at(neg, small), at(neg, small)],
      node2: [at(mid, large), at(neg, medium)],
      node3: [at(mid, medium), at(neg, small), at(low, small)],
    }),
    expected: ['node2'],
  },
  {
    name: 'non-overlapping lowest high priority, sum priorities, and number of pods',
    nodes: ['node1', 'node2', 'node3', 'node4'],
    preemptor: { priority: veryHigh, res: veryLarge },
    pods: podsOn({
      node1: [at(mid, small), at(low, small), at(low, small)],
      node2: [at(high, large)],
      node3: [at(mid, medium), at(low, small), at(low, small), at(low, medium)],
      node4: [at(mid, medium), at(mid, small), at(mid, small), at(neg, small)],
    }),
    expected: ['node1'],
  },
  {
    name: "same priority, same number of victims, different start time for each node's pod",
    nodes: n123,
    preemptor: { priority: high, res: veryLarge },
    pods: podsOn({
      node1: [at(mid, medium, 2), at(mid, medium, 2)],
      node2: [at(mid, medium, 3), at(mid, medium, 3)],
      node3: [at(mid, medium, 1), at(mid, medium, 1)],
    }),
    expected: ['node2'],
  },
  {
    name: 'same priority, same number of victims, different start time for all pods',
    nodes: n123,
    preemptor: { priority: high, res: veryLarge },
    pods: podsOn({
      node1: [at(mid, medium, 4), at(mid, medium, 2)],
      node2: [at(mid, medium, 5), at(mid, medium, 1)],
      node3: [at(mid, medium, 3), at(mid, medium, 6)],
    }),
    expected: ['node3'],
  },
  {
    name: 'different priority, same number of victims, different start time for all pods',
    nodes: n123,
    preemptor: { priority: high, res: veryLarge },
    pods: podsOn({
      node1: [at(low, medium, 4), at(mid, medium, 2)],
      node2: [at(mid, medium, 6), at(low, medium, 1)],
      node3: [at(low, medium, 3), at(mid, medium, 5)],
    }),
    expected: ['node2'],
  },
];

describe('DefaultPreemption SelectCandidate (TestSelectBestCandidate)', () => {
  it.each(bestCandidateCases)('$name', ({ nodes, preemptor, pods, expected }) => {
    const plan = preempt(nodes, preemptor, pods);
    expect(plan.schedulable).toBe(true);
    expect(expected).toContain(plan.preemption?.node);
    expect(plan.placedOn).toBe(plan.preemption?.node);
    // Every node that ranks alike is named, so the plan says when the real choice is a coin toss.
    expect([plan.preemption!.node, ...plan.preemption!.tiedWith].sort()).toEqual(
      expected.length > 1 ? [...expected].sort() : [plan.preemption!.node],
    );
  });
});

const onePod = (name: string) => makeNode().name(name).allocatable('1', '1Gi', '1').obj();

describe('DefaultPreemption PostFilter (TestPostFilter)', () => {
  /** Nodes that take one pod each; the preemptor runs on a drained node of its own. */
  const onePodNodes = (preemptor: V1Pod, pods: V1Pod[], names: readonly string[], pdbs?: V1PodDisruptionBudget[]) =>
    placeFromDrained(names.map(onePod), preemptor, pods, pdbs);
  const preemptor = (priority: number) => makePod().name('p').node('drained').priority(priority).obj();
  const p = (name: string, node: string, priority = 0) => makePod().name(name).node(node).priority(priority).obj();

  it('pod with higher priority can be made schedulable', () => {
    const plan = onePodNodes(preemptor(high), [p('p1', 'node1')], ['node1']);
    expect([plan.placedOn, victimsOf(plan)]).toEqual(['node1', ['p1']]);
  });

  it('pod with tied priority is still unschedulable', () => {
    const plan = onePodNodes(preemptor(0), [p('p1', 'node1')], ['node1']);
    expect(plan).toMatchObject({ schedulable: false, placedOn: null });
    expect(plan.preemption).toBeUndefined();
    expect(plan.message).toBe(
      '0/2 nodes are available: 1 Too many pods, 1 node(s) were unschedulable.' +
        ' preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.',
    );
  });

  it('pod can be made schedulable on one node', () => {
    const plan = onePodNodes(preemptor(mid), [p('p1', 'node1', high), p('p2', 'node2', low)], ['node1', 'node2']);
    expect([plan.placedOn, victimsOf(plan)]).toEqual(['node2', ['p2']]);
  });

  it('pod can be made schedulable on minHighestPriority node (the node whose victim breaks no budget loses to the lower victim)', () => {
    const label = 'test.kubernetes.io/is-violating-pdb';
    const pods = [
      makePod().name('p1').node('node1').label(label, 'non-violating').priority(high).obj(),
      makePod().name('p2').node('node1').label(label, 'violating').priority(low).obj(),
      makePod().name('p3').node('node2').label(label, 'violating').priority(mid).obj(),
    ];
    const pdbs = [
      allowing(
        makePdb()
          .name('violating-pdb')
          .selector({ [label]: 'violating' })
          .minAvailable('100%')
          .obj(),
        0,
      ),
      allowing(
        makePdb()
          .name('non-violating-pdb')
          .selector({ [label]: 'non-violating' })
          .minAvailable(0)
          .obj(),
        2147483647,
      ),
    ];
    const plan = onePodNodes(preemptor(veryHigh), pods, ['node1', 'node2'], pdbs);
    expect([plan.placedOn, victimsOf(plan)]).toEqual(['node2', ['p3']]);
    expect(plan.preemption?.budgetsBroken).toEqual(['default/violating-pdb']);
    expect(plan.preemption?.victims[0]?.budgetsBroken).toEqual(['default/violating-pdb']);
  });

  it('no candidate nodes found, no enough resource after removing low priority pods', () => {
    // Upstream gives its nodes too little cpu for the preemptor; here a higher-priority pod holds it.
    const plan = preempt(['node1', 'node2'], { priority: high, res: large }, [
      running('h1', 'node1', veryHigh, ['300m', '0']),
      running('p1', 'node1', low, ['0', '0']),
      running('h2', 'node2', veryHigh, ['300m', '0']),
      running('p2', 'node2', low, ['0', '0']),
    ]);
    expect(plan).toMatchObject({ schedulable: false, placedOn: null });
    expect(plan.message).toMatch(
      / preemption: 0\/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 Insufficient cpu\.$/,
    );
  });

  it('a replacement with preemptionPolicy Never is not eligible to preempt', () => {
    const plan = preempt(['node1'], { priority: high, res: large, never: true }, [running('p1', 'node1', low, large)]);
    expect(plan).toMatchObject({ schedulable: false, placedOn: null });
    expect(plan.message).toBe(
      '0/2 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 1 node(s) were unschedulable.' +
        ' preemption: not eligible due to preemptionPolicy=Never.',
    );
  });

  it('no candidate nodes found with mixed reasons, no lower priority pod and no enough CPU resource', () => {
    const plan = preempt(['node1', 'node2'], { priority: high, res: veryLarge }, [
      running('p1', 'node1', high, small),
      running('p2', 'node2', low, small),
      running('p3', 'node2', high, small),
    ]);
    expect(plan.preemption).toBeUndefined();
    expect(plan.message).toMatch(
      / preemption: 0\/3 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling\.$/,
    );
  });
});

describe('DefaultPreemption SelectVictimsOnNode with budgets (TestDryRunPreemption)', () => {
  const foo = { app: 'foo' };
  const budget = (allowed: number, disruptedPods: Record<string, Date> = {}) =>
    allowing(makePdb().name('foo').selector(foo).minAvailable(1).obj(), allowed, disruptedPods);
  const p11 = running('p1.1', 'node1', mid, medium, undefined, foo);
  const p12 = running('p1.2', 'node1', mid, medium, undefined, foo);
  const p13 = running('p1.3', 'node1', mid, medium, undefined, foo);

  interface BudgetCase {
    readonly name: string;
    readonly pods: readonly V1Pod[];
    /** The pods the budget's status already lists in disruptedPods; it allows one disruption. */
    readonly disrupted: readonly string[];
    readonly victims: readonly string[];
    readonly broken: readonly string[];
  }
  const budgetCases: BudgetCase[] = [
    {
      name: 'preemption with violation of same pdb',
      pods: [p11, p12],
      disrupted: [],
      victims: ['p1.1', 'p1.2'],
      broken: ['default/foo'],
    },
    {
      name: "preemption with violation of the pdb with pod whose eviction was processed, the victim doesn't belong to DisruptedPods",
      pods: [p11, p12],
      disrupted: ['p2'],
      victims: ['p1.1', 'p1.2'],
      broken: ['default/foo'],
    },
    {
      name: 'preemption with violation of the pdb with pod whose eviction was processed, the victim belongs to DisruptedPods',
      pods: [p11, p12],
      disrupted: ['p1.2'],
      victims: ['p1.1', 'p1.2'],
      broken: [],
    },
    {
      name: "preemption with violation of the pdb with pod whose eviction was processed, the victim which belongs to DisruptedPods is treated as 'nonViolating'",
      pods: [p11, p12, p13],
      disrupted: ['p1.3'],
      victims: ['p1.1', 'p1.2', 'p1.3'],
      broken: ['default/foo'],
    },
  ];

  it.each(budgetCases)('$name', ({ pods, disrupted, victims, broken }) => {
    const disruptedPods = Object.fromEntries(disrupted.map((name) => [name, new Date(0)]));
    const plan = preempt(['node1'], { priority: high, res: veryLarge }, pods, [budget(1, disruptedPods)]);
    expect(victimsOf(plan).sort()).toEqual(victims);
    expect(plan.preemption?.budgetsBroken).toEqual(broken);
  });

  it('reprieves the pods whose deletion would break a budget first, keeping only as many victims as it needs', () => {
    // node1 has room for the preemptor once 300m are free: either victim would do; the one whose budget
    // has no disruption left is put back first, and it fits, so only the other one goes.
    const guarded = running('guarded', 'node1', low, large, 0, foo);
    const plain = running('plain', 'node1', low, large, 0, { app: 'bar' });
    const plan = preempt(['node1'], { priority: high, res: ['200m', '200'] }, [guarded, plain], [budget(0)]);
    expect(victimsOf(plan)).toEqual(['plain']);
    expect(plan.preemption?.budgetsBroken).toEqual([]);
  });

  it('prefers a node whose victims break no budget over one whose victims do (fewest PDB violations first)', () => {
    const plan = preempt(
      ['node1', 'node2'],
      { priority: high, res: large },
      [running('p1', 'node1', low, large, 0, foo), running('p2', 'node2', mid, large, 0)],
      [budget(0)],
    );
    expect([plan.placedOn, victimsOf(plan)]).toEqual(['node2', ['p2']]);
  });
});

describe('numCandidates (calculateNumCandidates with the default args)', () => {
  it('dry-runs every potential node under 100, then 10 % of them, never fewer than 100', () => {
    expect([numCandidates(3), numCandidates(100), numCandidates(500), numCandidates(5000)]).toEqual([3, 100, 100, 500]);
  });
});

const worker = (name: string) => makeNode().name(name).allocatable('2', '8Gi').obj();
const deployed = (name: string, node: string, priority: number, cpu: string) =>
  makePod()
    .name(`${name}-1`)
    .ns('demo')
    .node(node)
    .label('app', name)
    .owner('ReplicaSet', name)
    .priority(priority)
    .requests(cpu, '64Mi')
    .obj();
const onlyOn = (pod: V1Pod, node: string) => {
  pod.spec!.nodeSelector = { 'kubernetes.io/hostname': node };
  return pod;
};

describe('a drain whose replacement preempts: the plan names the victims and counts their disruption', () => {
  // The lab's preemption scenario as a snapshot: critical (priority 1000) on n1; n2 holds lowfill
  // (priority 100) and smalllow (priority 0). Only lowfill goes; its own replacement finds no node.
  const pods = [
    deployed('critical', 'n1', 1000, '1200m'),
    onlyOn(deployed('lowfill', 'n2', 100, '1000m'), 'n2'),
    onlyOn(deployed('smalllow', 'n2', 0, '600m'), 'n2'),
  ];
  const replicaSets = ['critical', 'lowfill', 'smalllow'].map((n) =>
    makeReplicaSet().name(n).ns('demo').owner('Deployment', n).obj(),
  );
  const budget = allowing(makePdb().name('lowfill').ns('demo').selector({ app: 'lowfill' }).minAvailable(1).obj(), 0);
  const plan = buildPlan(
    makeIndex({ nodes: [worker('n1'), worker('n2')], pods, replicaSets, pdbs: [budget] }),
    options(),
  );
  const critical = plan.pods.find((p) => p.name === 'critical-1')!;

  it('preempts lowfill, not the lower-priority smalllow, deleting it past its budget', () => {
    expect(critical.replacement).toMatchObject({ schedulable: true, placedOn: 'n2' });
    expect(critical.replacement!.preemption).toMatchObject({
      node: 'n2',
      budgetsBroken: ['demo/lowfill'],
      victims: [
        {
          namespace: 'demo',
          name: 'lowfill-1',
          node: 'n2',
          priority: 100,
          controller: { kind: 'Deployment', name: 'lowfill' },
        },
      ],
    });
    expect(plan.verdictReasons).toContain(
      'the replacement of demo/critical-1 preempts demo/lowfill-1 on n2: deleted, not evicted, breaking budget demo/lowfill',
    );
  });

  it("places the victim's own replacement after the wave: it finds no node, and its Deployment is an outage", () => {
    const own = critical.replacement!.preemption!.victims[0]!.replacement!;
    expect(own).toMatchObject({ schedulable: false, placedOn: null });
    expect(own.message).toBe(
      '0/2 nodes are available: 1 Insufficient cpu, 1 node(s) were unschedulable. ' +
        'preemption: 0/2 nodes are available: 1 Insufficient cpu, 1 Preemption is not helpful for scheduling.',
    );
    expect(plan.verdict).toBe('disruptive');
    expect(plan.outages?.map((o) => [o.kind, o.name, o.pods, o.until])).toEqual([
      ['Deployment', 'lowfill', ['demo/lowfill-1'], 'for-good'],
    ]);
  });

  it('shows the victims in the text plan', () => {
    const text = renderPlanText(plan);
    expect(text).toContain(
      '-> n2, preempting demo/lowfill-1 (priority 100; breaks budget demo/lowfill): no node for its replacement',
    );
  });
});

describe("a drain's own evictions spend the budgets preemption reads", () => {
  // n1 is drained: critical (priority 1000) and shared-a go in the first wave; shared-a's eviction spends
  // the one disruption budget demo/shared allows. critical's replacement must preempt on n2 (shared-b, the
  // budget's other pod, started later) or n3 (plain, no budget): with the budget spent, deleting shared-b
  // would break it, so kube-scheduler takes plain (fewest budget violations before latest start time).
  const started = (pod: V1Pod, at: string) => {
    pod.status = { ...pod.status, startTime: new Date(at) };
    return pod;
  };
  const shared = (name: string, node: string) => {
    const pod = deployed(name, node, 100, '1000m');
    pod.metadata!.labels = { app: 'shared' };
    return pod;
  };
  const pods = [
    deployed('critical', 'n1', 1000, '1200m'),
    shared('shared-a', 'n1'),
    started(onlyOn(shared('shared-b', 'n2'), 'n2'), '2026-06-01T00:00:00Z'),
    started(onlyOn(deployed('plain', 'n3', 100, '1000m'), 'n3'), '2026-01-01T00:00:00Z'),
  ];
  const replicaSets = ['critical', 'shared-a', 'shared-b', 'plain'].map((n) =>
    makeReplicaSet().name(n).ns('demo').owner('Deployment', n).obj(),
  );
  const budget = makePdb()
    .name('shared')
    .ns('demo')
    .selector({ app: 'shared' })
    .maxUnavailable(1)
    .status({ disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2 })
    .obj();

  it('preempts the pod no budget guards, not the one whose budget the wave spent', () => {
    const plan = buildPlan(
      makeIndex({ nodes: [worker('n1'), worker('n2'), worker('n3')], pods, replicaSets, pdbs: [budget] }),
      options(),
    );
    const critical = plan.pods.find((p) => p.name === 'critical-1')!;
    expect(plan.pods.find((p) => p.name === 'shared-a-1')).toMatchObject({ outcome: 'immediate' });
    expect(critical.replacement?.preemption).toMatchObject({
      node: 'n3',
      budgetsBroken: [],
      victims: [{ name: 'plain-1' }],
    });
  });
});
