import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { PodGroupList } from '../../../../src/ui/components/PodGroupList.js';
import { podGroups } from '../../../../src/ui/plan-sections.js';
import { blockedPlan } from '../plan-fixture.js';

describe('<PodGroupList />', () => {
  it('shows each group with its count, pods with budget and reason, DaemonSet pods by reason', () => {
    const { lastFrame } = render(<PodGroupList groups={podGroups(blockedPlan())} />);
    const frame = lastFrame() ?? '';
    expect(frame.split('\n')[0]).toBe('Blocked: eviction never admitted (1)');
    expect(frame).toContain('  demo/hello-a   demo/hello (1 allowed)   replacement cannot be scheduled');
    expect(frame).toContain('Waits for a budget (1)');
    expect(frame).toContain('  demo/hello-b   wave 2   demo/hello (1 allowed)');
    expect(frame).toContain('Left on the node (2)');
    expect(frame).toContain('  ignoring DaemonSet-managed Pods:   kube-system/kube-proxy-x1, kube-system/cni-agent-x1');
  });
});
