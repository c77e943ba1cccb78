import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { filterPod, type FilterVerdict } from '../../../../src/plan/drain-filters/chain.js';
import type { FilterContext } from '../../../../src/plan/drain-filters/status.js';
import { makeDaemonSet, makeIndex, makePod, type SnapshotInput } from '../../builders.js';

const NOW = 1_800_000_000;

const flags = {
  ignoreDaemonSets: false,
  deleteEmptyDirData: false,
  force: false,
  disableEviction: false,
  skipWaitForDeleteTimeoutSeconds: 0,
  nowEpochSeconds: NOW,
};

const managed = () => makePod().name('web-1').ns('demo').node('n1').owner('ReplicaSet', 'web-abc');
const dsPod = () => makePod().name('proxy-x').ns('kube-system').node('n1').owner('DaemonSet', 'proxy');
const withProxy: SnapshotInput = { daemonSets: [makeDaemonSet().name('proxy').ns('kube-system').obj()] };

interface FilterCase {
  readonly name: string;
  readonly pod: V1Pod;
  readonly options?: Partial<FilterContext['options']>;
  readonly snapshot?: SnapshotInput;
  readonly disableEviction?: boolean;
  readonly expected: FilterVerdict;
}

const evicted: FilterVerdict = { action: 'evict', reason: '', filter: '' };

