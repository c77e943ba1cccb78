import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import {
  AFFINITY_RACE_UNKNOWN,
  REPLACEMENT_ORDER_UNKNOWN,
  SchedulingSimulation,
  UNMODELLED_SCHEDULER_RULES,
  feasibleNodesToFind,
} from '../../../../src/plan/scheduling/simulation.js';
import { FILTER_PLUGINS } from '../../../../src/plan/scheduling/registry.js';
import { makeIndex, makeNode, makePod } from '../../builders.js';
import { daemonPods, helloNodes, helloPods } from './hello-topology.js';

const ALL_HELLO_NODES = ['k8s-master-1', 'k8s-node-1', 'k8s-node-2'];

function drainHelloNode1(nodeTaintsPolicy?: 'Honor' | 'Ignore') {
  const hello = helloPods(nodeTaintsPolicy);
  const sim = new SchedulingSimulation(
    makeIndex({ nodes: helloNodes(), pods: [...hello, ...daemonPods(ALL_HELLO_NODES)] }),
    new Set(['k8s-node-1']),
  );
  const evicted = hello.filter((p) => p.spec?.nodeName === 'k8s-node-1');
  for (const pod of evicted) sim.evict(pod);
  return evicted.map((pod) => sim.place(pod));
}

/** Drains `drained`: evicts the given pods, then places their replacements in order. */
function drain(
  nodes: ReturnType<typeof makeNode>[],
  pods: V1Pod[],
  drained: string,
  evicted = pods.filter((p) => p.spec?.nodeName === drained),
) {
  const sim = new SchedulingSimulation(makeIndex({ nodes: nodes.map((n) => n.obj()), pods }), new Set([drained]));
  for (const pod of evicted) sim.evict(pod);
  return { sim, plans: evicted.map((pod) => sim.place(pod)) };
}

describe('SchedulingSimulation on the hello topology', () => {
  it('places both replacements on k8s-node-2 when nodeTaintsPolicy is Honor', () => {
    const [first, second] = drainHelloNode1('Honor');
    expect(first).toMatchObject({ schedulable: true, placedOn: 'k8s-node-2', nodes: ['k8s-node-2'] });
    expect(second).toMatchObject({ schedulable: true, placedOn: 'k8s-node-2' });
    expect(first!.rejected).toEqual([
      { node: 'k8s-master-1', reasons: ['node(s) had untolerated taint(s)'] },
      { node: 'k8s-node-1', reasons: ['node(s) were unschedulable'] },
    ]);
    expect(first!.message).toBe('1/3 nodes are available; the replacement would be assigned to k8s-node-2.');
  });

  it('refuses the replacement when nodeTaintsPolicy is Ignore: the tainted and the cordoned node pin the global minimum at 0', () => {
    const [first] = drainHelloNode1();
    expect(first).toMatchObject({ schedulable: false, placedOn: null, nodes: [] });
    expect(first!.message).toBe(
      "0/3 nodes are available: 1 node(s) didn't match pod topology spread constraints, 1 node(s) had untolerated taint(s), 1 node(s) were unschedulable." +
        ' preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.',
    );
  });
});

