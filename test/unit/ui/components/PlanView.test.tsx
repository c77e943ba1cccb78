import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import type { DrainPlan } from '../../../../src/plan/types.js';
import { PlanView } from '../../../../src/ui/components/PlanView.js';
import { clearPlan, helloPod, slowPlan } from '../plan-fixture.js';

function frameOf(plan: DrainPlan): string {
  return render(<PlanView plan={plan} details={false} interactive={false} width={100} />).lastFrame() ?? '';
}

describe('<PlanView />', () => {
  it('opens with the verdict, then pods, budgets, replacements, the NoExecute comparison, both timelines and caveats', () => {
    const frame = frameOf(slowPlan());
    expect(frame.split('\n')[0]).toBe('SLOW: draining k8s-node-1 waits for disruption budgets');
    const order = [
      'Pods on k8s-node-1 (4)',
      'Budgets',
      'Replacements',
      'Drain compared with a NoExecute taint maintenance:NoExecute',
      'If tainted maintenance:NoExecute now',
      'If k8s-node-1 failed now (node-monitor-grace-period 50s)',
      'Caveats (1)',
    ].map((heading) => frame.indexOf(`\n${heading}\n`));
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it("draws the NoExecute taint's deletions on an axis: at once and after a pod's tolerationSeconds", () => {
    const plan: DrainPlan = {
      ...clearPlan(),
      pods: [
        ...clearPlan().pods,
        helloPod('patient', { noExecute: { afterSeconds: 30, reason: 'tolerates maintenance for 30s' } }),
      ],
    };
    const frame = frameOf(plan);
    const section = frame.slice(frame.indexOf('If tainted maintenance:NoExecute now'));
    expect(section).toContain('0s      taint added; 1 pod deleted: demo/hello-a');
    expect(section).toContain('30s     1 pod deleted: demo/patient');
    expect(section.split('\n')[1]).toMatch(/^ {2}●─+●▶$/);
  });

  it('leaves out sections with nothing to say', () => {
    const frame = frameOf({ ...clearPlan(), pods: [], budgets: [], caveats: [] });
    expect(frame).toContain('Pods on k8s-node-1 (0)\n  none');
    for (const heading of ['Budgets', 'Replacements', 'Drain compared', 'If tainted', 'Caveats']) {
      expect(frame).not.toContain(heading);
    }
    expect(frame).toContain('If k8s-node-1 failed now');
  });
});
