import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { ProgressBar } from '../../../../src/ui/components/ProgressBar.js';

describe('<ProgressBar />', () => {
  it.each([
    { done: 0, total: 4, frame: '[░░░░░░░░] 0/4' },
    { done: 1, total: 4, frame: '[██░░░░░░] 1/4' },
    { done: 4, total: 4, frame: '[████████] 4/4' },
    { done: 0, total: 0, frame: '[████████] 0/0' },
  ])('$done of $total fills the bar as $frame', ({ done, total, frame }) => {
    expect(render(<ProgressBar done={done} total={total} width={8} />).lastFrame()).toBe(frame);
  });
});
