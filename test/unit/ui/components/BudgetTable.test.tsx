import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { BudgetTable } from '../../../../src/ui/components/BudgetTable.js';
import { budgetLine } from '../../../../src/ui/plan-sections.js';
import { helloBudget } from '../plan-fixture.js';

describe('<BudgetTable />', () => {
  it('lists allowed, healthy/desired, pods on the drained nodes and waves, then any problem', () => {
    const budgets = [
      budgetLine(helloBudget()),
      budgetLine(helloBudget({ name: 'strict', disruptionsAllowed: 0, neverAllows: 'maxUnavailable is 0', waves: 0 })),
    ];
    const { lastFrame } = render(<BudgetTable budgets={budgets} />);
    expect(lastFrame()).toMatchInlineSnapshot(`
      "NAME          ALLOWED   HEALTHY/DESIRED   ON DRAINED NODES   WAVES
      demo/hello    1         4/3               2 pods             2 waves of 1
      demo/strict   0         4/3               2 pods             never
      ! demo/strict: maxUnavailable is 0"
    `);
    expect(lastFrame()).toContain('! demo/strict: maxUnavailable is 0');
  });
});
