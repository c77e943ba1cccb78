import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildProgram } from '../../../src/cli/main.js';
import { runCli } from './cli-from-source.js';

// cordon, uncordon and version run from a bundle of their own (src/cli/standalone-main.ts,
// scripts/release/bundle.ts): the same program as the whole CLI gives them, only loaded from fewer files.
describe('the standalone commands, run from the bundle', () => {
  it.each(['cordon', 'uncordon', 'version'])('%s --help is the help the whole CLI prints', async (name) => {
    const whole = (await buildProgram(name)).commands.find((c) => c.name() === name)!;
    const result = await runCli([name, '--help']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(whole.helpInformation().trimEnd());
  });

  it('version -o yaml and -o json print the same report (yaml is CommonJS: its chunk exports `default`)', async () => {
    const json = await runCli(['version', '-o', 'json']);
    const yaml = await runCli(['version', '-o', 'yaml']);
    expect(yaml.stderr).toBe('');
    expect(yaml.exitCode).toBe(0);
    expect(parse(yaml.stdout)).toEqual(JSON.parse(json.stdout));
  });
});
