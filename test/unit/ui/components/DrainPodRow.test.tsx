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

  it('wraps a long state between words, every continuation line in the state column', () => {
    const pod = 'demo/hello-5c7969cf66-djmhg';
    const state =
      'budget demo/hello: needs 3 healthy, has 3, allowed 0; demo/hello-5c7969cf66-lw8f7 is Pending, the ' +
      "scheduler says: 0/3 nodes are available: 1 node(s) didn't match pod topology spread constraints, 1 " +
      'node(s) had untolerated taint(s), 1 node(s) were unschedulable. · attempt 5 · waiting 18s';
    // ink-testing-library's terminal is 100 columns wide.
    const lines = render(<DrainPodRow pod={pod} state={state} tone="warn" nameWidth={pod.length} />)
      .lastFrame()!
      .split('\n');
    const column = pod.length + 3;
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(100);
    for (const line of lines.slice(1)) expect(line.slice(0, column + 1)).toMatch(new RegExp(`^ {${column}}\\S`));
    expect(lines.map((l) => l.slice(column).trim()).join(' ')).toBe(state);
  });
});