describe('SchedulingSimulation', () => {
  const worker = (name: string, cpu = '2') => makeNode().name(name).allocatable(cpu, '8Gi');
  const app = (name: string, node: string, cpu = '500m') =>
    makePod().name(name).node(node).label('app', 'web').owner('ReplicaSet', 'web-1').requests(cpu, '64Mi');

  it('makes two replacements compete for the last room: the second one finds none', () => {
    const pods = [app('web-1', 'n1').obj(), app('web-2', 'n1').obj(), app('filler', 'n2', '1500m').obj()];
    const { plans } = drain([worker('n1'), worker('n2')], pods, 'n1', pods.slice(0, 2));
    expect(plans[0]).toMatchObject({ schedulable: true, placedOn: 'n2' });
    expect(plans[1]).toMatchObject({ schedulable: false, placedOn: null });
    expect(plans[1]!.rejected).toEqual([
      { node: 'n1', reasons: ['node(s) were unschedulable'] },
      { node: 'n2', reasons: ['Insufficient cpu'] },
    ]);
  });

  it('makes replacements with the same host port take one node each', () => {
    const withPort = (name: string) => app(name, 'n1', '100m').hostPort(8443).obj();
    const pods = [withPort('p1'), withPort('p2'), withPort('p3')];
    const { plans } = drain([worker('n1'), worker('n2'), worker('n3')], pods, 'n1');
    expect(plans.map((p) => p.placedOn)).toEqual(['n2', 'n3', null]);
    expect(plans[2]!.message).toMatch(
      /^0\/3 nodes are available: 1 node\(s\) were unschedulable, 2 node\(s\) didn't have free ports/,
    );
  });

  it('refuses a replacement when required anti-affinity is at its capacity limit (one replica per node, no spare node)', () => {
    const anti = {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'kubernetes.io/hostname' },
        ],
      },
    };
    const pods = ['n1', 'n2', 'n3'].map((n) => app(`web-${n}`, n).affinity(anti).obj());
    const { plans } = drain([worker('n1'), worker('n2'), worker('n3')], pods, 'n1');
    expect(plans[0]!.message).toBe(
      "0/3 nodes are available: 1 node(s) were unschedulable, 2 node(s) didn't match pod anti-affinity rules." +
        ' preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.',
    );
    const { plans: withSpare } = drain([worker('n1'), worker('n2'), worker('n3'), worker('n4')], pods, 'n1');
    expect(withSpare[0]).toMatchObject({ schedulable: true, placedOn: 'n4' });
  });

  it('makes a replacement wait while its evicted predecessor still holds its zone under required anti-affinity', () => {
    const zone = (name: string, z: string) => worker(name).label('topology.kubernetes.io/zone', z);
    const anti = {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'topology.kubernetes.io/zone' },
        ],
      },
    };
    const pods = ['a1', 'b1', 'c1'].map((n) => app(`web-${n}`, n).affinity(anti).obj());
    const { plans } = drain([zone('a1', 'a'), zone('a2', 'a'), zone('b1', 'b'), zone('c1', 'c')], pods, 'a1');
    expect(plans[0]).toMatchObject({ schedulable: true, placedOn: 'a2', waitsForTermination: true });
    expect(plans[0]!.message).toBe(
      "0/4 nodes are available: 1 node(s) were unschedulable, 3 node(s) didn't match pod anti-affinity rules." +
        ' preemption: 0/4 nodes are available: 1 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod.' +
        ' Once the evicted pods are gone: 1/4 nodes are available; the replacement would be assigned to a2.',
    );
  });

  it('never puts a replacement back on a drained node, even when the pod tolerates the cordon', () => {
    const pods = [app('tolerant', 'n1').tolerateEverything().obj()];
    const { plans } = drain([worker('n1'), worker('n2', '100m')], pods, 'n1');
    expect(plans[0]!.rejected).toEqual([
      { node: 'n1', reasons: ['node(s) are being drained'] },
      { node: 'n2', reasons: ['Insufficient cpu'] },
    ]);
  });

  it('places a replacement away from its siblings, then on the least allocated node', () => {
    const pods = [
      app('web-1', 'n1').obj(),
      app('web-2', 'n2').obj(),
      app('busy', 'n4', '1').label('app', 'other').obj(),
    ];
    const { plans } = drain([worker('n1'), worker('n2'), worker('n3'), worker('n4')], pods, 'n1', [pods[0]!]);
    expect(plans[0]!.nodes).toEqual(['n2', 'n3', 'n4']);
    expect(plans[0]!.placedOn).toBe('n3');
  });
});

