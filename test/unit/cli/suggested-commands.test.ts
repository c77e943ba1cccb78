import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../src/cli/main.js';
import { nextCommand } from '../../../src/cli/plan-action.js';
import { shellQuote, suggestedCommands } from '../../../src/cli/suggested-commands.js';
import { blockedPlan, slowPlan } from '../ui/plan-fixture.js';

// Every command a drain suggests repeats the user's own flags and pastes into a shell as it is.

const program = await buildProgram();
const suggest = (argv: string[]) => suggestedCommands(program, argv);

describe('suggestedCommands', () => {
  it('resume repeats the drain as typed; plan keeps what plan accepts; uncordon keeps the connection flags', () => {
    const s = suggest([
      'drain',
      'k8s-node-1',
      '--ignore-daemonsets',
      '--context',
      'lab',
      '--kubeconfig=/tmp/my lab/config',
      '--timeout',
      '5m',
      '--yes',
      '-o',
      'json',
    ]);
    expect(s.resume).toBe(
      "kubectl maint drain k8s-node-1 --ignore-daemonsets --context lab '--kubeconfig=/tmp/my lab/config' --timeout 5m --yes -o json",
    );
    // --timeout, --yes and -o json are drain's own; plan takes -o too, but json would not be what one reads.
    expect(s.plan).toBe(
      "kubectl maint plan k8s-node-1 --ignore-daemonsets --context lab '--kubeconfig=/tmp/my lab/config' -o json",
    );
    expect(s.uncordon(['k8s-node-1'])).toBe(
      "kubectl maint uncordon k8s-node-1 --context lab '--kubeconfig=/tmp/my lab/config'",
    );
  });

  it('a selector stays in resume and plan; uncordon names the nodes the drain resolved', () => {
    const s = suggest(['drain', '-l', 'pool=blue,zone in (a,b)', '--pod-selector=app!=db']);
    expect(s.resume).toBe("kubectl maint drain -l 'pool=blue,zone in (a,b)' '--pod-selector=app!=db'");
    expect(s.plan).toBe("kubectl maint plan -l 'pool=blue,zone in (a,b)' '--pod-selector=app!=db'");
    expect(s.uncordon(['n1', 'n2'])).toBe('kubectl maint uncordon n1 n2');
  });

  it('boolean flags in pflag form and short flags with an attached value are kept whole', () => {
    const s = suggest(['drain', '--force=true', 'k8s-node-1', '-ojson', '--grace-period=10']);
    expect(s.resume).toBe('kubectl maint drain --force=true k8s-node-1 -ojson --grace-period=10');
    expect(s.plan).toBe('kubectl maint plan --force=true k8s-node-1 -ojson');
  });
});

describe('the drain a plan suggests', () => {
  it("keeps the user's drain and connection flags and drops plan's own (--snapshot, --no-tui)", () => {
    const argv = ['plan', 'k8s-node-1', '--ignore-daemonsets', '--context', 'prod', '--snapshot=c.json', '--no-tui'];
    expect(suggest(argv).drain).toBe('kubectl maint drain k8s-node-1 --ignore-daemonsets --context prod');
  });

  it('is the drain when the plan says it can finish, none when it cannot and no flag would help', () => {
    const s = suggest(['plan', 'k8s-node-1', '--ignore-daemonsets', '--no-tui']);
    expect(nextCommand(slowPlan(), s)).toBe('kubectl maint drain k8s-node-1 --ignore-daemonsets');
    // No room for a replacement: no flag changes that, and the same plan again would say the same.
    expect(nextCommand(blockedPlan(), s)).toBeUndefined();
  });
});

describe('shellQuote', () => {
  it.each([
    ['k8s-node-1', 'k8s-node-1'],
    ['--context=prod', '--context=prod'],
    ['a b', "'a b'"],
    ["it's", "'it'\\''s'"],
    ['app in (a,b)', "'app in (a,b)'"],
    ['$HOME', "'$HOME'"],
    ['', "''"],
  ])('%j → %s', (word, quoted) => {
    expect(shellQuote(word)).toBe(quoted);
  });
});
