import type { V1Deployment } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { unsettled } from '../../../src/run/settled.js';
import { makeDeployment, makeNode, makeSnapshot } from '../builders.js';

/** A Deployment `web` in `shop` with `ready` of 3 replicas Ready, its status observed. */
function web(ready: number): V1Deployment {
  const d = makeDeployment().name('web').ns('shop').replicas(3).obj();
  return { ...d, status: { observedGeneration: 1, readyReplicas: ready, replicas: 3 } };
}

describe('unsettled: what the cluster still waits for after the run returned a batch', () => {
  const moved = new Set(['shop/Deployment/web']);

  it('a returned node with the not-ready taint the node lifecycle controller has not lifted yet', () => {
    const snapshot = makeSnapshot({
      nodes: [
        makeNode().name('w1').taint('node.kubernetes.io/not-ready', 'NoSchedule').obj(),
        makeNode().name('w2').taint('node.kubernetes.io/unreachable', 'NoExecute').obj(),
        makeNode().name('w3').obj(),
      ],
    });
    expect(unsettled(snapshot, new Set(['w1', 'w3']), moved)).toEqual(['node w1 still has a not-ready taint']);
  });

  it('a returned node uncordoned but still carrying the cordon taint; one still cordoned (--no-uncordon) is settled', () => {
    const uncordoned = makeNode().name('w1').taint('node.kubernetes.io/unschedulable', 'NoSchedule').obj();
    const snapshot = makeSnapshot({
      nodes: [uncordoned, makeNode().name('w2').cordoned().obj(), makeNode().name('w3').obj()],
    });
    expect(unsettled(snapshot, new Set(['w1', 'w2', 'w3']), moved)).toEqual([
      'node w1 is uncordoned but still has the node.kubernetes.io/unschedulable taint',
    ]);
  });

  it("another run's node out of service on its way back; its pending, done or failed nodes, and this run's, do not count", () => {
    const inRun = (name: string, run: string, phase: string) =>
      makeNode().name(name).annotation('maint.kubectl.io/run', run).annotation('maint.kubectl.io/phase', phase).obj();
    const snapshot = makeSnapshot({
      nodes: [
        inRun('w1', 'other', 'command-running'),
        inRun('w2', 'other', 'pending'),
        inRun('w3', 'other', 'command-failed'),
        inRun('w4', 'other', 'done'),
        inRun('w5', 'mine', 'draining'),
      ],
    });
    expect(unsettled(snapshot, new Set(), moved, 'mine')).toEqual([
      'node w1 is out of service in run other (command-running)',
    ]);
  });

  it('a workload the run moved with a replacement not Ready yet; other workloads do not count', () => {
    const other = { ...web(0), metadata: { ...web(0).metadata, name: 'other' } };
    expect(unsettled(makeSnapshot({ deployments: [web(2), other] }), new Set(), moved)).toEqual([
      'shop/Deployment/web: 2 of 3 pods Ready',
    ]);
    expect(unsettled(makeSnapshot({ deployments: [web(3), other] }), new Set(), moved)).toEqual([]);
  });

  it('a status the controller has not caught up with (observedGeneration behind) is not settled', () => {
    const d = web(3);
    const stale = { ...d, metadata: { ...d.metadata, generation: 2 } };
    expect(unsettled(makeSnapshot({ deployments: [stale] }), new Set(), moved)).toEqual([
      'shop/Deployment/web: 3 of 3 pods Ready',
    ]);
  });
});