describe('SchedulingSimulation: a replacement whose required affinity selects pods of its wave being replaced', () => {
  // n1 (zone a) is drained of db-1 and web-1; web's pods require a db pod in their zone. The other db pod
  // is on n3 (zone c), too full for either replacement: db-1's goes to n2 (zone b), and web-1's beside it.
  const zone = (name: string, z: string, cpu = '2') =>
    makeNode().name(name).allocatable(cpu, '8Gi').label('topology.kubernetes.io/zone', z);
  const needsDb = (namespaceSelector?: object) => ({
    podAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: [
        {
          labelSelector: { matchLabels: { app: 'db' } },
          topologyKey: 'topology.kubernetes.io/zone',
          namespaceSelector,
        },
      ],
    },
  });
  const db = (name: string, node: string) =>
    makePod().name(name).node(node).label('app', 'db').owner('ReplicaSet', 'db-1').requests('500m', '64Mi');
  const web = (affinity: object) =>
    makePod()
      .name('web-1')
      .node('n1')
      .label('app', 'web')
      .owner('ReplicaSet', 'web-1')
      .requests('500m', '64Mi')
      .affinity(affinity);
  const namespaces = [{ metadata: { name: 'default', labels: { team: 'shop' } } }];

  function drainN1(affinity: object, more: V1Pod[] = []) {
    const pods = [db('db-1', 'n1').obj(), web(affinity).obj(), db('db-2', 'n3').obj(), ...more];
    const nodes = [zone('n1', 'a'), zone('n2', 'b'), zone('n3', 'c', '800m')].map((n) => n.obj());
    const sim = new SchedulingSimulation(makeIndex({ nodes, pods, namespaces }), new Set(['n1']));
    for (const pod of pods.slice(0, 2)) sim.evict(pod);
    return pods.slice(0, 2).map((pod) => sim.place(pod));
  }

  it('is unknown when, met before they are placed, it finds no node and a namespaceSelector keeps the scheduler from trying it again', () => {
    const [dbPlan, webPlan] = drainN1(needsDb({ matchLabels: { team: 'shop' } }));
    expect(dbPlan).toMatchObject({ placedOn: 'n2' });
    expect(dbPlan!.unknown).toBeUndefined();
    expect(webPlan).toMatchObject({ schedulable: true, nodes: ['n2'], placedOn: null, unknown: AFFINITY_RACE_UNKNOWN });
    expect(webPlan!.message).toContain(
      'its required pod affinity selects pods of its wave being replaced (db-1); met once their old pods are gone and before their replacements are placed, it would find no node, and kube-scheduler tries it again only when it flushes its unschedulable pods',
    );
  });

  it('keeps its node when the scheduler tries it again once they are bound (no namespaceSelector)', () => {
    const [, webPlan] = drainN1(needsDb());
    expect(webPlan).toMatchObject({ placedOn: 'n2' });
    expect(webPlan!.unknown).toBeUndefined();
  });

  it("is unknown when the plan places it first, in the zone of the other pod's old pod, which counts while it terminates", () => {
    // n4 shares zone a with the drained n1: placed before db-1's replacement, web-1's goes there.
    const pods = [
      web(needsDb({ matchLabels: { team: 'shop' } })).obj(),
      db('db-1', 'n1').obj(),
      db('db-2', 'n3').obj(),
    ];
    const nodes = [zone('n1', 'a'), zone('n2', 'b'), zone('n3', 'c', '800m'), zone('n4', 'a')].map((n) => n.obj());
    const sim = new SchedulingSimulation(makeIndex({ nodes, pods, namespaces }), new Set(['n1']));
    for (const pod of pods.slice(0, 2)) sim.evict(pod);
    const webPlan = sim.place(pods[0]!);
    expect(webPlan).toMatchObject({ schedulable: true, nodes: ['n4'], placedOn: null, unknown: AFFINITY_RACE_UNKNOWN });
    expect(webPlan.message).toContain(
      'selects pods of its wave being replaced (db-1); met once their old pods are gone',
    );
  });

  it('keeps its node when a pod outside the wave meets its affinity too', () => {
    const [, webPlan] = drainN1(needsDb({ matchLabels: { team: 'shop' } }), [db('db-3', 'n2').obj()]);
    expect(webPlan).toMatchObject({ placedOn: 'n2' });
    expect(webPlan!.unknown).toBeUndefined();
  });
});

