import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { NoExecuteComparison } from '../../../../src/ui/components/NoExecuteComparison.js';
import { budgetBreaches, noExecuteComparison } from '../../../../src/ui/plan-sections.js';
import { clearPlan, slowPlan } from '../plan-fixture.js';

describe('<NoExecuteComparison />', () => {
  it('sets what the taint does beside what the drain does, then the budgets it breaks', () => {
    const plan = slowPlan();
    const { lastFrame } = render(
      <NoExecuteComparison rows={noExecuteComparison(plan)} breaches={budgetBreaches(plan)} />,
    );
    expect(lastFrame()).toMatchInlineSnapshot(`
      "TAINT             DRAIN               PODS
      deleted at once   evicted at once     demo/hello-a
      deleted at once   evicted in wave 2   demo/hello-b
      never deleted     left on the node    kube-system/kube-proxy-x1, kube-system/cni-agent-x1
      Budgets the taint breaks:
        demo/hello: 2 pods deleted while 1 disruption is allowed (demo/hello-a, demo/hello-b)"
    `);
  });
  it('says nothing about budgets when the taint breaks none', () => {
    const plan = clearPlan();
    const { lastFrame } = render(
      <NoExecuteComparison rows={noExecuteComparison(plan)} breaches={budgetBreaches(plan)} />,
    );
    expect(lastFrame()).not.toContain('Budgets the taint breaks');
  });
});
