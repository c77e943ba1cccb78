/**
 * The audit's shortcuts give `plan NODE`'s answers. The audit plans every node against one cluster state
 * and shares what does not depend on the node drained; here each node is planned on its own against a
 * fresh index of the same snapshot (no derived maps, no scheduler cache, no memo), and the audit must be
 * the one made of those plans: every node's verdict, reasons and findings, every workload. On the lab's
 * `pool` scenario (six workers in three zones, budgeted Deployments, DaemonSets) with kubectl's defaults
 * and with every override, and on a small generated cluster (budgets, topology spread, anti-affinity,
 * volumes, taints).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { drainEveryPod, syntheticClusterList } from '../../../scripts/bench/synthetic-cluster.js';
import { auditOf, auditPlan, buildAudit } from '../../../src/plan/audit.js';
import { buildPlan } from '../../../src/plan/build-plan.js';
import type { PlanOptions } from '../../../src/plan/types.js';
import { ClusterIndex } from '../../../src/snapshot/cluster-index.js';
import { loadSnapshotFile, snapshotFromDocuments } from '../../../src/snapshot/load-file.js';

const labPool = path.resolve(import.meta.dirname, '../../fixtures/plan/lab-pool.json');
const CLUSTER = { nodes: 60, pods: 1_200, namespaces: 10, zones: 3, seed: 4 };

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
    expect(audit).toEqual(slowAudit(index, options));
  }, 120_000);
});