describe("SchedulingSimulation: a wave's StatefulSet replacement met before its other ones", () => {
  // n1 (zone-a) is drained. n2 (zone-a, 1 cpu) holds low-a (priority 50, 500m): room for one more 500m
  // pod. n3 (zone-b, 1 cpu) is full with low-b (priority 0). db-0 (StatefulSet, priority 1000) may run in
  // zone-a only; filler (ReplicaSet, priority 100) anywhere.
  const node = (name: string, zone: string) =>
    makeNode().name(name).label('topology.kubernetes.io/zone', zone).allocatable('1', '8Gi');
  const nodes = [node('n1', 'zone-a'), node('n2', 'zone-a'), node('n3', 'zone-b')];
  const pod = (name: string, on: string, priority: number, cpu = '500m') =>
    makePod().name(name).node(on).requests(cpu, '64Mi').priority(priority);
  const db = pod('db-0', 'n1', 1000)
    .owner('StatefulSet', 'db')
    .nodeSelector({ 'topology.kubernetes.io/zone': 'zone-a' });
  const filler = pod('filler-x', 'n1', 100).owner('ReplicaSet', 'filler-1');
  const lowA = pod('low-a', 'n2', 50).owner('ReplicaSet', 'low-1');
  const lowB = pod('low-b', 'n3', 0, '1').owner('ReplicaSet', 'low-1');

  /** Drains n1 as the waves do: the round's evictions, its replacements in the queue's order, then the victims'. */
  function drainN1(evicted: V1Pod[], others: V1Pod[]) {
    const index = makeIndex({ nodes: nodes.map((n) => n.obj()), pods: [...evicted, ...others] });
    const sim = new SchedulingSimulation(index, new Set(['n1']));
    for (const p of evicted) sim.evict(p);
    const plans = new Map(sim.queueOrder(evicted).map((p) => [p.metadata!.name!, sim.place(p)]));
    for (const [p, plan] of sim.settleRound()) plans.set(p.metadata!.name!, plan);
    return plans;
  }

  it('calls both unknown where the order decides: met first, db-0 fits on n2 and the filler preempts on n3', () => {
    const plans = drainN1([db.obj(), filler.obj()], [lowA.obj(), lowB.obj()]);
    // The plan's order: the filler's replacement takes n2's room, db-0's preempts low-a there.
    expect(plans.get('filler-x')).toMatchObject({
      schedulable: true,
      placedOn: null,
      unknown: REPLACEMENT_ORDER_UNKNOWN,
    });
    expect(plans.get('filler-x')!.message).toMatch(
      /met after the replacement of db-0, it would preempt low-b on n3\.$/,
    );
    expect(plans.get('db-0')).toMatchObject({ placedOn: null, unknown: REPLACEMENT_ORDER_UNKNOWN });
    expect(plans.get('db-0')!.preemption?.victims.map((v) => v.name)).toEqual(['low-a']);
    expect(plans.get('db-0')!.message).toMatch(/met before the wave's other replacements, it would go to n2\.$/);
  });

  it('leaves each plan place() returned as it was: the findings of the round come back as new plans', () => {
    const evicted = [db.obj(), filler.obj()];
    const index = makeIndex({ nodes: nodes.map((n) => n.obj()), pods: [...evicted, lowA.obj(), lowB.obj()] });
    const sim = new SchedulingSimulation(index, new Set(['n1']));
    for (const p of evicted) sim.evict(p);
    const returned = sim.queueOrder(evicted).map((p) => [p, Object.freeze(sim.place(p))] as const);
    const settled = sim.settleRound();
    for (const [pod, plan] of returned) {
      expect(plan.unknown).toBeUndefined();
      const after = settled.get(pod)!;
      expect(after).toMatchObject({ placedOn: null, unknown: REPLACEMENT_ORDER_UNKNOWN });
      expect(after.message.startsWith(`${plan.message} Which of its wave's replacements`)).toBe(true);
    }
  });

  it('does not flag a replacement that only scores another of its feasible nodes in that order', () => {
    // n2 and n4 (zone-a, 2 cpu, n4 with 100m taken): the filler (1 cpu) takes n2 first, so db-0's goes
    // to n4, the less allocated then; met first, db-0's goes to n2, and the filler's still fits there.
    const big = (name: string) =>
      makeNode().name(name).label('topology.kubernetes.io/zone', 'zone-a').allocatable('2', '8Gi');
    const index = makeIndex({
      nodes: [node('n1', 'zone-a'), big('n2'), big('n4')].map((n) => n.obj()),
      pods: [
        db.obj(),
        pod('filler-x', 'n1', 100, '1').owner('ReplicaSet', 'filler-1').obj(),
        pod('busy', 'n4', 0, '100m').obj(),
      ],
    });
    const sim = new SchedulingSimulation(index, new Set(['n1']));
    const evicted = index.snapshot.pods.filter((p) => p.spec?.nodeName === 'n1');
    for (const p of evicted) sim.evict(p);
    const plans = new Map(sim.queueOrder(evicted).map((p) => [p.metadata!.name!, sim.place(p)]));
    for (const [p, plan] of sim.settleRound()) plans.set(p.metadata!.name!, plan);
    expect(plans.get('filler-x')).toMatchObject({ placedOn: 'n2' });
    expect(plans.get('db-0')).toMatchObject({ placedOn: 'n4', nodes: ['n2', 'n4'] });
    expect([...plans.values()].every((p) => p.unknown === undefined)).toBe(true);
  });

  it('names the nodes where the order changes nothing: room for both on n2', () => {
    const roomy = pod('low-a', 'n2', 50, '0').owner('ReplicaSet', 'low-1');
    const plans = drainN1([db.obj(), filler.obj()], [roomy.obj(), lowB.obj()]);
    expect(plans.get('filler-x')).toMatchObject({ placedOn: 'n2' });
    expect(plans.get('db-0')).toMatchObject({ placedOn: 'n2' });
    expect([...plans.values()].every((p) => p.unknown === undefined)).toBe(true);
  });
});

describe('what the simulation models of the default profile, and what its caveats say it does not', () => {
  // The default profile's Filter plugins (pkg/scheduler/apis/config/v1/default_plugins.go, v1.37) and its
  // PostFilter. NodeName always passes for a replacement (it has no nodeName), so nothing runs it.
  const DEFAULT_FILTERS = [
    'NodeUnschedulable',
    'NodeName',
    'TaintToleration',
    'NodeAffinity',
    'NodePorts',
    'NodeResourcesFit',
    'VolumeRestrictions',
    'NodeVolumeLimits',
    'VolumeBinding',
    'VolumeZone',
    'PodTopologySpread',
    'InterPodAffinity',
    'DynamicResources',
    'NodeDeclaredFeatures',
  ];
  /** The plugins a caveat is about: the names before its colon ("A and B: …"). */
  const namedBy = (caveat: string) => caveat.slice(0, caveat.indexOf(':')).split(' and ');
  const simulated = FILTER_PLUGINS.map((p) => p.name);
  const caveatsOf = (plugin: string) => UNMODELLED_SCHEDULER_RULES.filter((c) => namedBy(c).includes(plugin));

  it('runs the default profile filters it models in the profile order (a node is reported under the first that rejects it)', () => {
    expect(simulated).toEqual(DEFAULT_FILTERS.filter((name) => !['NodeName', 'NodeDeclaredFeatures'].includes(name)));
  });

  it('names every default filter it does not run, and preemption, in a caveat', () => {
    const skipped = DEFAULT_FILTERS.filter((name) => name !== 'NodeName' && !simulated.includes(name));
    expect(skipped.length).toBeGreaterThan(0);
    for (const plugin of [...skipped, 'DefaultPreemption']) expect(caveatsOf(plugin), plugin).toHaveLength(1);
  });

  it('has a caveat about a filter it runs only for the part it leaves out (in-tree volume plugins, DeviceTaintRules, DRA-backed extended resources)', () => {
    const aboutSimulated = UNMODELLED_SCHEDULER_RULES.filter((c) => namedBy(c).some((n) => simulated.includes(n)));
    expect(aboutSimulated.map(namedBy)).toEqual([
      ['VolumeRestrictions', 'NodeVolumeLimits'],
      ['DynamicResources'],
      ['DynamicResources'],
    ]);
    expect(aboutSimulated[0]).toMatch(/: in-tree volume plugins \(/);
    expect(aboutSimulated[1]).toMatch(/: DeviceTaintRules are not read/);
    expect(aboutSimulated[2]).toMatch(/: extended resources a DeviceClass backs with DRA/);
    expect(caveatsOf('VolumeBinding')).toEqual([]);
  });
});

describe('SchedulingSimulation on a large cluster: the search stops as kube-scheduler stops it', () => {
  it('looks for every node under 100, then 50 % less 1 % per 125 nodes (at least 5 %), never under 100', () => {
    expect([1, 99, 100, 150, 500, 1_000, 5_000, 15_000].map(feasibleNodesToFind)).toEqual([
      1, 99, 100, 100, 230, 420, 500, 750,
    ]);
  });

  const nodes = (n: number, edit: (b: ReturnType<typeof makeNode>, i: number) => unknown = () => {}) =>
    Array.from({ length: n }, (_, i) => {
      const b = makeNode()
        .name(`n${String(i).padStart(3, '0')}`)
        .allocatable('4', '8Gi');
      edit(b, i);
      return b;
    });
  const web = (name: string, node: string) =>
    makePod().name(name).node(node).label('app', 'web').owner('ReplicaSet', 'web-1').requests('100m', '64Mi');

  it('stops once it has found 100 of 150 nodes, and the next placement starts where it stopped', () => {
    const pods = [web('web-0', 'n000').obj(), web('web-1', 'n000').obj()];
    const { plans } = drain(nodes(150), pods, 'n000');
    const [first, second] = plans;
    // n000 is drained: 101 nodes checked to find 100.
    expect(first).toMatchObject({ schedulable: true, nodesChecked: 101 });
    expect(first!.nodes).toHaveLength(100);
    expect(first!.nodes[0]).toBe('n001');
    expect(first!.rejected.map((r) => r.node)).toEqual(['n000']);
    expect(first!.message).toMatch(
      /^100\/101 nodes checked are available \(on 150 nodes the scheduler stops looking after 100\); /,
    );
    // Round the list from n101: n101…n149, then n000 (drained) and n001…n051.
    expect(second!.nodes[0]).toBe('n101');
    expect(second!.nodes).toContain('n051');
    expect(second!.nodes).not.toContain('n052');
    expect(second!.nodesChecked).toBe(101);
  });

  it('checks every node when fewer than it looks for fit, and says why each other one did not', () => {
    // Only the last three nodes have room: the search goes round the whole cluster to find them.
    const pods = [web('web-0', 'n000').requests('3', '64Mi').obj()];
    const { plans } = drain(
      nodes(150, (b, i) => (i < 147 ? b.allocatable('2', '8Gi') : b)),
      pods,
      'n000',
    );
    expect(plans[0]).toMatchObject({ schedulable: true, nodes: ['n147', 'n148', 'n149'] });
    expect(plans[0]!.nodesChecked).toBeUndefined();
    expect(plans[0]!.rejected).toHaveLength(147);
    expect(plans[0]!.message).toMatch(/^3\/150 nodes are available; /);
  });

  it('keeps the spread domains of one pod spec for the next, and does not serve them to another spec', () => {
    // Tier a (n000-n059) spans zones z0 and z1; tier b (n060-n149) spans z0, z1 and z2.
    const tiers = (b: ReturnType<typeof makeNode>, i: number) =>
      i < 60 ? b.label('tier', 'a').label('zone', `z${i % 2}`) : b.label('tier', 'b').label('zone', `z${i % 3}`);
    const spread = (name: string, tier: string, node = 'n000') =>
      web(name, node).label('app', `web-${tier}`).nodeSelector({ tier }).spread(1, 'zone');
    // Two b pods already run, in z0 (n063) and z1 (n064): the next one must go to z2, which only tier b's
    // domains have; with tier a's domains (z0, z1) nothing would count and n060 (z0) would win on its name.
    const pods = [
      spread('a-0', 'a').obj(),
      spread('b-0', 'b').obj(),
      spread('b-1', 'b', 'n063').obj(),
      spread('b-2', 'b', 'n064').obj(),
    ];
    const { plans } = drain(nodes(150, tiers), pods, 'n000');
    expect(plans.map((p) => p.placedOn)).toEqual([expect.stringMatching(/^n0[0-5]\d$/), 'n062']);
  });
});
