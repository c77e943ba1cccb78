/**
 * The audit's shortcuts give `plan NODE`'s answers. The audit plans every node against one cluster state
 * and shares what does not depend on the node drained; here each node is planned on its own against a
 * fresh index of the same snapshot (no derived maps, no scheduler cache, no memo), and the audit must be
 * the one made of those plans: every node's verdict, reasons and findings, every workload. On the lab's
 * `pool` scenario (six workers in three zones, budgeted Deployments, DaemonSets) with kubectl's defaults
 * and with every override, and on a small generated cluster (budgets, topology spread, anti-affinity,
 * volumes, resource claims, taints, pending pods). The audit plans leave out the nodes that refused a
 * replacement which found one: its findings must not need them.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { drainEveryPod, syntheticClusterList } from '../../../scripts/bench/synthetic-cluster.js';
import { auditOf, auditPlan, buildAudit } from '../../../src/plan/audit.js';
import { buildPlan } from '../../../src/plan/build-plan.js';
import { pendingPods } from '../../../src/plan/scheduling/scheduling-queue.js';
import type { PlanOptions } from '../../../src/plan/types.js';
import { ClusterIndex } from '../../../src/snapshot/cluster-index.js';
import { loadSnapshotFile, snapshotFromDocuments } from '../../../src/snapshot/load-file.js';
import { makeIndex, makeNode, makePod, makeReplicaSet } from '../builders.js';

const labPool = path.resolve(import.meta.dirname, '../../fixtures/plan/lab-pool.json');
const CLUSTER = { nodes: 60, pods: 1_800, namespaces: 10, zones: 3, seed: 7 };

function generated(): ClusterIndex {
  const list = syntheticClusterList(CLUSTER);
  return new ClusterIndex(snapshotFromDocuments([list], { type: 'file', path: 'generated' }, 'generated'));
}

/** The audit made of each node's own plan, each against a fresh index of the snapshot. */
function slowAudit(index: ClusterIndex, options: PlanOptions) {
  return auditOf(
    index.nodes.map((n) =>
      auditPlan(buildPlan(new ClusterIndex(index.snapshot), { ...options, nodes: [n.metadata!.name!] })),
    ),
  );
}

const names = (index: ClusterIndex) => index.nodes.map((n) => n.metadata!.name!);

/** A pod of ReplicaSet shop/web (1 CPU) on the node, and its owner. */
const web = (node: string) =>
  makePod()
    .name('web-0')
    .ns('shop')
    .node(node)
    .label('app', 'web')
    .owner('ReplicaSet', 'web')
    .requests('1', '1Gi')
    .obj();
const webOwner = { replicaSets: [makeReplicaSet().name('web').ns('shop').selector({ app: 'web' }).obj()] };

/**
 * Every node planned twice against the index, each of them once after the state's first plan (whose
 * simulations share with the next ones), as against a fresh index of the snapshot.
 */
function expectPlansAlone(index: ClusterIndex): void {
  for (const node of [...names(index), ...names(index)]) {
    const options = drainEveryPod([node]);
    expect(buildPlan(index, options)).toEqual(buildPlan(new ClusterIndex(index.snapshot), options));
  }
}

/** kubectl drain's defaults: no override. */
const kubectlDefaults = (nodes: readonly string[]): PlanOptions => ({
  ...drainEveryPod(nodes),
  ignoreDaemonSets: false,
  deleteEmptyDirData: false,
  force: false,
});

