import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { CaveatList } from '../../../../src/ui/components/CaveatList.js';

const caveats = [
  'Jobs were not loaded',
  'Readiness is assumed',
  'Scoring is approximate',
  'Pending pods do not compete',
];

describe('<CaveatList />', () => {
  it('folds to the first three and says how to see the rest, so caveats never bury the plan', () => {
    expect(render(<CaveatList caveats={caveats} all={false} />).lastFrame()).toBe(
      ['- Jobs were not loaded', '- Readiness is assumed', '- Scoring is approximate', '… 1 more (d shows them)'].join(
        '\n',
      ),
    );
  });
  it('shows every caveat when asked', () => {
    const frame = render(<CaveatList caveats={caveats} all />).lastFrame() ?? '';
    expect(frame.split('\n')).toHaveLength(4);
    expect(frame).not.toContain('more');
  });
});
