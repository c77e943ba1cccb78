/**
 * What every simulation of one cluster state shares (SchedulerCache.memo: the spread domains walked over
 * the state's nodes, the node-object filters' verdicts, the pods a selector matches) must give each
 * simulation the answer a fresh state would: the pool plan runs hundreds of simulations, each draining
 * other nodes, against one state. The drained node is what differs: it is cordoned in its own simulation.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { syntheticClusterList } from '../../../../scripts/bench/synthetic-cluster.js';
import { SimulatedCluster } from '../../../../src/plan/scheduling/cluster-state.js';
import { podInfo } from '../../../../src/plan/scheduling/pod-info.js';
import {
  FILTER_PLUGINS,
  NODE_OBJECT_FILTERS,
  POD_FILTERS,
  preFilter,
  runFilters,
  runPodFilters,
} from '../../../../src/plan/scheduling/registry.js';
import { SchedulingSimulation } from '../../../../src/plan/scheduling/simulation.js';
import { ClusterIndex } from '../../../../src/snapshot/cluster-index.js';
import { snapshotFromDocuments } from '../../../../src/snapshot/load-file.js';
import { makeIndex, makeNode, makePod } from '../../builders.js';
import {
  allocated,
  claim,
  device,
  deviceClass,
  fromTemplate,
  shared,
  slice,
  template,
  withClaims,
} from './dra-fixtures.js';

const ZONE = 'topology.kubernetes.io/zone';
const zoned = (name: string, zone: string) => makeNode().name(name).label(ZONE, zone);
/** One web pod per zone, spread over zones; nodeTaintsPolicy Honor, so a cordoned node is no domain. */
const web = (name: string, node: string) =>
  makePod()
    .name(name)
    .label('app', 'web')
    .node(node)
    .spread(1, ZONE, { nodeTaintsPolicy: 'Honor' })
    .toleration({ key: 'dedicated', operator: 'Exists' })
    .obj();

const nodes = [
  zoned('a1', 'a').obj(),
  zoned('b1', 'b').obj(),
  zoned('c1', 'c').obj(),
  zoned('t1', 'a').taint('gpu', 'NoSchedule').obj(),
];
const pods = [web('w1', 'a1'), web('w2', 'b1'), web('w3', 'c1')];

/** Drains one node in its own simulation of `index`: evicts its pods, places their replacements. */
function drain(index: ClusterIndex, node: string) {
  const sim = new SchedulingSimulation(index, new Set([node]));
  const evicted = pods.filter((p: V1Pod) => p.spec?.nodeName === node);
  for (const pod of evicted) sim.evict(pod);
  return evicted.map((pod) => sim.place(pod));
}

describe('simulations sharing one cluster state', () => {
  it('see their own drained node cordoned, whatever an earlier simulation drained', () => {
    const shared = makeIndex({ nodes, pods });
    drain(shared, 'a1'); // fills the state's memos with a1 drained, c1 a domain
    const [w3] = drain(shared, 'c1');
    // c1 cordoned is no domain (Honor): zones a and b hold one pod each, so a or b takes it (skew 1).
    expect(w3).toMatchObject({ schedulable: true, nodes: ['a1', 'b1'] });
    expect(w3!.rejected).toEqual([
      { node: 'c1', reasons: ['node(s) were unschedulable'] },
      { node: 't1', reasons: ['node(s) had untolerated taint(s)'] },
    ]);
    expect(drain(shared, 'c1')).toEqual(drain(makeIndex({ nodes, pods }), 'c1'));
  });

  it('give every node, drained or not, in every order, the plan a fresh state gives', () => {
    const shared = makeIndex({ nodes, pods });
    for (const node of ['c1', 'a1', 'b1', 'c1', 'a1']) {
      expect(drain(shared, node)).toEqual(drain(makeIndex({ nodes, pods }), node));
    }
  });
});

describe("the pending pods' schedule the simulations of a cluster state share", () => {
  // `pending` needs claim gpu, allocated to a's device and used by no pod; a is full, so it stays pending
  // while a runs. With a drained the claim is released and allocated b's device: the pod takes b's room,
  // and the replacement of a's pod finds none.
  const input = {
    nodes: [makeNode().name('a').allocatable('1', '8Gi').obj(), makeNode().name('b').allocatable('1500m', '8Gi').obj()],
    pods: [
      makePod().name('web-0').node('a').owner('ReplicaSet', 'web').requests('1', '1Gi').obj(),
      withClaims(makePod().name('pending').phase('Pending').requests('1', '1Gi').obj(), shared('gpu', 'gpu')),
    ],
    deviceClasses: [deviceClass()],
    resourceSlices: [slice('a', [device('gpu-0')]), slice('b', [device('gpu-0')])],
    resourceClaims: [allocated(claim('gpu'), 'a', ['gpu-0'])],
  };
  const drainA = (index: ClusterIndex) => {
    const sim = new SchedulingSimulation(index, new Set(['a']));
    sim.evict(input.pods[0]!);
    return sim.place(input.pods[0]!);
  };

  it('is placed again where a drained node releases a claim a pending pod needs', () => {
    const state = makeIndex(input);
    new SchedulingSimulation(state, new Set(['b'])); // the state's first simulation: the next one shares
    const web = drainA(state);
    expect(web).toMatchObject({ schedulable: false });
    expect(web).toEqual(drainA(makeIndex(input)));
  });
});

