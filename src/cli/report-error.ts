import { CliError, ExitCode } from './exit-codes.js';

// How a command line ends when it fails, for every command, whether commander read it (program.ts) or not
// (plain-cordon.ts).

/** A reader that goes away (`kubectl maint plan … | head`) is not an error: stop quietly, as kubectl does. */
export function exitQuietlyWhenTheReaderGoesAway(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
      throw err;
    });
  }
}

/** Reports a failure as one line on stderr, never a stack trace (unless KUBECTL_MAINT_DEBUG), and returns the exit code. */
export function reportFailure(err: unknown): number {
  if (err instanceof CliError) {
    process.stderr.write(`error: ${err.message}\n`);
    return err.exitCode;
  }
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`error: ${message.split('\n')[0]}\n`);
  if (process.env.KUBECTL_MAINT_DEBUG) process.stderr.write(`${err instanceof Error ? err.stack : ''}\n`);
  return ExitCode.Error;
}