const cases: FilterCase[] = [
  { name: 'A pod with a controller is evicted with no message', pod: managed().obj(), expected: evicted },
  {
    name: 'With --disable-eviction the pod is deleted instead of evicted',
    pod: managed().obj(),
    disableEviction: true,
    expected: { action: 'delete', reason: '', filter: '' },
  },
  // skipDeletedFilter
  {
    name: 'A pod deleted longer ago than --skip-wait-for-delete-timeout is skipped',
    pod: managed()
      .deleting(NOW - 61)
      .obj(),
    options: { skipWaitForDeleteTimeoutSeconds: 60 },
    expected: {
      action: 'skip',
      reason: 'has DeletionTimestamp older than 60 seconds, skipping',
      filter: 'skipDeletedFilter',
    },
  },
  {
    name: 'A pod deleted exactly --skip-wait-for-delete-timeout seconds ago is evicted again',
    pod: managed()
      .deleting(NOW - 60)
      .obj(),
    options: { skipWaitForDeleteTimeoutSeconds: 60 },
    expected: evicted,
  },
  {
    name: 'Without --skip-wait-for-delete-timeout an already-terminating pod is evicted again',
    pod: managed()
      .deleting(NOW - 3600)
      .obj(),
    expected: evicted,
  },
  // daemonSetFilter
  {
    name: 'A DaemonSet-managed pod stops the node without --ignore-daemonsets',
    pod: dsPod().obj(),
    snapshot: withProxy,
    expected: {
      action: 'refuse',
      reason: 'DaemonSet-managed Pods (use --ignore-daemonsets to ignore)',
      filter: 'daemonSetFilter',
      override: '--ignore-daemonsets',
    },
  },
  {
    name: 'A DaemonSet-managed pod is left in place with --ignore-daemonsets',
    pod: dsPod().obj(),
    snapshot: withProxy,
    options: { ignoreDaemonSets: true },
    expected: { action: 'skip', reason: 'ignoring DaemonSet-managed Pods', filter: 'daemonSetFilter' },
  },
  {
    name: 'A finished DaemonSet pod is deleted',
    pod: dsPod().phase('Succeeded').obj(),
    snapshot: withProxy,
    expected: evicted,
  },
  {
    name: 'A pod whose DaemonSet owner is not apps/v1 is not treated as DaemonSet-managed',
    pod: makePod().name('old').node('n1').owner('DaemonSet', 'proxy', { apiVersion: 'extensions/v1beta1' }).obj(),
    expected: evicted,
  },
  {
    name: 'A pod whose DaemonSet is gone stops the node without --force, with the API error',
    pod: dsPod().obj(),
    expected: {
      action: 'refuse',
      reason: 'daemonsets.apps "proxy" not found',
      filter: 'daemonSetFilter',
      override: '--force',
    },
  },
  {
    name: 'A pod whose DaemonSet is gone is evicted silently with --force (the warning is overwritten)',
    pod: dsPod().obj(),
    options: { force: true },
    expected: evicted,
  },
  {
    name: 'A DaemonSet-managed pod is taken as having its DaemonSet when DaemonSets were not loaded',
    pod: dsPod().obj(),
    snapshot: { kinds: ['Node', 'Pod'] },
    options: { ignoreDaemonSets: true },
    expected: { action: 'skip', reason: 'ignoring DaemonSet-managed Pods', filter: 'daemonSetFilter' },
  },
  // mirrorPodFilter
  {
    name: 'A mirror pod is skipped',
    pod: makePod().name('etcd-n1').ns('kube-system').node('n1').owner('Node', 'n1').mirror().obj(),
    expected: {
      action: 'skip',
      reason: 'mirror pod of a static pod (the kubelet runs it; the API cannot delete it)',
      filter: 'mirrorPodFilter',
    },
  },
  // localStorageFilter
  {
    name: 'A pod with an emptyDir stops the node without --delete-emptydir-data',
    pod: managed().emptyDir().obj(),
    expected: {
      action: 'refuse',
      reason: 'Pods with local storage (use --delete-emptydir-data to override)',
      filter: 'localStorageFilter',
      override: '--delete-emptydir-data',
    },
  },
  {
    name: 'A pod with an emptyDir is evicted with --delete-emptydir-data (the warning is overwritten)',
    pod: managed().emptyDir().obj(),
    options: { deleteEmptyDirData: true },
    expected: evicted,
  },
  {
    name: 'A finished pod with an emptyDir is deleted without the flag',
    pod: managed().emptyDir().phase('Failed').obj(),
    expected: evicted,
  },
  {
    name: 'A hostPath volume is not local storage for kubectl',
    pod: managed()
      .volume({ name: 'logs', hostPath: { path: '/var/log' } })
      .obj(),
    expected: evicted,
  },
  // unreplicatedFilter
  {
    name: 'A pod that declares no controller stops the node without --force',
    pod: makePod().name('bare').node('n1').obj(),
    expected: {
      action: 'refuse',
      reason: 'Pods that declare no controller (use --force to override)',
      filter: 'unreplicatedFilter',
      override: '--force',
    },
  },
  {
    name: 'A pod that declares no controller is deleted with --force, with a warning',
    pod: makePod().name('bare').node('n1').obj(),
    options: { force: true },
    expected: { action: 'evict', reason: 'deleting Pods that declare no controller', filter: 'unreplicatedFilter' },
  },
  {
    name: 'A plain (non-controller) owner reference does not count as a controller',
    pod: makePod().name('owned').node('n1').owner('ConfigMap', 'x', { controller: false }).obj(),
    expected: {
      action: 'refuse',
      reason: 'Pods that declare no controller (use --force to override)',
      filter: 'unreplicatedFilter',
      override: '--force',
    },
  },
  {
    name: 'A pod owned by any controller kind (an operator) is evicted: kubectl never checks it exists',
    pod: makePod().name('db-0').node('n1').owner('PostgresCluster', 'db', { apiVersion: 'example.com/v1' }).obj(),
    expected: evicted,
  },
  {
    name: 'A finished pod that declares no controller is deleted without --force',
    pod: makePod().name('done').node('n1').phase('Succeeded').obj(),
    expected: evicted,
  },
  // order
  {
    name: 'The last filter decides: no controller plus emptyDir with --delete-emptydir-data and --force warns about the controller',
    pod: makePod().name('bare').node('n1').emptyDir().obj(),
    options: { force: true, deleteEmptyDirData: true },
    expected: { action: 'evict', reason: 'deleting Pods that declare no controller', filter: 'unreplicatedFilter' },
  },
  {
    name: 'The chain stops at the first refusal: a DaemonSet pod with an emptyDir names the DaemonSet',
    pod: dsPod().emptyDir().obj(),
    snapshot: withProxy,
    expected: {
      action: 'refuse',
      reason: 'DaemonSet-managed Pods (use --ignore-daemonsets to ignore)',
      filter: 'daemonSetFilter',
      override: '--ignore-daemonsets',
    },
  },
];

describe('kubectl drain filter chain', () => {
  it.each(cases)('$name', ({ pod, options, snapshot, disableEviction, expected }) => {
    const ctx: FilterContext = { options: { ...flags, ...options }, index: makeIndex({ pods: [pod], ...snapshot }) };
    expect(filterPod(pod, ctx, disableEviction)).toEqual(expected);
  });
});