describe("DynamicResources' verdicts the simulations of a cluster state share", () => {
  // Two jobs on `worker`, one GPU each from a template; worker-2 has one GPU free. Draining worker, the
  // first replacement takes it and the second finds none: a device taken by a simulation is its own.
  const job = (name: string) =>
    withClaims(
      makePod().name(name).uid(`${name}-uid`).node('worker').owner('ReplicaSet', 'job').obj(),
      fromTemplate('gpu', 'tmpl'),
    );
  const input = {
    nodes: [makeNode().name('worker').obj(), makeNode().name('worker-2').obj()],
    pods: [job('a'), job('b')],
    deviceClasses: [deviceClass()],
    resourceSlices: [slice('worker', [device('gpu-0'), device('gpu-1')]), slice('worker-2', [device('gpu-0')])],
    resourceClaimTemplates: [template('tmpl')],
  };
  const drainWorker = (index: ClusterIndex) => {
    const sim = new SchedulingSimulation(index, new Set(['worker']));
    for (const pod of input.pods) sim.evict(pod);
    return input.pods.map((pod) => sim.place(pod));
  };

  it('hold for each simulation: the device one took is free again in the next', () => {
    const state = makeIndex(input);
    const fresh = drainWorker(makeIndex(input));
    expect(fresh.map((p) => p.schedulable)).toEqual([true, false]);
    for (let i = 0; i < 3; i++) expect(drainWorker(state)).toEqual(fresh);
  });
});

describe('the filters a placement runs on a node it did not change', () => {
  it('are split by what each plugin reads: those reading the Node alone come first in the profile', () => {
    expect(NODE_OBJECT_FILTERS.map((p) => p.name)).toEqual(['NodeUnschedulable', 'TaintToleration', 'NodeAffinity']);
    // The kept node-object verdict, then the pod filters, is the whole list's only if none of the
    // latter comes before one of the former.
    expect(FILTER_PLUGINS).toEqual([...NODE_OBJECT_FILTERS, ...POD_FILTERS]);
  });

  it('reject as the whole plugin list does: the node-object verdict, then the pod filters the PreFilter did not skip', () => {
    // A generated cluster: taints, node selectors, host ports (DaemonSets), spread, anti-affinity, full nodes.
    const list = syntheticClusterList({ nodes: 60, pods: 1_500, namespaces: 6, zones: 3, seed: 11 });
    const index = new ClusterIndex(snapshotFromDocuments([list], { type: 'file', path: 'generated' }, 'generated'));
    const cluster = new SimulatedCluster(index, new Set([index.nodes[5]!.metadata!.name!]));
    const seen = new Set<string>();
    for (const pod of index.snapshot.pods.filter((_, i) => i % 7 === 0)) {
      const incoming = podInfo(pod, index.snapshot);
      const state = preFilter(incoming, cluster);
      for (const node of cluster.nodeInfos) {
        const whole = runFilters(incoming, node, state);
        for (const reason of whole?.reasons ?? ['passes']) seen.add(reason);
        expect(runFilters(incoming, node, state, NODE_OBJECT_FILTERS) ?? runPodFilters(incoming, node, state)).toEqual(
          whole,
        );
        expect(runPodFilters(incoming, node, state)).toEqual(runFilters(incoming, node, state, POD_FILTERS));
      }
    }
    expect(seen.size).toBeGreaterThan(4); // several filters reject, and some nodes pass
  });
});

