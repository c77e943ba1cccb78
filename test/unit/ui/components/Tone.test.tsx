import chalk from 'chalk';
import { render } from 'ink-testing-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ColorContext } from '../../../../src/ui/color-context.js';
import { Tone } from '../../../../src/ui/components/Tone.js';

// Ink colours through chalk, which sees no terminal under vitest; force a colour level so the test can
// tell coloured output from plain (chalk is Ink's own dependency, used here only to set that level).
const level = chalk.level;
beforeAll(() => {
  chalk.level = 1;
});
afterAll(() => {
  chalk.level = level;
});

describe('<Tone />', () => {
  it('colours bad text red when colours are on', () => {
    const { lastFrame } = render(
      <ColorContext.Provider value={true}>
        <Tone tone="bad">blocked</Tone>
      </ColorContext.Provider>,
    );
    expect(lastFrame()).toBe('\u001b[31mblocked\u001b[39m');
  });
  it('writes no colour code at all under NO_COLOR', () => {
    const { lastFrame } = render(
      <ColorContext.Provider value={false}>
        <Tone tone="bad" bold>
          blocked
        </Tone>
      </ColorContext.Provider>,
    );
    // Bold stays (NO_COLOR is about colour), the red code is gone.
    expect(lastFrame()).toBe('\u001b[1mblocked\u001b[22m');
  });
  it('dims muted text instead of colouring it, so it stays readable without colour', () => {
    const { lastFrame } = render(<Tone tone="muted">context</Tone>);
    expect(lastFrame()).toBe('\u001b[2mcontext\u001b[22m');
  });
});
