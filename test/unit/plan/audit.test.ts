import type { V1Pod, V1PodDisruptionBudget } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { buildAudit } from '../../../src/plan/audit.js';
import type { AuditCauseKind, ClusterAudit } from '../../../src/plan/audit-types.js';
import { buildPlan } from '../../../src/plan/build-plan.js';
import type { PlanOptions } from '../../../src/plan/types.js';
import { ClusterIndex } from '../../../src/snapshot/cluster-index.js';
import { EMBEDDED_SNAPSHOT_NAMES, loadEmbeddedSnapshot } from '../../../src/snapshot/embedded.js';
import { binding, policy } from './admission/fixtures.js';
import { options as ruleOptions } from './rules-fixture.js';
import { makeDaemonSet, makeIndex, makeNode, makePdb, makePod, makeReplicaSet, makeStatefulSet } from '../builders.js';

const WORKERS = ['w1', 'w2', 'w3', 'w4'];

/** kubectl drain's defaults (no --ignore-daemonsets) unless the case says otherwise. */
const options = (nodes: readonly string[], flags: Partial<PlanOptions> = {}): PlanOptions =>
  ruleOptions({ nodes, ignoreDaemonSets: false, ...flags });

const worker = (name: string) => makeNode().name(name).allocatable('4', '8Gi').obj();

/** A pod of ReplicaSet `app` (no Deployment above it) in namespace shop. */
function replica(app: string, i: number, node: string, edit: (b: ReturnType<typeof makePod>) => unknown = () => {}) {
  const b = makePod().name(`${app}-${i}`).ns('shop').node(node).label('app', app).owner('ReplicaSet', app);
  b.requests('100m', '64Mi');
  edit(b);
  return b.obj();
}

function budget(app: string, spec: { maxUnavailable?: number; minAvailable?: number }, status: number[]) {
  const [disruptionsAllowed, currentHealthy, desiredHealthy, expectedPods] = status as [number, number, number, number];
  const b = makePdb().name(app).ns('shop').selector({ app });
  if (spec.maxUnavailable !== undefined) b.maxUnavailable(spec.maxUnavailable);
  if (spec.minAvailable !== undefined) b.minAvailable(spec.minAvailable);
  return b.status({ disruptionsAllowed, currentHealthy, desiredHealthy, expectedPods }).obj();
}

const agent = (node: string) =>
  makePod().name(`agent-${node}`).ns('kube-system').node(node).owner('DaemonSet', 'agent').obj();

/**
 * Four workers, each with a pod of DaemonSet kube-system/agent. shop/web: two pods (w1, w2) under a
 * budget of maxUnavailable 0; shop/solo: its only pod (w3) under minAvailable 1; shop/debug: a pod no
 * controller owns (w4); shop/db: a StatefulSet pod pinned to w2's hostname, no budget; shop/api: three
 * pods (w3, w4 and a not-Ready one on w1) under minAvailable 2, so it allows no disruption.
 */
function cluster(extraPods: V1Pod[] = [], extraBudgets: V1PodDisruptionBudget[] = []) {
  const pods = [
    ...WORKERS.map(agent),
    replica('web', 0, 'w1'),
    replica('web', 1, 'w2'),
    replica('solo', 0, 'w3'),
    makePod().name('debug').ns('shop').node('w4').obj(),
    makePod()
      .name('db-0')
      .ns('shop')
      .node('w2')
      .label('app', 'db')
      .owner('StatefulSet', 'db')
      .nodeSelector({ 'kubernetes.io/hostname': 'w2' })
      .obj(),
    replica('api', 0, 'w3'),
    replica('api', 1, 'w4'),
    replica('api', 2, 'w1', (b) => b.ready(false)),
    ...extraPods,
  ];
  return makeIndex({
    nodes: WORKERS.map(worker),
    pods,
    pdbs: [
      budget('web', { maxUnavailable: 0 }, [0, 2, 2, 2]),
      budget('solo', { minAvailable: 1 }, [0, 1, 1, 1]),
      budget('api', { minAvailable: 2 }, [0, 2, 2, 3]),
      ...extraBudgets,
    ],
    replicaSets: ['web', 'solo', 'api'].map((app) =>
      makeReplicaSet().name(app).ns('shop').selector({ app }).replicas(3).obj(),
    ),
    statefulSets: [makeStatefulSet().name('db').ns('shop').selector({ app: 'db' }).replicas(1).obj()],
    daemonSets: [makeDaemonSet().name('agent').ns('kube-system').obj()],
  });
}

