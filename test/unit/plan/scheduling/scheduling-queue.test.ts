import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { scheduleEvictions } from '../../../../src/plan/budget-waves.js';
import { pendingPods, replacementQueue } from '../../../../src/plan/scheduling/scheduling-queue.js';
import { REPLACEMENT_ORDER_UNKNOWN, SchedulingSimulation } from '../../../../src/plan/scheduling/simulation.js';
import { makeIndex, makeNode, makePod, makeReplicaSet, makeSnapshot } from '../../builders.js';

const worker = (name: string, cpu = '2') => makeNode().name(name).allocatable(cpu, '8Gi').obj();
const web = (name: string, node: string, cpu = '1') =>
  makePod().name(name).node(node).label('app', 'web').owner('ReplicaSet', 'web').requests(cpu, '64Mi');
/** A pod waiting for the scheduler: no nodeName, phase Pending. */
const waiting = (name: string, cpu: string, priority = 0, created = '2026-01-01T00:00:00Z') => {
  const pod = makePod().name(name).ns('batch').requests(cpu, '64Mi').priority(priority).phase('Pending').obj();
  pod.metadata!.creationTimestamp = created as unknown as Date;
  return pod;
};
const names = (pods: readonly V1Pod[]) => pods.map((p) => p.metadata?.name);

describe('PrioritySort: the order the scheduling queue pops pending pods', () => {
  it('pops higher priority first, then the pod queued earlier', () => {
    const pods = [
      waiting('late-low', '1', 0, '2026-01-01T00:00:02Z'),
      waiting('early-low', '1', 0, '2026-01-01T00:00:01Z'),
      waiting('high', '1', 1000, '2026-01-01T00:00:03Z'),
    ];
    expect(names(pendingPods(makeSnapshot({ pods })))).toEqual(['high', 'early-low', 'late-low']);
  });

  it("reads a pod's priority from its PriorityClass when spec.priority is unset, and from the global default without one", () => {
    const classed = waiting('classed', '1', 0, '2026-01-01T00:00:02Z');
    delete classed.spec!.priority;
    classed.spec!.priorityClassName = 'batch-high';
    const plain = waiting('plain', '1', 0, '2026-01-01T00:00:01Z');
    delete plain.spec!.priority;
    const priorityClasses = [
      { metadata: { name: 'batch-high' }, value: 500 },
      { metadata: { name: 'everyone' }, value: 100, globalDefault: true },
    ];
    const explicit = waiting('explicit', '1', 200, '2026-01-01T00:00:00Z');
    const queue = pendingPods(makeSnapshot({ pods: [plain, explicit, classed], priorityClasses }));
    expect(names(queue)).toEqual(['classed', 'explicit', 'plain']);
  });

  it('leaves out bound, finished, deleted and gated pods, and pods for another scheduler', () => {
    const gated = waiting('gated', '1');
    gated.spec!.schedulingGates = [{ name: 'example.com/quota' }];
    const other = waiting('other-scheduler', '1');
    other.spec!.schedulerName = 'my-scheduler';
    const done = waiting('done', '1');
    done.status!.phase = 'Succeeded';
    const deleted = makePod().name('deleted').phase('Pending').deleting(1_700_000_000).obj();
    const pods = [gated, other, done, deleted, web('bound', 'n1').obj(), waiting('queued', '1')];
    expect(names(pendingPods(makeSnapshot({ pods })))).toEqual(['queued']);
  });
});

describe('SchedulingSimulation: pending pods take their room before the replacements', () => {
  const drain = (pods: V1Pod[], extra: Parameters<typeof makeIndex>[0] = {}) => {
    const sim = new SchedulingSimulation(
      makeIndex({ nodes: [worker('n1'), worker('n2')], pods, ...extra }),
      new Set(['n1']),
    );
    const evicted = pods.filter((p) => p.spec?.nodeName === 'n1');
    for (const pod of evicted) sim.evict(pod);
    return evicted.map((pod) => sim.place(pod));
  };

  it('a pending pod that fits takes the room a replacement would have had', () => {
    const [replacement] = drain([web('web-1', 'n1').obj(), waiting('job', '1500m')]);
    expect(replacement).toMatchObject({ schedulable: false, placedOn: null });
    expect(replacement!.rejected).toContainEqual({ node: 'n2', reasons: ['Insufficient cpu'] });
  });

  it('a pending pod that fits nowhere holds nothing', () => {
    const [replacement] = drain([web('web-1', 'n1').obj(), waiting('huge', '16')]);
    expect(replacement).toMatchObject({ schedulable: true, placedOn: 'n2' });
  });

  it('in queue order: the higher-priority pod takes the room, the earlier low-priority one stays pending', () => {
    const pods = [web('web-1', 'n1').obj(), waiting('low', '1500m', 0), waiting('high', '1', 100)];
    const [replacement] = drain(pods);
    // high (1 cpu) goes first to n2; low (1.5 cpu) no longer fits; the replacement takes the 1 cpu left.
    // Popped the other way round, low would leave 0.5 cpu and the replacement none.
    expect(replacement).toMatchObject({ schedulable: true, placedOn: 'n2' });
  });

  it('a nominated pod is placed on its nominated node first when it passes the filters there', () => {
    const three = [worker('n1'), worker('n2'), worker('n3')];
    const nominated = waiting('nominated', '1500m');
    nominated.status!.nominatedNodeName = 'n3';
    const pods = [web('web-1', 'n1').obj(), nominated];
    const sim = new SchedulingSimulation(makeIndex({ nodes: three, pods }), new Set(['n1']));
    sim.evict(pods[0]!);
    // Without the nomination the pending pod would go to n2, the first node checked, leaving n3 free.
    expect(sim.place(pods[0]!)).toMatchObject({ schedulable: true, placedOn: 'n2' });
  });
});

