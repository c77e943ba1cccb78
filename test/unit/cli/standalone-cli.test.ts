import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildProgram } from '../../../src/cli/main.js';
import { runCli, scratchDir } from './cli-from-source.js';

// cordon, uncordon and version run from a bundle of their own (src/cli/standalone-main.ts,
// scripts/release/bundle.ts): the same program as the whole CLI gives them, only loaded from fewer files.
describe('the standalone commands, run from the bundle', () => {
  it.each(['cordon', 'uncordon', 'version'])('%s --help is the help the whole CLI prints', async (name) => {
    const whole = (await buildProgram(name)).commands.find((c) => c.name() === name)!;
    const result = await runCli([name, '--help']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(whole.helpInformation().trimEnd());
  });

  it.each(['cordon', 'uncordon'])('%s without a node says what is missing, for that command (exit 2)', async (name) => {
    const result = await runCli([name]);
    expect([result.exitCode, result.stderr]).toEqual([2, `error: specify the nodes to ${name}: NODE… or -l SELECTOR`]);
  });

  it('version -o yaml and -o json print the same report (yaml is CommonJS: its chunk exports `default`)', async () => {
    const json = await runCli(['version', '-o', 'json']);
    const yaml = await runCli(['version', '-o', 'yaml']);
    expect(yaml.stderr).toBe('');
    expect(yaml.exitCode).toBe(0);
    expect(parse(yaml.stdout)).toEqual(JSON.parse(json.stdout));
  });
});

describe('a plain cordon, run from the bundle', () => {
  /** The built-in modules Node loaded for `kubectl-maint ARGS`. */
  async function builtinsLoadedBy(args: string[]): Promise<string[]> {
    const dir = scratchDir();
    const hook = path.join(dir, 'record.mjs');
    const list = path.join(dir, 'loaded.txt');
    writeFileSync(
      hook,
      `process.on('exit', () => process.getBuiltinModule('node:fs').writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join('\\n')));\n`,
    );
    const result = await runCli(args, { NODE_OPTIONS: `--import=${hook}` });
    expect(result.stderr).toMatch(/^error: .*refused/);
    return readFileSync(list, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('NativeModule '))
      .map((line) => line.slice('NativeModule '.length));
  }

  it('loads node:child_process only when something calls it (commander and the exec plugin import it)', async () => {
    // Port 1 refuses at once: the command goes through to its request, and fails there.
    const plain = await builtinsLoadedBy(['cordon', 'k8s-node-1', '--server', 'https://127.0.0.1:1', '--token', 't']);
    expect(plain).toContain('https');
    expect(plain).not.toContain('child_process');
    const withCommander = await builtinsLoadedBy([
      'cordon',
      '-l',
      'a=b',
      '--server',
      'https://127.0.0.1:1',
      '--token',
      't',
    ]);
    expect(withCommander).not.toContain('child_process');
  });
});
