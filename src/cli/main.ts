import { Command, CommanderError } from 'commander';
import { pflagStyleArgv, subcommandOf } from './argv.js';
import { CliError, ExitCode, UsageError } from './exit-codes.js';
import { registerCommands } from './commands/index.js';
import { rememberInvocation } from './suggested-commands.js';
import { useTerminalWideHelp } from './help-layout.js';
import { commandPath, useKubectlStyleErrors } from './usage-errors.js';
import { buildInfo } from '../version.js';

/**
 * Builds the command tree. Each command lives in its own module under commands/ and only wires
 * flags to the layers below (kube → snapshot → plan → drain → ui); it decides nothing about pods.
 * `command`, the subcommand the command line names, lets a command that stands alone load alone.
 */
export async function buildProgram(command?: string): Promise<Command> {
  const program = new Command('kubectl maint')
    .description('Take Kubernetes nodes out of service safely: plan a drain before doing it, then drive it.')
    .version(buildInfo().version, '--version', 'print the version (kubectl maint version says more)')
    .showSuggestionAfterError(true)
    .exitOverride();
  useTerminalWideHelp(program);
  await registerCommands(program, command);
  useKubectlStyleErrors(program);
  program.addHelpText(
    'after',
    `
Exit codes:
  0    plan: verdict clear or slow; drain: done
  1    error (cluster unreachable, forbidden, unknown node, malformed snapshot, drain failed or timed out)
  2    usage error (unknown flag, missing argument)
  3    plan: verdict blocked
  4    plan: verdict incomplete (a kind it needs could not be read; --allow-incomplete: 0)
  130  interrupted (SIGINT)
  143  drain: stopped by SIGTERM, as on Ctrl-C`,
  );
  return program;
}

/** Runs the CLI and returns the exit code. Errors become one line on stderr, never a stack trace. */
export async function main(argv: readonly string[]): Promise<number> {
  exitQuietlyWhenTheReaderGoesAway();
  rememberInvocation(argv);
  const program = await buildProgram(argv[0]);
  if (argv[0] === '__complete' || argv[0] === '__completeNoDesc') return completeCommand(program, argv);
  try {
    let args: string[];
    try {
      args = pflagStyleArgv(program, argv);
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      const path = commandPath(subcommandOf(program, argv) ?? program);
      process.stderr.write(`error: ${err.message}\nSee '${path} --help' for usage.\n`);
      return err.exitCode;
    }
    await program.parseAsync(args, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : ExitCode.Ok;
  } catch (err) {
    return reportError(err);
  }
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
  process.stdout.write(formatCompletions({ ...result, candidates }));
  return ExitCode.Ok;
}

function silence(command: Command): void {
  command.configureOutput({ writeOut: () => {}, writeErr: () => {}, outputError: () => {} });
  command.commands.forEach(silence);
}

/** A reader that goes away (`kubectl maint plan … | head`) is not an error: stop quietly, as kubectl does. */
function exitQuietlyWhenTheReaderGoesAway(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
      throw err;
    });
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
  if (err instanceof CliError) {
    process.stderr.write(`error: ${err.message}\n`);
    return err.exitCode;
  }
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`error: ${message.split('\n')[0]}\n`);
  if (process.env.KUBECTL_MAINT_DEBUG) process.stderr.write(`${err instanceof Error ? err.stack : ''}\n`);
  return ExitCode.Error;
}
