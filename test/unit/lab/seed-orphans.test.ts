import { describe, expect, it } from 'vitest';
import { orphanedPods, type KubeObject } from '../../../scripts/lab/seed.js';

// The seed waits until no pod's controller is gone: a DaemonSet controller whose informer still held the
// DaemonSet a reset deleted makes pods under its old uid, which a test then finds beside the new ones.

const pod = (
  name: string,
  owner?: { kind: string; uid: string; controller?: boolean },
  deleting = false,
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    namespace: 'kube-system',
    ...(owner
      ? {
          ownerReferences: [
            { kind: owner.kind, name: 'kube-proxy', uid: owner.uid, controller: owner.controller ?? true },
          ],
        }
      : {}),
    ...(deleting ? { deletionTimestamp: '2026-12-07T00:00:00Z' } : {}),
  },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
});

describe('orphanedPods', () => {
  it('finds a Running and Ready pod whose DaemonSet uid is no live one, beside the live DaemonSet’s pod', () => {
    const pods = [
      pod('kube-proxy-new', { kind: 'DaemonSet', uid: 'new' }),
      pod('kube-proxy-old', { kind: 'DaemonSet', uid: 'old' }),
    ];
    expect(orphanedPods(pods, new Set(['new'])).map((p) => p.metadata.name)).toEqual(['kube-proxy-old']);
  });

  it('leaves bare pods, pods of kinds the seed does not list, non-controller owners and pods already going', () => {
    const pods = [
      pod('bare'),
      pod('of-a-node', { kind: 'Node', uid: 'n' }),
      pod('not-controlled', { kind: 'ReplicaSet', uid: 'gone', controller: false }),
      pod('going', { kind: 'ReplicaSet', uid: 'gone' }, true),
    ];
    expect(orphanedPods(pods, new Set())).toEqual([]);
  });

  it('judges every controller kind the scenarios use', () => {
    const kinds = ['DaemonSet', 'ReplicaSet', 'StatefulSet', 'Job'];
    const pods = kinds.map((kind) => pod(kind, { kind, uid: `${kind}-old` }));
    expect(orphanedPods(pods, new Set(['ReplicaSet-old'])).map((p) => p.metadata.name)).toEqual([
      'DaemonSet',
      'StatefulSet',
      'Job',
    ]);
  });
});
