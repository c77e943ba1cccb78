import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addKubeFlags } from '../../../src/cli/kube-flags.js';
import { CONNECTION_FLAGS, connectionFlagsAfterSubcommand } from '../../../src/cli/leading-flags.js';
import { runCli, scratchDir } from './cli-from-source.js';

describe('connection flags before the subcommand', () => {
  it('moves them, with their values, to just after the subcommand', () => {
    expect(connectionFlagsAfterSubcommand(['--context', 'lab', 'plan', 'n1', '-o', 'json'])).toEqual([
      'plan',
      '--context',
      'lab',
      'n1',
      '-o',
      'json',
    ]);
    expect(
      connectionFlagsAfterSubcommand([
        '--kubeconfig=k.yaml',
        '-s',
        'https://x',
        '--insecure-skip-tls-verify',
        'run',
        'a',
        '--',
        'true',
      ]),
    ).toEqual(['run', '--kubeconfig=k.yaml', '-s', 'https://x', '--insecure-skip-tls-verify', 'a', '--', 'true']);
  });

  it('leaves a command line alone when something else comes first, or no subcommand follows', () => {
    for (const argv of [
      ['plan', '--context', 'lab', 'n1'],
      ['--help', 'plan'],
      ['--context', 'lab', '--version'],
      ['--context', 'lab'],
      ['--context'],
      ['--', 'plan'],
      ['--context', 'lab', '--', 'plan'],
    ])
      expect(connectionFlagsAfterSubcommand(argv)).toEqual(argv);
  });

  it('knows every connection flag the commands declare, and whether it takes a value', () => {
    const options = addKubeFlags(new Command('probe')).options;
    const declared = new Map(
      options.flatMap((o) =>
        [o.long, o.short].filter((n): n is string => n !== undefined).map((n) => [n, o.required || o.optional]),
      ),
    );
    expect(new Map([...CONNECTION_FLAGS].sort())).toEqual(new Map([...declared].sort()));
  });

  it('`kubectl maint --context NAME plan NODE` uses that context, as the flag after the subcommand does', async () => {
    const kubeconfig = path.join(scratchDir(), 'kubeconfig.yaml');
    writeFileSync(
      kubeconfig,
      [
        'apiVersion: v1',
        'kind: Config',
        "clusters: [{name: c, cluster: {server: 'https://127.0.0.1:1'}}]",
        'users: [{name: u, user: {token: t}}]',
        'contexts: [{name: c, context: {cluster: c, user: u}}]',
        'current-context: c',
        '',
      ].join('\n'),
    );
    const before = await runCli(['--context', 'elsewhere', 'plan', 'n1', '--kubeconfig', kubeconfig]);
    const after = await runCli(['plan', 'n1', '--context', 'elsewhere', '--kubeconfig', kubeconfig]);
    expect(before.stderr).toContain('context "elsewhere" not found');
    expect([before.exitCode, before.stderr]).toEqual([after.exitCode, after.stderr]);
  });
});