describe('SchedulingSimulation: a replacement whose pod template has scheduling gates', () => {
  it('is not given a node: kube-scheduler leaves it until the gates are removed, and the plan says so', () => {
    const rs = makeReplicaSet().name('web').selector({ app: 'web' }).obj();
    rs.spec!.template!.spec!.schedulingGates = [{ name: 'example.com/capacity' }];
    const pod = web('web-1', 'n1').obj();
    const sim = new SchedulingSimulation(
      makeIndex({ nodes: [worker('n1'), worker('n2')], pods: [pod], replicaSets: [rs] }),
      new Set(['n1']),
    );
    sim.evict(pod);
    const plan = sim.place(pod);
    expect(plan).toMatchObject({ schedulable: true, placedOn: null });
    expect(plan.unknown).toBe(
      'its pod template has scheduling gates (example.com/capacity): kube-scheduler does not schedule it until they are removed',
    );
    expect(plan.message).toContain('where the replacement runs is unknown');
  });
});

describe("replacementQueue: the order kube-scheduler meets one round's replacements", () => {
  const sts = (name: string, priority: number) =>
    makePod().name(name).node('n1').owner('StatefulSet', 'db').requests('1', '64Mi').priority(priority).obj();
  const rs = (name: string, priority: number) =>
    makePod().name(name).node('n1').owner('ReplicaSet', 'web').requests('1', '64Mi').priority(priority).obj();

  it("a ReplicaSet's replacements first (made as the pods start terminating), a StatefulSet's once its pod is gone; higher priority first among each", () => {
    const pods = [sts('db-0', 1000), rs('web-low', 0), sts('db-1', 0), rs('web-high', 100), rs('web-low-2', 0)];
    expect(names(replacementQueue(pods, makeSnapshot({ pods })))).toEqual([
      'web-high',
      'web-low',
      'web-low-2',
      'db-0',
      'db-1',
    ]);
  });

  // Found by the fidelity harness (scripts/fidelity): drained together, a high-priority StatefulSet pod and a
  // Deployment's pod; the Deployment's replacement took the room on the other node first, and the StatefulSet's,
  // created once its pod was gone, preempted it. The scheduler may as well meet the StatefulSet's first (seed
  // 46): then it takes the room and the Deployment's finds none, so the plan gives both as unknown.
  it('placed in that order, the late StatefulSet replacement preempts the room the earlier one took; met first, it would take it: both unknown', () => {
    const pods = [sts('db-0', 1000), rs('web-a', 0)];
    const sim = new SchedulingSimulation(
      makeIndex({ nodes: [worker('n1'), worker('n2', '1')], pods }),
      new Set(['n1']),
    );
    const candidates = pods.map((pod) => ({ pod, key: `default/${pod.metadata!.name}`, budgets: [], recreates: true }));
    const schedule = scheduleEvictions(candidates, sim, { deleteInsteadOfEvict: false, budgetsKnown: true });
    const db = schedule.pods.get('default/db-0')!.replacement!;
    expect(db).toMatchObject({ schedulable: true, placedOn: null, unknown: REPLACEMENT_ORDER_UNKNOWN });
    expect(db.preemption).toMatchObject({ node: 'n2', victims: [{ name: 'web-a' }] });
    expect(db.message).toMatch(/met before the wave's other replacements, it would go to n2\.$/);
    const web = schedule.pods.get('default/web-a')!.replacement!;
    expect(web).toMatchObject({ schedulable: true, placedOn: null, unknown: REPLACEMENT_ORDER_UNKNOWN });
    expect(web.message).toMatch(/met after the replacement of db-0, it would find no node\.$/);
  });
});
