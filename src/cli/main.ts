import type { Command } from 'commander';
import { ExitCode } from './exit-codes.js';
import { registerCommands } from './commands/index.js';
import { writeOut } from './output.js';
import { buildProgramWith, runProgram, startCli } from './program.js';

/**
 * Builds the command tree. `command`, the subcommand the command line names, lets a command that stands
 * alone load alone.
 */
export function buildProgram(command?: string): Promise<Command> {
  return buildProgramWith((program) => registerCommands(program, command));
}

/** Runs the CLI and returns the exit code. Errors become one line on stderr, never a stack trace. */
export async function main(argv: readonly string[]): Promise<number> {
  const program = await startCli(argv, (p) => registerCommands(p, argv[0]));
  if (argv[0] === '__complete' || argv[0] === '__completeNoDesc') return completeCommand(program, argv);
  return runProgram(program, argv);
}

/**
 * cobra's hidden completion command, as kubectl and the completion scripts call it. Never fails and
 * never writes to stderr: a shell is waiting.
 */
async function completeCommand(program: Command, argv: readonly string[]): Promise<number> {
  const { complete, formatCompletions, listNodeNames } = await import('./completion.js');
  silence(program);
  const result = await complete(program, argv.slice(1), listNodeNames);
  const candidates =
    argv[0] === '__completeNoDesc' ? result.candidates.map((c) => ({ value: c.value })) : result.candidates;
  writeOut(formatCompletions({ ...result, candidates }));
  return ExitCode.Ok;
}

function silence(command: Command): void {
  command.configureOutput({ writeOut: () => {}, writeErr: () => {}, outputError: () => {} });
  command.commands.forEach(silence);
}
