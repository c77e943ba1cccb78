import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { budgetFacts } from '../../../src/plan/budgets.js';
import { podKey } from '../../../src/plan/pod-facts.js';
import {
  budgetsBrokenByTaint,
  maintenanceTaint,
  taintDeletion,
  taintText,
  type TaintDeletion,
} from '../../../src/plan/taint-eviction.js';
import { makePdb, makePod } from '../builders.js';

const taint = maintenanceTaint('maintenance');
const pod = () => makePod().name('p').ns('demo').node('k8s-node-2').owner('ReplicaSet', 'p-1');

describe('taintDeletion (NoExecute taint eviction)', () => {
  const cases: Array<{ name: string; pod: V1Pod; expected: TaintDeletion }> = [
    {
      name: 'A pod without a matching toleration is deleted at once',
      pod: pod().defaultTolerations().obj(),
      expected: { afterSeconds: 0, reason: 'does not tolerate maintenance:NoExecute: deleted at once' },
    },
    {
      name: 'The patient pod tolerating the taint for 30s is deleted after 30s',
      pod: pod()
        .toleration({ key: 'maintenance', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 })
        .obj(),
      expected: { afterSeconds: 30, reason: 'tolerates maintenance:NoExecute for 30s (tolerationSeconds)' },
    },
    {
      name: 'A matching toleration without tolerationSeconds keeps the pod forever',
      pod: pod().toleration({ key: 'maintenance', operator: 'Exists', effect: 'NoExecute' }).obj(),
      expected: {
        afterSeconds: null,
        reason: 'tolerates maintenance:NoExecute without tolerationSeconds: never deleted',
      },
    },
    {
      name: 'A DaemonSet pod tolerating everything is never deleted',
      pod: pod().owner('DaemonSet', 'proxy').tolerateEverything().obj(),
      expected: {
        afterSeconds: null,
        reason: 'tolerates maintenance:NoExecute without tolerationSeconds: never deleted',
      },
    },
    {
      name: 'Only the first matching toleration counts: no seconds listed before 300s keeps the pod forever',
      pod: pod()
        .toleration({ key: 'maintenance', operator: 'Exists' })
        .toleration({ key: 'maintenance', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 })
        .obj(),
      expected: {
        afterSeconds: null,
        reason: 'tolerates maintenance:NoExecute without tolerationSeconds: never deleted',
      },
    },
    {
      name: 'tolerationSeconds of 0 or less deletes the pod at once',
      pod: pod()
        .toleration({ key: 'maintenance', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: -5 })
        .obj(),
      expected: { afterSeconds: 0, reason: 'tolerates maintenance:NoExecute for -5s: deleted at once' },
    },
    {
      name: 'A toleration for another value does not match an Equal taint value',
      pod: pod().toleration({ key: 'maintenance', operator: 'Equal', value: 'kernel', effect: 'NoExecute' }).obj(),
      expected: { afterSeconds: 0, reason: 'does not tolerate maintenance:NoExecute: deleted at once' },
    },
    {
      name: 'A NoSchedule toleration does not match a NoExecute taint',
      pod: pod().toleration({ key: 'maintenance', operator: 'Exists', effect: 'NoSchedule' }).obj(),
      expected: { afterSeconds: 0, reason: 'does not tolerate maintenance:NoExecute: deleted at once' },
    },
    {
      name: 'A mirror pod is not deleted: its static pod keeps running',
      pod: pod().mirror().obj(),
      expected: { afterSeconds: null, reason: 'mirror pod: the kubelet keeps its static pod running' },
    },
  ];
  it.each(cases)('$name', ({ pod: p, expected }) => {
    expect(taintDeletion(p, taint)).toEqual(expected);
  });

  it('writes the taint as kubectl taint does', () => {
    expect(taintText(maintenanceTaint('kubectl-maint/maintenance', 'kernel'))).toBe(
      'kubectl-maint/maintenance=kernel:NoExecute',
    );
    expect(taintText(taint)).toBe('maintenance:NoExecute');
  });
});

describe('budgetsBrokenByTaint', () => {
  const hello = (name: string, ready = true) =>
    makePod()
      .name(name)
      .ns('demo')
      .node('k8s-node-1')
      .label('app', 'hello')
      .owner('ReplicaSet', 'h')
      .ready(ready)
      .obj();
  const pdb = budgetFacts(
    makePdb()
      .name('hello')
      .ns('demo')
      .selector({ app: 'hello' })
      .maxUnavailable(1)
      .status({ disruptionsAllowed: 1, currentHealthy: 4, desiredHealthy: 3, expectedPods: 4 })
      .obj(),
  );
  const tainted = (pods: V1Pod[]) =>
    pods.map((p) => ({ pod: p, key: podKey(p), budgets: [pdb], deletion: taintDeletion(p, taint) }));

  it('a budget is broken when the taint deletes more of its healthy pods than it allows disruptions', () => {
    expect(budgetsBrokenByTaint(tainted([hello('a'), hello('b')]))).toEqual([
      { namespace: 'demo', name: 'hello', pods: ['demo/a', 'demo/b'], disruptionsAllowed: 1 },
    ]);
  });

  it('a budget is not broken when the deletions stay within what it allows', () => {
    expect(budgetsBrokenByTaint(tainted([hello('a')]))).toEqual([]);
  });

  it('unready pods and pods the taint never deletes do not count', () => {
    const forever = makePod()
      .name('c')
      .ns('demo')
      .label('app', 'hello')
      .owner('ReplicaSet', 'h')
      .tolerateEverything()
      .obj();
    expect(budgetsBrokenByTaint(tainted([hello('a'), hello('b', false), forever]))).toEqual([]);
  });
});
