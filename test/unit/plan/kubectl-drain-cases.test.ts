import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../../src/plan/build-plan.js';
import type { DrainPlan, PlanOptions } from '../../../src/plan/types.js';
import {
  makeDaemonSet,
  makeIndex,
  makeJob,
  makeNode,
  makePod,
  makeReplicaSet,
  makeReplicationController,
  type SnapshotInput,
} from '../builders.js';
import { options as baseOptions } from './rules-fixture.js';

/**
 * kubectl's own drain tests as plan tests, case by case, so the plan keeps kubectl's behaviour:
 * - `TestDrain` (k8s.io/kubectl pkg/cmd/drain/drain_test.go): one pod `default/bar` on node `node`, the
 *   flags of the case; kubectl runs every case twice, by eviction and by delete (--disable-eviction);
 * - `TestSkipDeletedFilter` and `TestDaemonSetFilter` (pkg/drain/filters_test.go).
 * The plan's words for kubectl's: a fatal error is a refused pod and a blocked verdict; "node/node
 * drained" a clear verdict; "delete" an eviction (or a delete) admitted at once; a warning the pod's reason.
 * Not translated: "fail to list pods" (a failing API: the drain engine's concern, not the plan's).
 */
const NOW = 1_800_000_000;
const labels = { my_key: 'my_value' };
const bar = () => makePod().name('bar').ns('default').node('node').labels(labels);
const cluster: SnapshotInput = {
  nodes: [makeNode().name('node').obj(), makeNode().name('other').obj()],
  replicationControllers: [makeReplicationController().name('rc').ns('default').obj()],
  daemonSets: [makeDaemonSet().name('ds').ns('default').obj()],
  jobs: [makeJob().name('job').ns('default').obj()],
  replicaSets: [makeReplicaSet().name('rs').ns('default').obj()],
};

const pods = {
  rcPod: () => bar().owner('ReplicationController', 'rc'),
  dsPod: () => bar().owner('DaemonSet', 'ds'),
  dsTerminatedPod: () => bar().owner('DaemonSet', 'ds').phase('Succeeded'),
  dsPodWithEmptyDir: () => bar().owner('DaemonSet', 'ds').emptyDir(),
  orphanedDsPod: () => bar(),
  jobPod: () => bar().owner('Job', 'job').emptyDir(),
  terminatedJobPodWithLocalStorage: () => bar().owner('Job', 'job').emptyDir().phase('Succeeded'),
  rsPod: () => bar().owner('ReplicaSet', 'rs'),
  nakedPod: () => bar(),
  emptydirPod: () => bar().emptyDir(),
  emptydirTerminatedPod: () => bar().emptyDir().phase('Failed'),
};

interface Flags {
  force?: boolean;
  ignoreDaemonSets?: boolean;
  deleteEmptyDirData?: boolean;
}

interface DrainCase {
  readonly description: string;
  readonly pods: ReadonlyArray<{ obj(): V1Pod }>;
  readonly flags: Flags;
  readonly expectFatal: boolean;
  readonly expectDelete: boolean;
  readonly expectWarning?: string;
}

// The TestDrain table, in kubectl's order. `--delete-local-data` (the flag's old name) plans as
// --delete-emptydir-data; its spelling is the CLI's concern.
const TEST_DRAIN: readonly DrainCase[] = [
  { description: 'RC-managed pod', pods: [pods.rcPod()], flags: {}, expectFatal: false, expectDelete: true },
  { description: 'DS-managed pod', pods: [pods.dsPod()], flags: {}, expectFatal: true, expectDelete: false },
  {
    description: 'DS-managed terminated pod',
    pods: [pods.dsTerminatedPod()],
    flags: {},
    expectFatal: false,
    expectDelete: true,
  },
  {
    description: 'orphaned DS-managed pod',
    pods: [pods.orphanedDsPod()],
    flags: {},
    expectFatal: true,
    expectDelete: false,
  },
  {
    description: 'orphaned DS-managed pod with --force',
    pods: [pods.orphanedDsPod()],
    flags: { force: true },
    expectFatal: false,
    expectDelete: true,
    expectWarning: 'deleting Pods that declare no controller',
  },
  {
    description: 'DS-managed pod with --ignore-daemonsets',
    pods: [pods.dsPod()],
    flags: { ignoreDaemonSets: true },
    expectFatal: false,
    expectDelete: false,
  },
  {
    description: 'DS-managed pod with emptyDir with --ignore-daemonsets',
    pods: [pods.dsPodWithEmptyDir()],
    flags: { ignoreDaemonSets: true },
    expectFatal: false,
    expectDelete: false,
    expectWarning: 'ignoring DaemonSet-managed Pods',
  },
  {
    description: 'Job-managed pod with local storage',
    pods: [pods.jobPod()],
    flags: { force: true, deleteEmptyDirData: true },
    expectFatal: false,
    expectDelete: true,
  },
  {
    description: 'Ensure compatibility for --delete-local-data until fully deprecated',
    pods: [pods.jobPod()],
    flags: { force: true, deleteEmptyDirData: true },
    expectFatal: false,
    expectDelete: true,
  },
  {
    description: 'Job-managed terminated pod',
    pods: [pods.terminatedJobPodWithLocalStorage()],
    flags: {},
    expectFatal: false,
    expectDelete: true,
  },
  { description: 'RS-managed pod', pods: [pods.rsPod()], flags: {}, expectFatal: false, expectDelete: true },
  { description: 'naked pod', pods: [pods.nakedPod()], flags: {}, expectFatal: true, expectDelete: false },
  {
    description: 'naked pod with --force',
    pods: [pods.nakedPod()],
    flags: { force: true },
    expectFatal: false,
    expectDelete: true,
  },
  {
    description: 'pod with EmptyDir',
    pods: [pods.emptydirPod()],
    flags: { force: true },
    expectFatal: true,
    expectDelete: false,
  },
  {
    description: 'terminated pod with emptyDir',
    pods: [pods.emptydirTerminatedPod()],
    flags: {},
    expectFatal: false,
    expectDelete: true,
  },
  {
    description: 'pod with EmptyDir and --delete-emptydir-data',
    pods: [pods.emptydirPod()],
    flags: { force: true, deleteEmptyDirData: true },
    expectFatal: false,
    expectDelete: true,
  },
  { description: 'empty node', pods: [], flags: {}, expectFatal: false, expectDelete: false },
];

