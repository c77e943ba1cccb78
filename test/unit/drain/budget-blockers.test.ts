import { describe, expect, it } from 'vitest';
import { budgetBlockers, sameBlockers } from '../../../src/drain/budget-blockers.js';
import { makePod } from '../builders.js';

// What holds a budget, read off its pods as the API server shows them (shapes as the lab's
// kube-scheduler and KWOK write them).

const UNSCHEDULABLE =
  "0/4 nodes are available: 1 node(s) didn't match pod topology spread constraints, 1 node(s) had untolerated taint(s), 1 node(s) were unschedulable.";

const replacement = () => {
  const pod = makePod().name('hello-new').ns('demo').phase('Pending').ready(false).obj();
  delete pod.spec!.nodeName;
  pod.status!.conditions = [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: UNSCHEDULABLE }];
  return pod;
};

describe('budgetBlockers', () => {
  it('names a Pending pod the scheduler cannot place with its message, first', () => {
    const unready = makePod().name('hello-a').ns('demo').node('k8s-node-2').ready(false).obj();
    const healthy = makePod().name('hello-b').ns('demo').node('k8s-node-2').obj();
    expect(budgetBlockers([unready, healthy, replacement()])).toEqual([
      { pod: 'demo/hello-new', state: 'unschedulable', message: UNSCHEDULABLE },
      { pod: 'demo/hello-a', state: 'not-ready', message: 'not Ready' },
    ]);
  });

  it('a pod not yet scheduled, or scheduled and starting, is pending; one being deleted says nothing', () => {
    const queued = makePod().name('q').ns('demo').phase('Pending').ready(false).obj();
    delete queued.spec!.nodeName;
    const starting = makePod().name('s').ns('demo').node('k8s-node-3').phase('Pending').ready(false).obj();
    const leaving = makePod().name('l').ns('demo').node('k8s-node-1').ready(false).deleting(1).obj();
    expect(budgetBlockers([queued, starting, leaving])).toEqual([
      { pod: 'demo/q', state: 'pending', message: 'not yet scheduled' },
      { pod: 'demo/s', state: 'pending', message: 'scheduled to k8s-node-3, starting' },
    ]);
  });

  it('every pod Ready: nothing holds the budget', () => {
    expect(budgetBlockers([makePod().name('a').node('n').obj()])).toEqual([]);
  });

  it('tells an unchanged answer from a new one', () => {
    const found = budgetBlockers([replacement()]);
    expect(sameBlockers(undefined, found)).toBe(false);
    expect(sameBlockers(found, budgetBlockers([replacement()]))).toBe(true);
    expect(sameBlockers(found, [])).toBe(false);
  });
});
