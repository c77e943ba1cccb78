import type { PlanOptions } from '../../../src/plan/types.js';
import {
  makeDeployment,
  makeIndex,
  makeNode,
  makePdb,
  makePod,
  makeReplicaSet,
  type SnapshotInput,
} from '../builders.js';

/** The small cluster the plan's rule tests share: nodes n1 and n2, a `web` Deployment in `shop`. */

export const options = (overrides: Partial<PlanOptions> = {}): PlanOptions => ({
  nodes: ['n1'],
  ignoreDaemonSets: true,
  deleteEmptyDirData: false,
  force: false,
  disableEviction: false,
  skipWaitForDeleteTimeoutSeconds: 0,
  taint: { key: 'maintenance' },
  nodeMonitorGracePeriodSeconds: 50,
  nowEpochSeconds: 1_800_000_000,
  ...overrides,
});

export const nodes = [makeNode().name('n1').obj(), makeNode().name('n2').obj()];

/** A pod of the web Deployment (through ReplicaSet web-1), on n1 unless told. */
export const web = (name: string, node = 'n1') =>
  makePod().name(name).ns('shop').node(node).label('app', 'web').owner('ReplicaSet', 'web-1').requests('100m');

export const owners: SnapshotInput = {
  replicaSets: [makeReplicaSet().name('web-1').ns('shop').owner('Deployment', 'web').obj()],
  deployments: [makeDeployment().name('web').ns('shop').replicas(3).obj()],
};

/** Budget shop/web over app=web, with the status of one healthy pod and no disruption allowed. */
export function pdb(spec: { minAvailable?: number | string; maxUnavailable?: number | string }) {
  const builder = makePdb().name('web').ns('shop').selector({ app: 'web' });
  const withSpec =
    spec.minAvailable !== undefined
      ? builder.minAvailable(spec.minAvailable)
      : builder.maxUnavailable(spec.maxUnavailable!);
  return withSpec.status({ disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 }).obj();
}

/** One replica of Deployment shop/web on n1 under `budget`. */
export function singleReplica(budget: ReturnType<typeof pdb>, more: SnapshotInput = {}) {
  return makeIndex({
    ...more,
    nodes,
    pods: [
      makePod()
        .name('web-1')
        .ns('shop')
        .node('n1')
        .label('app', 'web')
        .owner('ReplicaSet', 'web-rs')
        .requests('100m')
        .obj(),
    ],
    pdbs: [budget],
    replicaSets: [makeReplicaSet().name('web-rs').ns('shop').owner('Deployment', 'web').obj()],
    deployments: [makeDeployment().name('web').ns('shop').replicas(1).obj()],
  });
}
