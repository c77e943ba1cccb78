import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { nodeFailureDeletion } from '../../../src/plan/node-failure.js';
import type { TaintDeletion } from '../../../src/plan/taint-eviction.js';
import { makePod } from '../builders.js';

const pod = () => makePod().name('p').ns('demo').node('k8s-node-1').owner('ReplicaSet', 'p-1');

describe('nodeFailureDeletion (node goes silent)', () => {
  const cases: Array<{ name: string; pod: V1Pod; expected: TaintDeletion }> = [
    {
      name: 'A hello pod tolerating unreachable for 60s is deleted 50s + 60s after the node goes silent',
      pod: pod().defaultTolerations(60).obj(),
      expected: { afterSeconds: 110, reason: 'node-monitor-grace-period 50s + tolerationSeconds 60s' },
    },
    {
      name: 'A pod with the admission default of 300s is deleted after 50s + 300s',
      pod: pod().defaultTolerations().obj(),
      expected: { afterSeconds: 350, reason: 'node-monitor-grace-period 50s + tolerationSeconds 300s' },
    },
    {
      name: 'A pod with no unreachable toleration at all is assumed to have the 300s default',
      pod: pod().obj(),
      expected: {
        afterSeconds: 350,
        reason:
          'node-monitor-grace-period 50s + 300s (no toleration for node.kubernetes.io/unreachable: assumed the default DefaultTolerationSeconds admission adds)',
      },
    },
    {
      name: 'A DaemonSet pod tolerating unreachable without seconds is never deleted',
      pod: pod()
        .owner('DaemonSet', 'proxy')
        .toleration({ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' })
        .obj(),
      expected: {
        afterSeconds: null,
        reason: 'tolerates node.kubernetes.io/unreachable without tolerationSeconds: never deleted',
      },
    },
    {
      name: 'tolerationSeconds 0 deletes the pod as soon as the node is marked unreachable',
      pod: pod()
        .toleration({
          key: 'node.kubernetes.io/unreachable',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 0,
        })
        .obj(),
      expected: { afterSeconds: 50, reason: 'node-monitor-grace-period 50s + tolerationSeconds 0s' },
    },
  ];
  it.each(cases)('$name', ({ pod: p, expected }) => {
    expect(nodeFailureDeletion(p, 50)).toEqual(expected);
  });

  it('adds the configured grace period (40s before Kubernetes 1.32)', () => {
    expect(nodeFailureDeletion(pod().defaultTolerations(60).obj(), 40).afterSeconds).toBe(100);
  });
});