function plan(input: SnapshotInput, flags: Flags, overrides: Partial<PlanOptions> = {}): DrainPlan {
  return buildPlan(
    makeIndex({ ...cluster, ...input }),
    baseOptions({
      nodes: ['node'],
      force: flags.force ?? false,
      ignoreDaemonSets: flags.ignoreDaemonSets ?? false,
      deleteEmptyDirData: flags.deleteEmptyDirData ?? false,
      nowEpochSeconds: NOW,
      ...overrides,
    }),
  );
}

describe.each([
  ['eviction', false],
  ['delete (--disable-eviction)', true],
])("kubectl's TestDrain, by %s", (_, disableEviction) => {
  it.each(TEST_DRAIN)('$description', (c) => {
    const result = plan({ pods: c.pods.map((p) => p.obj()) }, c.flags, { disableEviction });
    const pod = result.pods[0];
    if (c.expectFatal) {
      expect(result.verdict).toBe('blocked');
      expect(pod?.action).toBe('refuse');
    } else {
      expect(result.verdict).toBe('clear'); // "node/node drained"
    }
    const removed = pod !== undefined && (pod.action === 'evict' || pod.action === 'delete');
    expect(removed).toBe(c.expectDelete);
    if (removed) {
      expect(pod.action).toBe(disableEviction ? 'delete' : 'evict');
      expect(pod.outcome).toBe('immediate');
    }
    if (c.expectWarning) expect(pod?.reason).toContain(c.expectWarning);
  });
});

describe("kubectl's TestSkipDeletedFilter (--skip-wait-for-delete-timeout 20)", () => {
  it.each([
    { timeStampAgeSeconds: 0, expectedDelete: true },
    { timeStampAgeSeconds: 1, expectedDelete: true },
    { timeStampAgeSeconds: 100, expectedDelete: false },
  ])('a pod deleted $timeStampAgeSeconds s ago: delete $expectedDelete', ({ timeStampAgeSeconds, expectedDelete }) => {
    const pod = pods.rcPod();
    if (timeStampAgeSeconds > 0) pod.deleting(NOW - timeStampAgeSeconds);
    const result = plan({ pods: [pod.obj()] }, {}, { skipWaitForDeleteTimeoutSeconds: 20 });
    expect(result.pods[0]!.action === 'evict').toBe(expectedDelete);
    if (!expectedDelete) expect(result.pods[0]!.action).toBe('skip');
  });
});

describe("kubectl's TestDaemonSetFilter", () => {
  it.each([
    { ownerKind: 'DaemonSet', ignore: true, force: true, phase: 'Running', action: 'skip', warning: true },
    { ownerKind: 'DaemonSet', ignore: false, force: true, phase: 'Running', action: 'refuse', warning: false },
    { ownerKind: 'DaemonSet', ignore: false, force: false, phase: 'Running', action: 'refuse', warning: false },
    { ownerKind: 'DaemonSet', ignore: true, force: false, phase: 'Running', action: 'skip', warning: true },
    { ownerKind: 'DaemonSet', ignore: true, force: false, phase: 'Failed', action: 'evict', warning: false },
    { ownerKind: 'ReplicaSet', ignore: false, force: false, phase: 'Running', action: 'evict', warning: false },
    { ownerKind: 'ReplicaSet', ignore: true, force: false, phase: 'Running', action: 'evict', warning: false },
  ] as const)('$ownerKind pod, $phase, ignore $ignore, force $force: $action', (c) => {
    const pod = makePod()
      .name('pod')
      .ns('default')
      .node('node')
      .owner(c.ownerKind, c.ownerKind === 'DaemonSet' ? 'ds' : 'rs')
      .phase(c.phase);
    const result = plan({ pods: [pod.obj()] }, { ignoreDaemonSets: c.ignore, force: c.force });
    const planned = result.pods[0]!;
    expect(planned.action).toBe(c.action);
    if (c.action === 'refuse') {
      expect(planned.reason).toBe('DaemonSet-managed Pods (use --ignore-daemonsets to ignore)');
    }
    if (c.warning) expect(planned.reason).toBe('ignoring DaemonSet-managed Pods');
  });
});
