import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { TimelineChart } from '../../../../src/ui/components/TimelineChart.js';
import { nodeFailureTimeline } from '../../../../src/ui/plan-timeline.js';
import { slowPlan } from '../plan-fixture.js';

describe('<TimelineChart />', () => {
  it('draws the node-failure sequence on a time axis with a legend of what happens when', () => {
    const { lastFrame } = render(<TimelineChart timeline={nodeFailureTimeline(slowPlan())} width={40} />);
    expect(lastFrame()).toMatchInlineSnapshot(`
      "●────────────────●────────────────────●▶
      0s               50s                110s
      0s      node stops reporting
      50s     marked unreachable, NoExecute taint
      110s    2 pods deleted: demo/hello-a, demo/hello-b
      never   2 pods: kube-system/kube-proxy-x1, kube-system/cni-agent-x1"
    `);
    const [axis, times] = (lastFrame() ?? '').split('\n');
    expect(axis).toHaveLength(40);
    expect(times?.indexOf('50s')).toBe(axis?.indexOf('●', 1));
  });
});
