import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { controllerOf, type ControllerInfo } from '../../../src/plan/controller.js';
import {
  makeDaemonSet,
  makeIndex,
  makeJob,
  makePod,
  makeReplicaSet,
  makeStatefulSet,
  type SnapshotInput,
} from '../builders.js';

const pod = () => makePod().name('p').ns('demo').node('n1');

const cases: Array<{ name: string; pod: V1Pod; snapshot?: SnapshotInput; expected: ControllerInfo | null }> = [
  {
    name: 'A ReplicaSet owned by a Deployment: the Deployment recreates the pod',
    pod: pod().owner('ReplicaSet', 'hello-5d9c7b').obj(),
    snapshot: { replicaSets: [makeReplicaSet().name('hello-5d9c7b').ns('demo').owner('Deployment', 'hello').obj()] },
    expected: { kind: 'Deployment', name: 'hello', recreates: true, caveat: null },
  },
  {
    name: 'A ReplicaSet without a Deployment recreates the pod itself',
    pod: pod().owner('ReplicaSet', 'solo').obj(),
    snapshot: { replicaSets: [makeReplicaSet().name('solo').ns('demo').obj()] },
    expected: { kind: 'ReplicaSet', name: 'solo', recreates: true, caveat: null },
  },
  {
    name: 'A StatefulSet recreates its pod',
    pod: pod().owner('StatefulSet', 'db').obj(),
    snapshot: { statefulSets: [makeStatefulSet().name('db').ns('demo').obj()] },
    expected: { kind: 'StatefulSet', name: 'db', recreates: true, caveat: null },
  },
  {
    name: 'A Job recreates a running pod it loses',
    pod: pod().owner('Job', 'backup').obj(),
    snapshot: { jobs: [makeJob().name('backup').ns('demo').obj()] },
    expected: { kind: 'Job', name: 'backup', recreates: true, caveat: null },
  },
  {
    name: 'A DaemonSet is the controller of its pods',
    pod: pod().owner('DaemonSet', 'proxy').obj(),
    snapshot: { daemonSets: [makeDaemonSet().name('proxy').ns('demo').obj()] },
    expected: { kind: 'DaemonSet', name: 'proxy', recreates: true, caveat: null },
  },
  { name: 'A bare pod has no controller', pod: pod().obj(), expected: null },
  {
    name: 'A static pod is owned by its Node, which recreates nothing through the API',
    pod: pod().owner('Node', 'n1').mirror().obj(),
    expected: { kind: 'Node', name: 'n1', recreates: false, caveat: null },
  },
  {
    name: 'An owner missing from a snapshot that loaded its kind recreates nothing',
    pod: pod().owner('ReplicaSet', 'gone').obj(),
    expected: {
      kind: 'ReplicaSet',
      name: 'gone',
      recreates: false,
      caveat: 'ReplicaSet demo/gone does not exist: nothing recreates the pod',
    },
  },
  {
    name: 'An owner whose kind the snapshot did not load is assumed to exist, and the plan says so',
    pod: pod().owner('ReplicaSet', 'hello-5d9c7b').obj(),
    snapshot: { kinds: ['Node', 'Pod', 'PodDisruptionBudget'] },
    expected: {
      kind: 'ReplicaSet',
      name: 'hello-5d9c7b',
      recreates: true,
      caveat:
        'ReplicaSets were not loaded: pods owned by ReplicaSets are assumed to be recreated; their Deployments are not named',
    },
  },
  {
    name: 'An operator (custom resource) is assumed to recreate its pod',
    pod: pod().owner('PostgresCluster', 'db', { apiVersion: 'example.com/v1' }).obj(),
    expected: {
      kind: 'PostgresCluster',
      name: 'db',
      recreates: true,
      caveat: 'PostgresCluster is not a built-in controller: its pods are assumed to be recreated',
    },
  },
];

describe('controllerOf', () => {
  it.each(cases)('$name', ({ pod: p, snapshot, expected }) => {
    expect(controllerOf(p, makeIndex({ pods: [p], ...snapshot }))).toEqual(expected);
  });
});
