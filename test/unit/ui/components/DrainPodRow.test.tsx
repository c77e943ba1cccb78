import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { DrainPodRow } from '../../../../src/ui/components/DrainPodRow.js';

describe('<DrainPodRow />', () => {
  it('puts the state in a column after the padded pod name', () => {
    const { lastFrame } = render(
      <DrainPodRow pod="demo/hello-a" state="terminating, 12s grace left" tone="accent" nameWidth={20} />,
    );
    expect(lastFrame()).toBe('demo/hello-a           terminating, 12s grace left');
  });
});
