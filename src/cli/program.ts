import { Command, CommanderError } from 'commander';
import { pflagStyleArgv, subcommandOf } from './argv.js';
import { ExitCode, UsageError } from './exit-codes.js';
import { writeErr } from './output.js';
import { errorText, exitQuietlyWhenTheReaderGoesAway, reportFailure } from './report-error.js';
import { rememberInvocation } from './suggested-commands.js';
import { useTerminalWideHelp } from './help-layout.js';
import { commandPath, useKubectlStyleErrors } from './usage-errors.js';
import { buildInfo } from '../version.js';

/** Adds commands to the program: every command (main.ts) or the one that stands alone (standalone-main.ts). */
export type RegisterCommands = (program: Command) => Promise<void> | void;

/**
 * Builds the command tree with the commands `register` adds. Each command lives in its own module under
 * commands/ and only wires flags to the layers below (kube → snapshot → plan → drain → ui); it decides
 * nothing about pods.
 */
export async function buildProgramWith(register: RegisterCommands): Promise<Command> {
  const program = new Command('kubectl maint')
    .description('Take Kubernetes nodes out of service safely: plan a drain before doing it, then drive it.')
    .version(buildInfo().version, '--version', 'print the version (kubectl maint version says more)')
    .showSuggestionAfterError(true)
    .exitOverride();
  useTerminalWideHelp(program);
  await register(program);
  useKubectlStyleErrors(program);
  program.addHelpText(
    'after',
    `
Exit codes (audit: those of its worst node's verdict):
  0    plan: verdict clear or slow; drain: done; a question answered no
  1    error (cluster unreachable, forbidden, unknown node, malformed snapshot,
       drain failed or timed out)
  2    usage error (unknown flag, missing argument)
  3    plan: verdict blocked
  4    plan: verdict incomplete (a kind it needs could not be read;
       --allow-incomplete: 0)
  5    plan: verdict disruptive (the drain finishes but leaves a workload with
       replicas down)
  130  interrupted (SIGINT)
  143  drain, run: stopped by SIGTERM, as on Ctrl-C`,
  );
  return program;
}

/** The start of every run: a reader going away is not an error, the command line is kept, the tree built. */
export async function startCli(argv: readonly string[], register: RegisterCommands): Promise<Command> {
  exitQuietlyWhenTheReaderGoesAway();
  rememberInvocation(argv);
  return buildProgramWith(register);
}

/** Runs the command line on the program and returns the exit code. Errors become one line on stderr, never a stack trace. */
export async function runProgram(program: Command, argv: readonly string[]): Promise<number> {
  try {
    let args: string[];
    try {
      args = pflagStyleArgv(program, argv);
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      const path = commandPath(subcommandOf(program, argv) ?? program);
      writeErr(`error: ${errorText(err.message)}\nSee '${path} --help' for usage.\n`);
      return err.exitCode;
    }
    await program.parseAsync(args, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : ExitCode.Ok;
  } catch (err) {
    return reportError(err);
  }
}

function reportError(err: unknown): number {
  if (err instanceof CommanderError) {
    // commander already printed its message; help and version are not errors.
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') {
      return ExitCode.Ok;
    }
    return ExitCode.Usage;
  }
  return reportFailure(err);
}
