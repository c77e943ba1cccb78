import { describe, expect, it } from 'vitest';
import {
  budgetsSelecting,
  coveringBudget,
  coveringBudgetText,
  sameCovering,
} from '../../../src/drain/budget-coverage.js';
import { budgetWaitText } from '../../../src/ui/drain-pod-text.js';
import { waitingForHello } from './states.js';

const selectors = new Map([
  ['demo/hello', { matchLabels: { app: 'hello' } }],
  ['demo/hello-extra', { matchExpressions: [{ key: 'extra', operator: 'Exists' }] }],
  ['other/hello', { matchLabels: { app: 'hello' } }],
]);

describe('budgetsSelecting', () => {
  it("names every budget of the pod's namespace whose selector matches its labels, sorted", () => {
    expect(budgetsSelecting('demo', { app: 'hello', extra: 'yes' }, selectors)).toEqual([
      'demo/hello',
      'demo/hello-extra',
    ]);
    expect(budgetsSelecting('demo', { app: 'hello' }, selectors)).toEqual(['demo/hello']);
    expect(budgetsSelecting('demo', undefined, selectors)).toEqual([]);
  });
});

describe('coveringBudget and its words', () => {
  const numbers = { disruptionsAllowed: 1, currentHealthy: 4, desiredHealthy: 3, observed: true };

  it('carries the numbers last watched, and says them as the wait lines do', () => {
    const budget = coveringBudget('demo/hello-extra', numbers);
    expect(budget).toEqual({ pdb: 'demo/hello-extra', disruptionsAllowed: 1, currentHealthy: 4, desiredHealthy: 3 });
    expect(coveringBudgetText(budget)).toBe('demo/hello-extra (needs 3 healthy, has 4, allowed 1)');
  });

  it('is its name alone while the watch has not reported it', () => {
    expect(coveringBudgetText(coveringBudget('demo/new', undefined))).toBe('demo/new');
  });

  it('is the same list only with the same budgets and numbers', () => {
    const a = [coveringBudget('demo/x', numbers)];
    expect(sameCovering(a, [coveringBudget('demo/x', numbers)])).toBe(true);
    expect(sameCovering(a, [coveringBudget('demo/x', { ...numbers, disruptionsAllowed: 0 })])).toBe(false);
    expect(sameCovering(undefined, [])).toBe(true);
    expect(sameCovering(a, [])).toBe(false);
  });
});

describe('a wait that names a second budget', () => {
  const pod = { namespace: 'demo', name: 'hello-1', uid: 'u1', node: 'k8s-node-1' };

  it('says the other budget and its state, and that the Eviction API refuses a pod under two', () => {
    const wait = {
      ...waitingForHello,
      otherBudgets: [{ pdb: 'demo/hello-extra', disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1 }],
    };
    expect(budgetWaitText(pod, wait)).toBe(
      'PodDisruptionBudget demo/hello: needs 3 healthy, has 3, allowed 0; also under budget demo/hello-extra ' +
        '(needs 1 healthy, has 1, allowed 0): the Eviction API refuses a pod under more than one budget (500)',
    );
  });

  it('says nothing more when the pod has one budget', () => {
    expect(budgetWaitText(pod, waitingForHello)).toBe(
      'PodDisruptionBudget demo/hello: needs 3 healthy, has 3, allowed 0',
    );
  });
});
