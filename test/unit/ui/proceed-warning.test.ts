import { describe, expect, it } from 'vitest';
import { drainQuestion, proceedWarning, proceedWarningText } from '../../../src/ui/proceed-question.js';
import { blockedPlan, clearPlan, slowPlan } from './plan-fixture.js';

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
    const lab = { context: 'kind-lab', server: 'https://127.0.0.1:6443' };
    expect(drainQuestion(plan, { verb: 'evict', pods: 0 }, lab, 200).split('\n').at(-1)).toMatch(
      /^Drain: cordon k8s-node-1 and evict 0 pods \(the plan says this drain leaves a workload down: StatefulSet demo\/db: 1 of 1 replica down/,
    );
  });

  it('says nothing on a clear or slow plan', () => {
    expect(proceedWarning(clearPlan(), 0)).toBeNull();
    expect(proceedWarning(slowPlan(), 0)).toBeNull();
    expect(proceedWarningText(clearPlan(), 0, 80)).toBeNull();
  });

  it('is written as a "warning: " line wrapped to the stream, ending with a newline', () => {
    const text = proceedWarningText(blockedPlan(), 300_000, 40)!;
    expect(text.startsWith('warning: the plan says')).toBe(true);
    expect(text.endsWith('stops it\n')).toBe(true);
    const lines = text.slice(0, -1).split('\n');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.every((line) => line.length <= 40)).toBe(true);
    expect(lines.join(' ')).toBe(`warning: ${proceedWarning(blockedPlan(), 300_000)}`);
  });
});

describe('drainQuestion', () => {
  const action = { verb: 'evict' as const, pods: 2 };

  const lab = { context: 'kind-lab', server: 'https://127.0.0.1:6443' };

  it('names the verdict, the context and what a yes does, one line each when they fit', () => {
    const plan = { ...slowPlan(), eta: { totalSeconds: 45, waves: [], basis: [] } };
    expect(drainQuestion(plan, action, lab, 200).split('\n')).toEqual([
      'SLOW: draining k8s-node-1 waits for disruption budgets · about 45s',
      'Context: kind-lab (https://127.0.0.1:6443)',
      'Drain: cordon k8s-node-1 and evict 2 pods. Proceed? [y/N] ',
    ]);
  });

  it('wraps between words, with room for the answer, in a few lines (a blocked plan gives its cause)', () => {
    for (const width of [60, 80, 120]) {
      const question = drainQuestion(blockedPlan(), action, lab, width);
      const lines = question.split('\n');
      expect(lines.every((line) => line.length <= width - 2)).toBe(true);
      // The verdict and the context stay on the screen the answer is typed on, even at 80x24.
      expect(lines.length, String(width)).toBeLessThanOrEqual(8);
      expect(question.replace(/\n/g, ' ')).toBe(
        'BLOCKED: draining k8s-node-1 cannot finish Context: kind-lab (https://127.0.0.1:6443) ' +
          'Drain: cordon k8s-node-1 and evict 2 pods (the plan says this drain cannot finish: ' +
          'demo/hello-a: no node can take its replacement). Proceed? [y/N] ',
      );
    }
  });
});
