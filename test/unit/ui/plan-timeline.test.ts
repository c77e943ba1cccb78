import { describe, expect, it } from 'vitest';
import type { DrainPlan } from '../../../src/plan/types.js';
import { nodeFailureTimeline, noExecuteTimeline, timelineRows } from '../../../src/ui/plan-timeline.js';
import { daemonPod, helloPod, slowPlan } from './plan-fixture.js';

const patientPlan: DrainPlan = {
  ...slowPlan(),
  pods: [
    helloPod('hello-a'),
    helloPod('patient', {
      noExecute: { afterSeconds: 30, reason: 'tolerates maintenance for 30s' },
      nodeFailure: { afterSeconds: 350, reason: 'tolerates unreachable for 300s' },
    }),
    daemonPod('kube-proxy-x1'),
  ],
};

describe('noExecuteTimeline', () => {
  it('starts with the taint at t=0 and marks each deletion at its tolerationSeconds', () => {
    expect(noExecuteTimeline(patientPlan)).toEqual({
      title: 'If tainted maintenance:NoExecute now',
      marks: [
        { atSeconds: 0, label: 'taint added; 1 pod deleted', pods: ['demo/hello-a'] },
        { atSeconds: 30, label: '1 pod deleted', pods: ['demo/patient'] },
      ],
      never: ['kube-system/kube-proxy-x1'],
    });
  });
});

describe('nodeFailureTimeline', () => {
  it('marks the node going unreachable at node-monitor-grace-period, then deletions after it', () => {
    const timeline = nodeFailureTimeline(patientPlan);
    expect(timeline.title).toBe('If k8s-node-1 failed now (node-monitor-grace-period 50s)');
    expect(timeline.marks.map((m) => [m.atSeconds, m.label])).toEqual([
      [0, 'node stops reporting'],
      [50, 'marked unreachable, NoExecute taint'],
      [110, '1 pod deleted'],
      [350, '1 pod deleted'],
    ]);
  });
  it('reads as rows of seconds, then the pods it never deletes', () => {
    expect(timelineRows(nodeFailureTimeline(patientPlan))).toEqual([
      ['0s', 'node stops reporting'],
      ['50s', 'marked unreachable, NoExecute taint'],
      ['110s', '1 pod deleted: demo/hello-a'],
      ['350s', '1 pod deleted: demo/patient'],
      ['never', '1 pod: kube-system/kube-proxy-x1'],
    ]);
  });
});
