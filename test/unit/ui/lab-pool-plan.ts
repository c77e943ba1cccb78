import path from 'node:path';
import { poolPlanOf } from '../../../src/cli/pool-plan.js';
import { ClusterIndex } from '../../../src/snapshot/cluster-index.js';
import { loadSnapshotFile } from '../../../src/snapshot/load-file.js';

/** The lab's `pool` scenario as `npm run lab -- snapshot` printed it. */
const labPool = path.resolve(import.meta.dirname, '../../fixtures/plan/lab-pool.json');

/** The lab's `pool` scenario planned as a pool, as `plan --max-unavailable N` plans it. */
export async function labPoolPlan(maxUnavailable = 2) {
  const snapshot = await loadSnapshotFile(labPool);
  const index = new ClusterIndex(snapshot);
  const nodes = snapshot.nodes.map((n) => n.metadata?.name ?? '');
  return poolPlanOf(index, nodes, {
    ignoreDaemonsets: true,
    maxUnavailable: { count: maxUnavailable },
    taint: { key: 'kubectl-maint/maintenance' },
    nodeMonitorGracePeriod: 50,
  });
}