describe('the scores the simulations of a cluster state keep', () => {
  /** Drains `old` in its own simulation of the state, `pod` alone evicted: its replacement's plan. */
  const placeAlone = (index: ClusterIndex, pod: V1Pod) => {
    const sim = new SchedulingSimulation(index, new Set(['old']));
    sim.evict(pod);
    return sim.place(pod);
  };
  /** Places each pod in its own simulation of one state, in order: each plan as a fresh state gives it. */
  function expectAsFresh(input: Parameters<typeof makeIndex>[0], order: readonly V1Pod[]) {
    const state = makeIndex(input);
    const plans = order.map((pod) => placeAlone(state, pod));
    expect(plans).toEqual(order.map((pod) => placeAlone(makeIndex(input), pod)));
    return plans;
  }

  it("the node-object filters' and NodeResourcesFit's verdicts: per the pod's tolerations and requests", () => {
    // a and b differ by their requests only, b and c by their tolerations only.
    const pod = (name: string, cpu: string) =>
      makePod().name(name).node('old').owner('ReplicaSet', name).requests(cpu, '1Gi');
    const [a, b, c] = [
      pod('a', '500m').obj(),
      pod('b', '3').obj(),
      pod('c', '3').toleration({ key: 'gpu', operator: 'Exists' }).obj(),
    ];
    const input = {
      nodes: [
        makeNode().name('old').obj(),
        makeNode().name('gpu').taint('gpu', 'NoSchedule').allocatable('8', '16Gi').obj(),
        makeNode().name('small').allocatable('1', '16Gi').obj(),
        makeNode().name('large').allocatable('4', '16Gi').obj(),
      ],
      pods: [a, b, c],
    };
    const plans = expectAsFresh(input, [a, b, c]);
    expect(plans.map((p) => p.nodes)).toEqual([['small', 'large'], ['large'], ['gpu', 'large']]);
  });

  it("TaintToleration's: per the pod's tolerations, not those of the pod that scored first", () => {
    // spot's PreferNoSchedule taint: a pod that does not tolerate it prefers plain; one that does finds
    // both alike.
    const shy = makePod().name('shy').node('old').owner('ReplicaSet', 'shy').requests('100m', '128Mi').obj();
    const bold = makePod()
      .name('bold')
      .node('old')
      .owner('ReplicaSet', 'bold')
      .requests('100m', '128Mi')
      .toleration({ key: 'spot', operator: 'Exists' })
      .obj();
    const input = {
      nodes: [
        makeNode().name('old').obj(),
        makeNode().name('spot').taint('spot', 'PreferNoSchedule').obj(),
        makeNode().name('plain').obj(),
      ],
      pods: [shy, bold],
    };
    const [shyPlan, boldPlan] = expectAsFresh(input, [shy, bold]);
    expect(shyPlan).toMatchObject({ placedOn: 'plain' });
    expect(boldPlan).toMatchObject({ placedOn: 'spot', tiedWith: ['plain'] });
  });

  it("PodTopologySpread's constraints: per the pod's labels, which matchLabelKeys reads", () => {
    // Each revision's pods spread over hostnames (ScheduleAnyway, per revision): revision 1 runs on n1,
    // revision 2 on n2, so each revision's replacement prefers the other node.
    const web = (name: string, revision: string, node: string) =>
      makePod()
        .name(name)
        .node(node)
        .owner('ReplicaSet', `web-${revision}`)
        .label('app', 'web')
        .spread(1, 'kubernetes.io/hostname', { whenUnsatisfiable: 'ScheduleAnyway', matchLabelKeys: ['rev'] })
        .label('rev', revision)
        .requests('100m', '128Mi')
        .obj();
    const [one, two] = [web('one', '1', 'old'), web('two', '2', 'old')];
    const input = {
      nodes: ['old', 'n1', 'n2'].map((name) => makeNode().name(name).obj()),
      pods: [one, two, web('r1-a', '1', 'n1'), web('r1-b', '1', 'n1'), web('r2-a', '2', 'n2'), web('r2-b', '2', 'n2')],
    };
    const [onePlan, twoPlan] = expectAsFresh(input, [one, two]);
    expect(onePlan).toMatchObject({ placedOn: 'n2' });
    expect(twoPlan).toMatchObject({ placedOn: 'n1' });
  });

  it("NodeResourcesFit's and BalancedAllocation's: per the pod's requests", () => {
    // small fits best on the empty small node; big leaves more of the large one free.
    const pod = (name: string, cpu: string) =>
      makePod().name(name).node('old').owner('ReplicaSet', name).requests(cpu, '1Gi').obj();
    const [small, big] = [pod('small', '100m'), pod('big', '1900m')];
    const input = {
      nodes: [
        makeNode().name('old').obj(),
        makeNode().name('little').allocatable('2', '8Gi').obj(),
        makeNode().name('large').allocatable('10', '8Gi').obj(),
      ],
      pods: [small, big, makePod().name('busy').node('large').requests('3', '1Gi').obj()],
    };
    const [smallPlan, bigPlan] = expectAsFresh(input, [small, big]);
    expect(smallPlan).toMatchObject({ placedOn: 'little' });
    expect(bigPlan).toMatchObject({ placedOn: 'large' });
  });
});
