import { describe, expect, it } from 'vitest';
import { argsAfter, commandLine, drainArgsFromPlanArgs } from '../../../src/cli/suggested-command.js';
import { nextCommand } from '../../../src/cli/commands/plan.js';
import { blockedPlan, slowPlan } from '../ui/plan-fixture.js';

describe('drainArgsFromPlanArgs', () => {
  it("keeps the user's drain and connection flags, drops plan's own in every form", () => {
    const args = [
      'k8s-node-1',
      '--ignore-daemonsets',
      '--context',
      'prod',
      '-o',
      'text',
      '--snapshot=cluster.json',
      '--taint',
      'maint',
      '--no-tui',
      '-oyaml',
      '--pod-selector',
      'app=web',
    ];
    expect(drainArgsFromPlanArgs(args)).toEqual([
      'k8s-node-1',
      '--ignore-daemonsets',
      '--context',
      'prod',
      '--pod-selector',
      'app=web',
    ]);
  });
});

describe('commandLine', () => {
  it('quotes only what the shell would split or expand', () => {
    expect(commandLine(['kubectl', 'maint', 'drain', '-l', 'role in (web)', "it's"])).toBe(
      `kubectl maint drain -l 'role in (web)' 'it'\\''s'`,
    );
  });
});

describe('nextCommand', () => {
  it('suggests the drain with the same flags when the drain can finish, the plan again when blocked', () => {
    const planArgs = argsAfter(['plan', 'k8s-node-1', '--ignore-daemonsets', '--no-tui'], 'plan');
    expect(nextCommand(slowPlan(), planArgs)).toBe('kubectl maint drain k8s-node-1 --ignore-daemonsets');
    expect(nextCommand(blockedPlan(), planArgs)).toBe('kubectl maint plan k8s-node-1 --ignore-daemonsets --no-tui');
  });
});
