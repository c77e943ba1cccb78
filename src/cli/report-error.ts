import { CliError, ExitCode } from './exit-codes.js';
import { writeErr } from './output.js';

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

/**
 * An error's line after `error: `, in kubectl's style (Go's convention for error strings): it starts
 * lowercase and ends without a period. Only a first word that is a plain capitalised word is lowered
 * ("Unable to connect …" → "unable to connect …"); an acronym or a kind (RBAC, ENOENT, DaemonSet) keeps
 * its case. Lines after the first (a refusal's way out) are left as they are.
 */
export function errorText(message: string): string {
  const newline = message.indexOf('\n');
  const first = newline < 0 ? message : message.slice(0, newline);
  const rest = newline < 0 ? '' : message.slice(newline);
  const lowered = first.trim().replace(/^[A-Z](?=[a-z]*(?:[\s:,;]|\.?$))/, (c) => c.toLowerCase());
  return `${lowered.replace(/(?<!\.)\.$/, '')}${rest}`;
}

/**
 * What an unexpected error says: its message, and the message of each cause it wraps that it does not
 * already say (`reading nodes: connect ECONNREFUSED …`). The CLI's own errors (CliError, KubeError) say
 * their cause in their words already.
 */
export function withCauses(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  let message = err.message.split('\n')[0]!;
  for (let cause = err.cause, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth += 1) {
    const said = cause.message.split('\n')[0]!.trim();
    if (said !== '' && !message.includes(said)) message = `${message}: ${said}`;
  }
  return message;
}

/** Reports a failure as one line on stderr, never a stack trace (unless KUBECTL_MAINT_DEBUG), and returns the exit code. */
export function reportFailure(err: unknown): number {
  if (err instanceof CliError) {
    writeErr(`error: ${errorText(err.message)}\n`);
    return err.exitCode;
  }
  // A KubeError says its cause in kubectl's words; the raw error it keeps would only repeat it.
  const message = err instanceof Error && err.name === 'KubeError' ? err.message.split('\n')[0]! : withCauses(err);
  writeErr(`error: ${errorText(message)}\n`);
  if (process.env.KUBECTL_MAINT_DEBUG) writeErr(`${err instanceof Error ? err.stack : ''}\n`);
  return ExitCode.Error;
}
