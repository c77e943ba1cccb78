import type { Command } from 'commander';
import { register as registerCordon } from './commands/cordon.js';
import { register as registerVersion } from './commands/version.js';
import { runProgram, startCli } from './program.js';
import type { StandaloneCommand } from './standalone-commands.js';

// The CLI of the commands that stand alone and are short (cordon, uncordon, version), bundled apart from
// the rest (scripts/release/bundle.ts): their start-up, measured against kubectl's, is mostly Node's
// own and loading code, so their code is a few files instead of the twenty chunks the whole CLI splits
// into at its lazy imports. Same program, same flags, same output: only what is loaded differs.

const REGISTER: Readonly<Record<StandaloneCommand, (program: Command) => void>> = {
  cordon: registerCordon,
  uncordon: registerCordon,
  version: registerVersion,
};

/** Runs `kubectl maint COMMAND …` for a standalone COMMAND (argv[0]); the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const register = REGISTER[argv[0] as StandaloneCommand];
  return runProgram(await startCli(argv, register), argv);
}
