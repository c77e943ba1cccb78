import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { PodGroupList } from '../../../../src/ui/components/PodGroupList.js';
import { podGroups } from '../../../../src/ui/plan-sections.js';
import { blockedPlan, clearPlan } from '../plan-fixture.js';

describe('<PodGroupList />', () => {
  it('gives blocked and waiting pods a line each, budget and wave aligned, with the reason underneath', () => {
    const { lastFrame } = render(<PodGroupList groups={podGroups(blockedPlan())} />);
    expect(lastFrame()).toMatchInlineSnapshot(`
      "Blocked: eviction never admitted (1)
        demo/hello-a   demo/hello (1 allowed)
          replacement cannot be scheduled
      Waits for a budget (1)
        demo/hello-b   wave 2   demo/hello (1 allowed)
          waits for demo/hello: the replacement of demo/hello-a must be Ready first
      Left on the node (2)
        ignoring DaemonSet-managed Pods: kube-system/kube-proxy-x1, kube-system/cni-agent-x1"
    `);
    expect(lastFrame()?.split('\n').slice(0, 3)).toEqual([
      'Blocked: eviction never admitted (1)',
      '  demo/hello-a   demo/hello (1 allowed)',
      '    replacement cannot be scheduled',
    ]);
  });

  it('puts the other pods on one line per shared reason, as kubectl does', () => {
    const { lastFrame } = render(<PodGroupList groups={podGroups(clearPlan())} />);
    expect(lastFrame()).toBe(
      [
        'Evicted at once (1)',
        '  demo/hello allows 1 disruption: demo/hello-a',
        'Left on the node (2)',
        '  ignoring DaemonSet-managed Pods: kube-system/kube-proxy-x1, kube-system/cni-agent-x1',
      ].join('\n'),
    );
  });
});
