import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { KeyHints } from '../../../../src/ui/components/KeyHints.js';

describe('<KeyHints />', () => {
  it.each([
    { details: false, text: 'd show details (per-node reasons, every caveat) · q quit' },
    { details: true, text: 'd hide details (per-node reasons, every caveat) · q quit' },
  ])('with details $details reads "$text"', ({ details, text }) => {
    expect(render(<KeyHints details={details} />).lastFrame()).toBe(text);
  });
});