/** A workload as the cases expect it: where it blocks and disrupts, and its causes (kind and flag). */
interface ExpectedWorkload {
  readonly id: string;
  readonly blocks: readonly string[];
  readonly disrupts: readonly string[];
  readonly causes: ReadonlyArray<{ readonly kind: AuditCauseKind; readonly flag: string | null }>;
}

interface AuditCase {
  readonly name: string;
  readonly index: ClusterIndex;
  readonly flags: Partial<PlanOptions>;
  readonly verdict: ClusterAudit['verdict'];
  readonly nodes: Readonly<Record<string, ClusterAudit['verdict']>>;
  readonly workloads: readonly ExpectedWorkload[];
}

const cases: AuditCase[] = [
  {
    name: 'a DaemonSet on every node blocks them all without --ignore-daemonsets, and ranks first',
    index: cluster(),
    flags: {},
    verdict: 'blocked',
    nodes: { w1: 'blocked', w2: 'blocked', w3: 'blocked', w4: 'blocked' },
    workloads: [
      {
        id: 'kube-system/DaemonSet/agent',
        blocks: WORKERS,
        disrupts: [],
        causes: [{ kind: 'refused', flag: '--ignore-daemonsets' }],
      },
      { id: 'shop/Pod/debug', blocks: ['w4'], disrupts: [], causes: [{ kind: 'refused', flag: '--force' }] },
    ],
  },
  {
    name: 'with --ignore-daemonsets: a budget that never allows, a pod no controller owns, a budget with no disruption left, a single replica, a replacement with nowhere to go',
    index: cluster(),
    flags: { ignoreDaemonSets: true },
    verdict: 'blocked',
    nodes: { w1: 'blocked', w2: 'blocked', w3: 'blocked', w4: 'blocked' },
    workloads: [
      {
        id: 'shop/ReplicaSet/web',
        blocks: ['w1', 'w2'],
        disrupts: [],
        causes: [{ kind: 'budget-never-allows', flag: null }],
      },
      // kubectl drains nothing on w4: its api pod is judged once --force lets the node go.
      { id: 'shop/Pod/debug', blocks: ['w4'], disrupts: [], causes: [{ kind: 'refused', flag: '--force' }] },
      { id: 'shop/ReplicaSet/api', blocks: ['w3'], disrupts: [], causes: [{ kind: 'budget-unhealthy', flag: null }] },
      {
        id: 'shop/ReplicaSet/solo',
        blocks: ['w3'],
        disrupts: [],
        causes: [{ kind: 'single-replica', flag: null }],
      },
      { id: 'shop/StatefulSet/db', blocks: [], disrupts: ['w2'], causes: [{ kind: 'no-room', flag: null }] },
    ],
  },
  {
    name: 'a pod two budgets select is refused by the Eviction API; emptyDir data needs --delete-emptydir-data',
    index: makeIndex({
      nodes: ['w1', 'w2'].map(worker),
      pods: [
        replica('twin', 0, 'w1', (b) => b.label('tier', 'front')),
        replica('twin', 1, 'w2', (b) => b.label('tier', 'front')),
        replica('scratch', 0, 'w2', (b) => b.emptyDir()),
      ],
      pdbs: [
        budget('twin', { maxUnavailable: 1 }, [1, 2, 1, 2]),
        makePdb()
          .name('front')
          .ns('shop')
          .selector({ tier: 'front' })
          .maxUnavailable(1)
          .status({ disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2 })
          .obj(),
      ],
      replicaSets: ['twin', 'scratch'].map((app) => makeReplicaSet().name(app).ns('shop').selector({ app }).obj()),
    }),
    flags: {},
    verdict: 'blocked',
    nodes: { w1: 'blocked', w2: 'blocked' },
    workloads: [
      {
        id: 'shop/ReplicaSet/scratch',
        blocks: ['w2'],
        disrupts: [],
        causes: [{ kind: 'refused', flag: '--delete-emptydir-data' }],
      },
      // On w2 kubectl refuses the node first: the twin's pod there is not judged.
      { id: 'shop/ReplicaSet/twin', blocks: ['w1'], disrupts: [], causes: [{ kind: 'two-budgets', flag: null }] },
    ],
  },
  {
    name: 'a ValidatingAdmissionPolicy denies the eviction of the pods it matches',
    index: makeIndex({
      nodes: ['w1', 'w2'].map(worker),
      pods: [replica('web', 0, 'w1'), replica('web', 1, 'w2')],
      pdbs: [budget('web', { maxUnavailable: 1 }, [1, 2, 1, 2])],
      replicaSets: [makeReplicaSet().name('web').ns('shop').selector({ app: 'web' }).obj()],
      validatingAdmissionPolicies: [policy('protect-shop', { validations: [{ expression: 'false', message: 'no' }] })],
      validatingAdmissionPolicyBindings: [binding('protect-shop-binding', 'protect-shop')],
    }),
    flags: {},
    verdict: 'blocked',
    nodes: { w1: 'blocked', w2: 'blocked' },
    workloads: [
      {
        id: 'shop/ReplicaSet/web',
        blocks: ['w1', 'w2'],
        disrupts: [],
        causes: [{ kind: 'admission-denied', flag: null }],
      },
    ],
  },
  {
    name: 'nothing holds a node back: every node clear, no workload',
    index: makeIndex({
      nodes: WORKERS.map(worker),
      pods: WORKERS.map((n, i) => replica('web', i, n)),
      pdbs: [budget('web', { maxUnavailable: 1 }, [1, 4, 3, 4])],
      replicaSets: [makeReplicaSet().name('web').ns('shop').selector({ app: 'web' }).obj()],
    }),
    flags: {},
    verdict: 'clear',
    nodes: { w1: 'clear', w2: 'clear', w3: 'clear', w4: 'clear' },
    workloads: [],
  },
];

