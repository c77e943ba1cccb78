import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { KeyHints } from '../../../../src/ui/components/KeyHints.js';

describe('<KeyHints />', () => {
  it.each([
    { details: false, text: 'd show per-node reasons · q quit' },
    { details: true, text: 'd hide per-node reasons · q quit' },
  ])('with details $details reads "$text"', ({ details, text }) => {
    expect(render(<KeyHints details={details} />).lastFrame()).toBe(text);
  });
});
