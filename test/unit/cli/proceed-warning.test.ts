import { describe, expect, it } from 'vitest';
import { proceedWarning } from '../../../src/cli/commands/drain.js';
import { blockedPlan, clearPlan, slowPlan } from '../ui/plan-fixture.js';

// `drain --yes` (or a drain with no terminal to ask on) goes ahead on a plan that expects it not to
// finish: it says why, and what bounds the wait.

describe('proceedWarning', () => {
  it('on a blocked plan names the cause and the --timeout in force', () => {
    expect(proceedWarning(blockedPlan(), 300_000)).toBe(
      'the plan says this drain cannot finish: demo/hello-a: no node can take its replacement; --timeout 5m stops it',
    );
  });

  it('says when there is no --timeout: the drain waits until interrupted', () => {
    expect(proceedWarning(blockedPlan(), 0)).toMatch(
      /; there is no --timeout, so it waits until interrupted \(Ctrl-C\)$/,
    );
  });

  it('on an incomplete plan says the drain may not finish', () => {
    const plan = {
      ...clearPlan(),
      verdict: 'incomplete' as const,
      verdictReasons: ['PodDisruptionBudgets not read: …'],
    };
    expect(proceedWarning(plan, 0)).toMatch(
      /^the plan could not read all it needs, so this drain may not finish: PodDisruptionBudgets not read/,
    );
  });

  it('says nothing on a clear or slow plan', () => {
    expect(proceedWarning(clearPlan(), 0)).toBeNull();
    expect(proceedWarning(slowPlan(), 0)).toBeNull();
  });
});