describe('buildAudit', () => {
  it.each(cases)('$name', ({ index, flags, verdict, nodes, workloads }) => {
    const names = index.nodes.map((n) => n.metadata!.name!);
    const audit = buildAudit(index, options(names, flags));
    expect(audit.verdict).toBe(verdict);
    expect(Object.fromEntries(audit.nodes.map((n) => [n.name, n.verdict]))).toEqual(nodes);
    expect(
      audit.workloads.map((w) => ({
        id: w.id,
        blocks: w.blocks,
        disrupts: w.disrupts,
        causes: w.causes.map((c) => ({ kind: c.kind, flag: c.flag })),
      })),
    ).toEqual(workloads);
    // Every node names the workloads that hold it, and only those.
    for (const node of audit.nodes) {
      const holding = audit.workloads.filter((w) => [...w.blocks, ...w.disrupts].includes(node.name)).map((w) => w.id);
      expect(node.workloads).toEqual(holding);
    }
  });

  it('says of each node what the plan of that node alone says', () => {
    const index = cluster();
    const names = index.nodes.map((n) => n.metadata!.name!);
    const audit = buildAudit(index, options(names, { ignoreDaemonSets: true }));
    for (const node of audit.nodes) {
      const plan = buildPlan(index, options([node.name], { ignoreDaemonSets: true }));
      expect({ verdict: node.verdict, reasons: node.verdictReasons }).toEqual({
        verdict: plan.verdict,
        reasons: plan.verdictReasons,
      });
    }
  });

  it('names the budget, the pods and the way out of each cause', () => {
    const audit = buildAudit(cluster(), options(WORKERS, { ignoreDaemonSets: true }));
    const solo = audit.workloads.find((w) => w.id === 'shop/ReplicaSet/solo')!;
    expect(solo.budgets).toEqual(['shop/solo']);
    expect(solo.causes[0]).toMatchObject({
      effect: 'blocks',
      nodes: ['w3'],
      pods: ['shop/solo-0'],
      budget: 'shop/solo',
      detail: 'minAvailable 1 >= 1 expected pod: every pod must stay healthy',
      wayOut:
        'the owner runs ReplicaSet shop/solo with more than one replica, or lets budget shop/solo allow a disruption',
    });
    const db = audit.workloads.find((w) => w.id === 'shop/StatefulSet/db')!;
    expect(db.causes[0]).toMatchObject({ effect: 'disrupts', until: 'node-returns', pods: ['shop/db-0'] });
    expect(audit.verdictReasons[0]).toBe('4 nodes planned one by one: 4 blocked');
    expect(audit.verdictReasons[1]).toBe(
      'ReplicaSet shop/web blocks 2 nodes: the owner relaxes budget shop/web so that it allows a disruption',
    );
    expect(audit.verdicts).toEqual({ clear: 0, slow: 0, incomplete: 0, disruptive: 0, blocked: 4 });
  });

  it.each(EMBEDDED_SNAPSHOT_NAMES)('audits the bundled example %s node by node', (name) => {
    const index = new ClusterIndex(loadEmbeddedSnapshot(name));
    const names = index.nodes.map((n) => n.metadata!.name!);
    const audit = buildAudit(index, options(names, { ignoreDaemonSets: true }));
    expect(audit.nodes.map((n) => n.name)).toEqual(names);
    for (const node of audit.nodes) {
      expect(node.verdict).toBe(buildPlan(index, options([node.name], { ignoreDaemonSets: true })).verdict);
      const held = node.verdict === 'blocked' || node.verdict === 'disruptive';
      expect(node.workloads.length > 0).toBe(held);
    }
  });
});
