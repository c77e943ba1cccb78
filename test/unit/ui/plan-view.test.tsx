import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { PlanApp, renderPlanInk } from '../../../src/ui/plan-view.js';
import { FakeStdin, FakeStdout } from './fake-terminal.js';
import { blockedPlan, slowPlan } from './plan-fixture.js';

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('<PlanApp />', () => {
  it('toggles details (per-node reasons, every caveat) with d, and says so in the key hints', async () => {
    const { lastFrame, stdin } = render(<PlanApp plan={blockedPlan()} interactive width={100} colors={false} />);
    expect(lastFrame()).not.toContain('not on k8s-node-2');
    expect(lastFrame()).toContain('d show details (per-node reasons, every caveat) · q quit');
    stdin.write('d');
    await settle();
    expect(lastFrame()).toContain("not on k8s-node-2: node(s) didn't match pod topology spread constraints");
    expect(lastFrame()).toContain('d hide details (per-node reasons, every caveat) · q quit');
    stdin.write('d');
    await settle();
    expect(lastFrame()).not.toContain('not on k8s-node-2');
  });

  it('shows no key hints when it does not listen to keys', () => {
    const { lastFrame } = render(<PlanApp plan={slowPlan()} interactive={false} width={100} colors={false} />);
    expect(lastFrame()).not.toContain('q quit');
  });
});

describe('renderPlanInk', () => {
  it('renders once and resolves by itself when stdin is not a terminal', async () => {
    const stdout = new FakeStdout();
    await renderPlanInk(slowPlan(), {
      stdout: stdout.asStream(),
      stdin: new FakeStdin(false).asStream(),
      colors: false,
    });
    expect(stdout.text()).toContain('SLOW: draining k8s-node-1 waits for disruption budgets');
    expect(stdout.text()).not.toContain('q quit');
  });

  it.each([
    { key: 'q', name: 'q' },
    { key: '\u001b', name: 'Esc' },
  ])('resolves when the user presses $name, leaving the plan on screen', async ({ key }) => {
    const stdout = new FakeStdout();
    const stdin = new FakeStdin(true);
    let resolved = false;
    const done = renderPlanInk(blockedPlan(), {
      stdout: stdout.asStream(),
      stdin: stdin.asStream(),
      interactive: true,
      colors: false,
    }).then(() => {
      resolved = true;
    });
    await settle();
    expect(resolved).toBe(false);
    stdin.press(key);
    await done;
    expect(resolved).toBe(true);
    expect(stdout.text()).toContain('BLOCKED: draining k8s-node-1 cannot finish');
  });
});
