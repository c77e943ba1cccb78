import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../../src/plan/build-plan.js';
import { renderPlanText } from '../../../src/ui/plan-text.js';
import { options, pdb, singleReplica } from '../plan/rules-fixture.js';

/** One replica of Deployment shop/web on n1 under minAvailable 1: its budget never admits the eviction. */
const soloWeb = () => singleReplica(pdb({ minAvailable: 1 }));

describe('a pod a strategy takes out although its budget never admits the eviction', () => {
  it('is listed under the strategy, not under "Blocked", and its budget says which strategy lets it go', () => {
    const text = renderPlanText(buildPlan(soloWeb(), options({ surge: { all: true, deployments: [] } })));
    expect(text).toMatch(/^SLOW: /);
    expect(text).not.toContain('Blocked: eviction never admitted');
    expect(text).toContain('Taken out by a strategy (their budget never admits the eviction) (1)');
    expect(text).toMatch(/shop\/web +0 +1\/1 +1 pod +never: --surge/);
  });

  it('without the strategy it stays blocked', () => {
    const text = renderPlanText(buildPlan(soloWeb(), options()));
    expect(text).toMatch(/^BLOCKED: /);
    expect(text).toContain('Blocked: eviction never admitted (1)');
    expect(text).not.toContain('Taken out by a strategy');
  });

  it('by --escalate-after: listed under the strategy too', () => {
    const text = renderPlanText(
      buildPlan(soloWeb(), options({ escalation: { afterSeconds: 15, namespaces: ['shop'] } })),
    );
    expect(text).not.toContain('Blocked: eviction never admitted');
    expect(text).toContain('Taken out by a strategy');
    expect(text).toMatch(/never: --escalate-after/);
  });
});
