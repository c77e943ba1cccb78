import type { Command, Option } from 'commander';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pflagStyleArgv } from '../../../src/cli/argv.js';
import { register } from '../../../src/cli/commands/cordon.js';
import type { CordonValues } from '../../../src/cli/cordon-nodes.js';
import { kubeConfigFlags } from '../../../src/cli/kube-flag-values.js';
import { PLAIN_VALUE_FLAGS, plainCordonLine } from '../../../src/cli/plain-cordon.js';
import { buildProgramWith } from '../../../src/cli/program.js';

// A plain cordon or uncordon command line runs without commander (src/cli/plain-cordon.ts): whatever it
// accepts must mean what commander, given the same words, would make of them.

async function cordonCommand(verb: string): Promise<Command> {
  const program = await buildProgramWith(register);
  return program.commands.find((c) => c.name() === verb)!;
}

/** What the commander program of `cordon`/`uncordon` reads from argv, as runProgram gives it the words. */
async function commanderReads(argv: readonly string[]): Promise<{ nodes: string[]; values: CordonValues }> {
  const program = await buildProgramWith(register);
  let read: { nodes: string[]; values: CordonValues } | undefined;
  for (const command of program.commands) {
    command.action((nodes: string[], values: CordonValues) => {
      read = { nodes, values };
    });
  }
  await program.parseAsync(pflagStyleArgv(program, argv), { from: 'user' });
  return read!;
}

async function expectSameAsCommander(argv: readonly string[]): Promise<boolean> {
  const plain = plainCordonLine(argv);
  if (plain === undefined) return false;
  const commander = await commanderReads(argv);
  expect(plain.nodes, argv.join(' ')).toEqual(commander.nodes);
  expect(kubeConfigFlags(plain.values), argv.join(' ')).toEqual(kubeConfigFlags(commander.values));
  expect([plain.values.dryRun, plain.values.selector], argv.join(' ')).toEqual([
    commander.values.dryRun,
    commander.values.selector,
  ]);
  expect(plain.unschedulable).toBe(argv[0] === 'cordon');
  return true;
}

describe('plainCordonLine', () => {
  it('reads node names and the connection flags as commander does', async () => {
    const lines = [
      ['cordon', 'k8s-node-1'],
      ['uncordon', 'k8s-node-1', 'k8s-node-2'],
      ['cordon', 'k8s-node-1', '--context', 'lab', '--kubeconfig=/tmp/kc'],
      ['uncordon', '-s', 'https://127.0.0.1:6443', '--token', 't', 'n1', '--insecure-skip-tls-verify'],
      ['cordon', 'n1', '--insecure-skip-tls-verify=true', '--insecure-skip-tls-verify=false'],
      ['cordon', '--as', 'jane', '--as-uid=7', 'n1', '--tls-server-name', 'api', '--context', 'a', '--context', 'b'],
      ['cordon', 'n1', '--certificate-authority', 'ca.crt', '--client-certificate=c.crt', '--client-key', 'c.key'],
      ['cordon', 'n1', '--cluster=', '--user', 'u'],
    ];
    for (const argv of lines) expect(await expectSameAsCommander(argv), argv.join(' ')).toBe(true);
  });

  it('leaves every other command line to commander', () => {
    const lines = [
      ['cordon'],
      ['cordon', '--context', 'lab'],
      ['cordon', '-l', 'pool=blue'],
      ['cordon', 'n1', '--dry-run'],
      ['cordon', 'n1', '--dry-run=server'],
      ['cordon', 'n1', '--request-timeout', '5s'],
      ['cordon', 'n1', '--help'],
      ['cordon', '-h'],
      ['cordon', 'n1', '--'],
      ['cordon', 'n1', '--contxt', 'lab'],
      ['cordon', 'n1', '--context'],
      ['cordon', 'n1', '--context', '--token'],
      ['cordon', 'n1', '--insecure-skip-tls-verify=maybe'],
      ['cordon', 'n1', '-slab'],
      ['version'],
      ['drain', 'n1'],
    ];
    for (const argv of lines) expect(plainCordonLine(argv), argv.join(' ')).toBeUndefined();
  });

  it('agrees with commander on any command line it accepts', async () => {
    const value = fc.constantFrom('lab', '', 'a=b', 'https://10.0.0.1:6443', '-x', '--insecure-skip-tls-verify=false');
    const flag = fc.constantFrom(...Object.keys(PLAIN_VALUE_FLAGS));
    const word = fc.oneof(
      fc.constantFrom(
        'k8s-node-1',
        'n2',
        '--insecure-skip-tls-verify',
        '--insecure-skip-tls-verify=F',
        '-l',
        '--dry-run',
      ),
      fc.tuple(flag, value).map(([f, v]) => [f, v]),
      fc
        .tuple(
          flag.filter((f) => f.startsWith('--')),
          value,
        )
        .map(([f, v]) => `${f}=${v}`),
    );
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('cordon', 'uncordon'), fc.array(word, { maxLength: 6 }), async (verb, words) => {
        if (await expectSameAsCommander([verb, ...words.flat()])) accepted += 1;
      }),
      { numRuns: 300 },
    );
    // About one generated line in eight is a plain one (35 of 300 on average, as few as 30 seen): the
    // bound only guards against a generator that no longer makes any, not the draw's luck.
    expect(accepted).toBeGreaterThan(10);
  });

  it('takes only flags commander defines for cordon and uncordon alike, which take their value as it is', async () => {
    for (const verb of ['cordon', 'uncordon']) {
      const options = (await cordonCommand(verb)).options as Option[];
      for (const [spelling, key] of Object.entries(PLAIN_VALUE_FLAGS)) {
        const option = options.find((o) => o.long === spelling || o.short === spelling);
        expect(option, spelling).toBeDefined();
        expect([option!.attributeName(), option!.required, option!.parseArg, option!.defaultValue]).toEqual([
          key,
          true,
          undefined,
          undefined,
        ]);
      }
      const insecure = options.find((o) => o.long === '--insecure-skip-tls-verify')!;
      expect([insecure.isBoolean(), insecure.attributeName()]).toEqual([true, 'insecureSkipTlsVerify']);
    }
  });
});
