import { Box } from 'ink';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { Columns } from '../../../../src/ui/components/Columns.js';

describe('<Columns />', () => {
  it('aligns cells under a header, three spaces apart', () => {
    const { lastFrame } = render(
      <Columns
        header={['NAME', 'ALLOWED']}
        rows={[
          ['demo/hello', '1'],
          ['x', '0'],
        ]}
      />,
    );
    expect(lastFrame()).toBe(['NAME         ALLOWED', 'demo/hello   1', 'x            0'].join('\n'));
  });
  it('wraps a long last cell under itself, never back to the left margin', () => {
    const { lastFrame } = render(
      <Box width={30}>
        <Columns rows={[['demo/a', 'one two three four five six seven']]} />
      </Box>,
    );
    expect(lastFrame()).toBe(['demo/a   one two three four', '         five six seven'].join('\n'));
  });
});
