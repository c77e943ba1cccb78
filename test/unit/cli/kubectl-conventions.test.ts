import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pflagStyleArgv } from '../../../src/cli/argv.js';
import { buildProgram } from '../../../src/cli/main.js';
import { kubectlStyleUsageError } from '../../../src/cli/usage-errors.js';
import { runCli } from './cli-from-source.js';

const hello = path.resolve(import.meta.dirname, '../../../examples/hello.json');
const program = await buildProgram();
const argv = (...args: string[]) => pflagStyleArgv(program, args);

describe("kubectl's flag forms (pflag), rewritten before commander parses", () => {
  it('bare --dry-run means client and the next word stays a node, as in kubectl drain', () => {
    expect(argv('drain', '--dry-run', 'k8s-node-1')).toEqual(['drain', '--dry-run=client', 'k8s-node-1']);
    expect(argv('cordon', '--dry-run', 'k8s-node-1')).toEqual(['cordon', '--dry-run=client', 'k8s-node-1']);
    expect(argv('drain', '--dry-run=server', 'k8s-node-1')).toEqual(['drain', '--dry-run=server', 'k8s-node-1']);
  });

  it.each([
    [['--force=false'], []],
    [['--force=true'], ['--force']],
    [['--force', '--force=false'], []],
    [['--force=0', '--force=T'], ['--force']],
    [
      ['--ignore-daemonsets=true', '--delete-emptydir-data=TRUE', '--disable-eviction=1'],
      ['--ignore-daemonsets', '--delete-emptydir-data', '--disable-eviction'],
    ],
  ])('boolean flags take =VALUE in strconv.ParseBool spellings: %j → %j', (flags, expected) => {
    expect(argv('plan', 'k8s-node-1', ...flags)).toEqual(['plan', 'k8s-node-1', ...expected]);
  });

  it("a flag on by default (drain's --ask-server) is turned off by =false, the last occurrence winning", async () => {
    expect(argv('drain', 'n', '--ask-server=false')).toEqual(['drain', 'n', '--no-ask-server']);
    expect(argv('drain', 'n', '--ask-server=false', '--ask-server')).toEqual(['drain', 'n', '--ask-server']);
    const parse = async (...args: string[]) => {
      const fresh = await buildProgram();
      let seen: unknown;
      const drain = fresh.commands.find((c) => c.name() === 'drain')!;
      drain.action((_nodes: string[], values: { askServer?: boolean }) => void (seen = values.askServer));
      await fresh.parseAsync(pflagStyleArgv(fresh, ['drain', 'n', ...args]), { from: 'user' });
      return seen;
    };
    expect(await parse()).not.toBe(false);
    expect(await parse('--ask-server=false')).toBe(false);
    expect(await parse('--ask-server=true')).toBe(true);
  });

  it('a short boolean flag and arguments after -- are left as they are', () => {
    expect(argv('drain', 'n', '-y', '--', '--force=false')).toEqual(['drain', 'n', '--yes', '--', '--force=false']);
  });

  it("a boolean flag with a value ParseBool refuses is a usage error in kubectl's shape, naming what it takes", () => {
    expect(() => argv('plan', '--force=maybe')).toThrow(
      'invalid argument "maybe" for "--force" flag: expected true or false (or 1, 0, t, f, TRUE, FALSE, True, False)',
    );
    expect(() => argv('plan', '--force=maybe')).not.toThrow(/strconv/);
  });
});

describe("commander's usage errors in kubectl's words", () => {
  it.each([
    ["error: unknown option '--x'", "error: unknown flag: --x\nSee 'kubectl maint drain --help' for usage.\n"],
    [
      "error: unknown option '--forse'\n(Did you mean --force?)",
      "error: unknown flag: --forse\nDid you mean --force?\nSee 'kubectl maint drain --help' for usage.\n",
    ],
    [
      "error: unknown command 'drian'\n(Did you mean drain?)",
      'error: unknown command "drian" for "kubectl maint"\n\nDid you mean this?\n\tdrain\n',
    ],
    [
      "error: unknown option '-z'",
      "error: unknown shorthand flag: 'z' in -z\nSee 'kubectl maint drain --help' for usage.\n",
    ],
    [
      "error: option '--timeout <duration>' argument 'xx' is invalid. Expected a duration.",
      'error: invalid argument "xx" for "--timeout" flag: expected a duration\nSee \'kubectl maint drain --help\' for usage.\n',
    ],
    [
      "error: option '--timeout <duration>' argument missing",
      "error: flag needs an argument: --timeout\nSee 'kubectl maint drain --help' for usage.\n",
    ],
    ["error: unknown command 'bogus'", 'error: unknown command "bogus" for "kubectl maint drain"\n'],
  ])('%j', (commander, kubectl) => {
    const path = commander.includes("'drian'") ? 'kubectl maint' : 'kubectl maint drain';
    expect(kubectlStyleUsageError(commander, path)).toBe(kubectl);
  });
});

describe('the CLI, end to end', () => {
  it('plan takes the boolean flag forms kubectl scripts use', async () => {
    const args = ['plan', 'k8s-node-1', '--snapshot', hello, '-o', 'json'];
    const r = await runCli([
      ...args,
      '--ignore-daemonsets=true',
      '--force=false',
      '--delete-emptydir-data=true',
      '--disable-eviction=false',
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ kind: 'DrainPlan', nodes: ['k8s-node-1'] });
  });

  it('drain --dry-run NODE reads NODE as the node (here: no kubeconfig, so it gets as far as connecting)', async () => {
    const r = await runCli(['drain', '--dry-run', 'k8s-node-1']);
    expect(r.stderr).toBe('error: no kubeconfig: set KUBECONFIG or --kubeconfig');
    expect(r.exitCode).toBe(1);
  });

  it('a mistyped command or flag: did you mean, exit 2', async () => {
    const command = await runCli(['drian', 'k8s-node-1']);
    expect([command.exitCode, command.stderr]).toEqual([
      2,
      'error: unknown command "drian" for "kubectl maint"\n\nDid you mean this?\n\tdrain',
    ]);
    const flag = await runCli(['plan', 'k8s-node-1', '--snapshot', hello, '--ignore-daemonset']);
    expect([flag.exitCode, flag.stderr]).toEqual([
      2,
      "error: unknown flag: --ignore-daemonset\nDid you mean --ignore-daemonsets?\nSee 'kubectl maint plan --help' for usage.",
    ]);
  });

  it("an unknown flag: kubectl's line and pointer to the help, exit 2", async () => {
    const r = await runCli(['drain', 'k8s-node-1', '--no-such-flag']);
    expect(r.stderr).toBe("error: unknown flag: --no-such-flag\nSee 'kubectl maint drain --help' for usage.");
    expect(r.exitCode).toBe(2);
  });

  it('every usage error starts with "error:", never commander\'s own wording', async () => {
    for (const args of [
      ['bogus'],
      ['version', 'extra'],
      ['plan', '-o', 'xml'],
      ['drain', '--timeout'],
      ['cordon', '--force=maybe'],
    ]) {
      const r = await runCli(args);
      expect(r.stderr, args.join(' ')).toMatch(/^error: /);
      expect(r.stderr).not.toMatch(/option '|argument '|Error:/);
      expect(r.exitCode).toBe(2);
    }
  });
});
