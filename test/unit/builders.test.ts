import { describe, expect, it } from 'vitest';
import { makeDeployment, makeIndex, makeNode, makePdb, makePod, makeReplicaSet } from './builders.js';

describe('builders', () => {
  it('builds a pod owned by a ReplicaSet with a predictable uid and a Ready condition', () => {
    const pod = makePod()
      .name('hello-1')
      .ns('demo')
      .node('k8s-node-1')
      .label('app', 'hello')
      .owner('ReplicaSet', 'hello-abc')
      .obj();
    expect(pod.metadata?.uid).toBe('uid-pod-demo-hello-1');
    expect(pod.metadata?.ownerReferences).toEqual([
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        name: 'hello-abc',
        uid: 'uid-replicaset-demo-hello-abc',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(pod.status?.conditions).toEqual([{ type: 'Ready', status: 'True' }]);
  });

  it('returns independent copies, so one builder can stamp several objects', () => {
    const builder = makePod().name('a');
    const first = builder.obj();
    builder.label('x', 'y');
    expect(first.metadata?.labels).toEqual({});
  });

  it('indexes what it builds through ClusterIndex', () => {
    const index = makeIndex({
      nodes: [makeNode().name('n1').obj()],
      pods: [makePod().name('p').ns('demo').node('n1').label('app', 'web').obj()],
      pdbs: [makePdb().name('web').ns('demo').selector({ app: 'web' }).maxUnavailable(1).obj()],
      replicaSets: [makeReplicaSet().name('web-1').ns('demo').owner('Deployment', 'web').obj()],
      deployments: [makeDeployment().name('web').ns('demo').replicas(2).obj()],
    });
    expect(index.node('n1')?.metadata?.labels?.['kubernetes.io/hostname']).toBe('n1');
    expect(index.pdbsForPod(index.podsOnNode('n1')[0]!).map((p) => p.metadata?.name)).toEqual(['web']);
    expect(index.owner('ReplicaSet', 'demo', 'web-1')?.metadata?.ownerReferences?.[0]?.kind).toBe('Deployment');
  });
});
