import { describe, expect, it } from 'vitest';
import { proceedQuestion, proceedWarning } from '../../../src/cli/commands/drain.js';
import type { DrainTargets } from '../../../src/drain/targets.js';
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

  it('on a disruptive plan says which workload the drain leaves down', () => {
    const plan = {
      ...clearPlan(),
      verdict: 'disruptive' as const,
      verdictReasons: ['StatefulSet demo/db: 1 of 1 replica down until k8s-node-1 returns (…)'],
    };
    expect(proceedWarning(plan, 0)).toBe(
      'the plan says this drain leaves a workload down: StatefulSet demo/db: 1 of 1 replica down until k8s-node-1 returns (…)',
    );
    expect(proceedQuestion(plan, { targets: [], skipped: [], refusals: [] }, 200)).toMatch(
      /^Drain: cordon k8s-node-1 and evict 0 pods \(the plan says this drain leaves a workload down: StatefulSet demo\/db: 1 of 1 replica down/,
    );
  });

  it('says nothing on a clear or slow plan', () => {
    expect(proceedWarning(clearPlan(), 0)).toBeNull();
    expect(proceedWarning(slowPlan(), 0)).toBeNull();
  });
});

describe('proceedQuestion', () => {
  const target = (name: string) => ({
    ref: { namespace: 'demo', name, uid: `uid-${name}`, node: 'k8s-node-1' },
    method: 'evict' as const,
    pdbs: ['demo/hello'],
    ownGraceSeconds: 30,
  });
  const work: DrainTargets = { targets: [target('hello-a'), target('hello-b')], skipped: [], refusals: [] };

  it('asks on one line when it fits', () => {
    expect(proceedQuestion(slowPlan(), work, 200)).toBe('Drain: cordon k8s-node-1 and evict 2 pods. Proceed? [y/N] ');
  });

  it('wraps a long question (a blocked plan gives its cause) between words, with room for the answer', () => {
    for (const width of [60, 80, 120]) {
      const question = proceedQuestion(blockedPlan(), work, width);
      const lines = question.split('\n');
      expect(lines.length, String(width)).toBeGreaterThan(1);
      expect(lines.every((line) => line.length <= width - 2)).toBe(true);
      expect(question.replace(/\n/g, ' ')).toBe(
        'Drain: cordon k8s-node-1 and evict 2 pods (the plan says this drain cannot finish: demo/hello-a: no node can take its replacement). Proceed? [y/N] ',
      );
    }
  });
});