describe('the audit against each node planned on its own', () => {
  it.each([
    ['kubectl drain defaults', kubectlDefaults],
    ['every override', drainEveryPod],
  ])("on the lab's pool scenario, with %s", async (_, flags) => {
    const index = new ClusterIndex(await loadSnapshotFile(labPool));
    const options = flags(names(index));
    const audit = buildAudit(index, options);
    expect(audit).toEqual(slowAudit(index, options));
    expect(audit.nodes.map((n) => n.name)).toEqual(names(index));
  });

  it('on a generated cluster, every pod drained', () => {
    const index = generated();
    const options = drainEveryPod(names(index));
    const audit = buildAudit(index, options);
    // The fixture must exercise the plan: nodes blocked and nodes that drain, replacements placed.
    expect(audit.verdicts.blocked).toBeGreaterThan(0);
    expect(audit.verdicts.clear + audit.verdicts.slow).toBeGreaterThan(0);
    // …and pods pending, which every simulation places first.
    expect(pendingPods(index.snapshot).length).toBeGreaterThan(0);
    expect(audit).toEqual(slowAudit(index, options));
  }, 120_000);

  it('a pod pending goes elsewhere when the node it would take is drained, and takes the room there', () => {
    // big has the most room: the pending pod (3 CPUs) goes there, unless big is drained; then it takes
    // small's room, and the replacement of big's pod (1 CPU) finds none (rest has half a CPU left).
    const index = makeIndex({
      nodes: [
        makeNode().name('big').allocatable('8', '32Gi').obj(),
        makeNode().name('small').allocatable('3500m', '32Gi').obj(),
        makeNode().name('rest').allocatable('500m', '32Gi').obj(),
      ],
      pods: [web('big'), makePod().name('batch').ns('jobs').phase('Pending').requests('3', '1Gi').obj()],
      ...webOwner,
    });
    expectPlansAlone(index);
    const big = buildPlan(index, drainEveryPod(['big'])).pods.find((p) => p.name === 'web-0')!;
    expect(big.replacement?.schedulable).toBe(false);
  });

  it('a pod pending that no node takes finds one when the node its topology spread counts, honouring taints, is drained', () => {
    // batch spreads by hostname honouring taints; it has a pod on x and on y and none on d, where it does
    // not fit: skew 2 on x and y, so it stays pending. Drained, d drops out of its domains: it goes to x
    // or y, and the replacement of d's pod has room left only on the other.
    const batch = (name: string) =>
      makePod()
        .name(name)
        .ns('jobs')
        .label('app', 'batch')
        .spread(1, 'kubernetes.io/hostname', { nodeTaintsPolicy: 'Honor' });
    const index = makeIndex({
      nodes: [
        makeNode().name('d').allocatable('1500m', '32Gi').obj(),
        makeNode().name('x').allocatable('3500m', '32Gi').obj(),
        makeNode().name('y').allocatable('3500m', '32Gi').obj(),
      ],
      pods: [
        web('d'),
        batch('batch-x').node('x').requests('100m', '64Mi').obj(),
        batch('batch-y').node('y').requests('100m', '64Mi').obj(),
        batch('batch-new').phase('Pending').requests('3', '1Gi').obj(),
      ],
      ...webOwner,
    });
    expectPlansAlone(index);
    const replaced = buildPlan(index, drainEveryPod(['d'])).pods.find((p) => p.name === 'web-0')!;
    expect(replaced.replacement?.nodes).toHaveLength(1);
  });

  it('on a generated cluster, each node planned against the state the audit shares is planned as on its own', () => {
    expectPlansAlone(generated());
  }, 120_000);
});

/** Every fixture a plan test reads: the lab's scenarios and the fidelity seeds' clusters. */
const FIXTURES = [
  ...['hello.json', 'hello-ignore.json', 'lab-pool.json'].map((f) => `../../fixtures/plan/${f}`),
  ...readdirSync(path.resolve(import.meta.dirname, '../../fixtures/fidelity'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => `../../fixtures/fidelity/${f}`),
  '../../fixtures/fidelity/replay/seed-3.snapshot.json',
];

/**
 * A plan with no node listed for a replacement that found a node without preempting, as the audit plans
 * (RejectedNodes `unplaced`); the number of lists emptied.
 */
function withoutPlacedLists(value: unknown, emptied = { lists: 0 }): { plan: unknown; lists: number } {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    const o: Record<string, unknown> = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    if (Array.isArray(o.rejected) && o.schedulable === true && o.preemption === undefined && o.rejected.length > 0) {
      o.rejected = [];
      emptied.lists++;
    }
    return o;
  };
  return { plan: walk(value), lists: emptied.lists };
}

/**
 * Each node's plan as JSON, planned one after another against one index (as the audit plans them, each
 * simulation taking what the earlier ones left in the state's memos), then each against a fresh index;
 * and as the audit plans it, the same less the lists of nodes that refused placed replacements. Returns
 * how many lists the audit's plans leave out.
 */
function expectSameJson(index: ClusterIndex, options: (nodes: readonly string[]) => PlanOptions): number {
  const plans = names(index).map((node) => buildPlan(index, options([node])));
  const alone = names(index).map((node) =>
    JSON.stringify(buildPlan(new ClusterIndex(index.snapshot), options([node]))),
  );
  expect(plans.map((plan) => JSON.stringify(plan))).toEqual(alone);
  const reduced = plans.map((plan) => withoutPlacedLists(plan));
  const audits = names(index).map((node) => JSON.stringify(buildPlan(index, options([node]), 'unplaced')));
  expect(audits).toEqual(reduced.map((r) => JSON.stringify(r.plan)));
  return reduced.reduce((sum, r) => sum + r.lists, 0);
}

describe("each node's plan, as the audit makes it, is byte for byte its plan on its own (less the lists it leaves out)", () => {
  it.each(FIXTURES)('%s', async (fixture) => {
    const index = new ClusterIndex(await loadSnapshotFile(path.resolve(import.meta.dirname, fixture)));
    expectSameJson(index, drainEveryPod);
    expectSameJson(index, kubectlDefaults);
  });

  it('a generated cluster', () => {
    // Replacements placed with nodes refused on the way: the audit's plans leave those lists out.
    expect(expectSameJson(generated(), drainEveryPod)).toBeGreaterThan(0);
  }, 120_000);
});
