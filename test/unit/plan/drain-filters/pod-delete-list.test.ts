import { describe, expect, it } from 'vitest';
import { refusalLines } from '../../../../src/plan/drain-filters/pod-delete-list.js';

const pods = [
  { namespace: 'kube-system', name: 'proxy-a', reason: 'DaemonSet-managed Pods (use --ignore-daemonsets to ignore)' },
  { namespace: 'demo', name: 'bare', reason: 'Pods that declare no controller (use --force to override)' },
  { namespace: 'kube-system', name: 'cni-b', reason: 'DaemonSet-managed Pods (use --ignore-daemonsets to ignore)' },
];

describe('PodDeleteList aggregation', () => {
  it('groups refusals by message, one "cannot delete" line per group, pods in order', () => {
    expect(refusalLines(pods)).toEqual([
      'cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): kube-system/proxy-a, kube-system/cni-b',
      'cannot delete Pods that declare no controller (use --force to override): demo/bare',
    ]);
  });

  it('names an empty message "unexpected error", as kubectl does', () => {
    expect(refusalLines([{ namespace: 'a', name: 'b', reason: '' }])).toEqual(['cannot delete unexpected error: a/b']);
  });
});
