import type { Command } from 'commander';
import * as versionCommand from './commands/version.js';
import { runProgram, startCli } from './program.js';
import type { StandaloneCommand } from './standalone-commands.js';

// The commander program of the commands that stand alone (standalone-main.ts): their help, their errors,
// and every command line of theirs that is not a plain cordon or uncordon. Same program, same flags, same
// output as the whole CLI gives them: only what is loaded differs.

/** Each command's module, for it alone: `version` (here at once) loads nothing of cordon's. */
const LOAD: Readonly<Record<StandaloneCommand, () => Promise<{ register(program: Command): void }>>> = {
  cordon: () => import('./commands/cordon.js'),
  uncordon: () => import('./commands/cordon.js'),
  version: () => Promise.resolve(versionCommand),
};

/** Runs `kubectl maint COMMAND …` for a standalone COMMAND (argv[0]) with commander; the exit code. */
export async function runStandaloneProgram(argv: readonly string[]): Promise<number> {
  const { register } = await LOAD[argv[0] as StandaloneCommand]();
  return runProgram(await startCli(argv, register), argv);
}
