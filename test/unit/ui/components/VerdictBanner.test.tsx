import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { VerdictBanner } from '../../../../src/ui/components/VerdictBanner.js';

describe('<VerdictBanner />', () => {
  it('puts the headline first and each reason under it', () => {
    const { lastFrame } = render(
      <VerdictBanner
        verdict="blocked"
        headline="BLOCKED: draining k8s-node-1 cannot finish"
        reasons={['demo/hello-a: no node can take its replacement', 'demo/x: budget never allows an eviction']}
      />,
    );
    expect(lastFrame()).toMatchInlineSnapshot(`
      "BLOCKED: draining k8s-node-1 cannot finish
        - demo/hello-a: no node can take its replacement
        - demo/x: budget never allows an eviction"
    `);
    expect(lastFrame()?.split('\n')[0]).toBe('BLOCKED: draining k8s-node-1 cannot finish');
  });
  it('shows a bare headline when there are no reasons', () => {
    const { lastFrame } = render(
      <VerdictBanner verdict="clear" headline="CLEAR: every pod can leave n1 now" reasons={[]} />,
    );
    expect(lastFrame()).toBe('CLEAR: every pod can leave n1 now');
  });
  it('names what the drain destroys for good under the reasons', () => {
    const { lastFrame } = render(
      <VerdictBanner
        verdict="clear"
        headline="CLEAR: every pod can leave n1 now"
        reasons={['all 3 pods can be evicted at once']}
        warnings={['Warning: 3 pods are deleted for good, no controller recreates them: a/x, a/y, a/z']}
      />,
    );
    expect(lastFrame()?.split('\n')).toEqual([
      'CLEAR: every pod can leave n1 now',
      '  - all 3 pods can be evicted at once',
      'Warning: 3 pods are deleted for good, no controller recreates them: a/x, a/y, a/z',
    ]);
  });
});
