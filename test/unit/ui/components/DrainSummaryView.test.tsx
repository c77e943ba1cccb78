import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { DrainSummaryView } from '../../../../src/ui/components/DrainSummaryView.js';

describe('<DrainSummaryView />', () => {
  it('shows the outcome headline, then what was done and the state left, after a blank line', () => {
    const { lastFrame } = render(
      <DrainSummaryView
        summary={{
          tone: 'ok',
          headline: 'Drained k8s-node-1 in 45s',
          lines: ['done: 2 evicted, 1 skipped', 'left: node k8s-node-1 cordoned'],
        }}
      />,
    );
    expect(lastFrame()).toBe(
      ['', 'Drained k8s-node-1 in 45s', '  done: 2 evicted, 1 skipped', '  left: node k8s-node-1 cordoned'].join('\n'),
    );
  });
});
