/** What the commands ask of the terminal they run in: its width, and whether a person sits at it. */

/** A person at a terminal: keys come from one and the screen is one. CI logs get text (as Ink would decide). */
export function canOpenFullScreen(): boolean {
  return Boolean(process.stdout.isTTY && process.stdin.isTTY) && !isCi(process.env);
}

/** The columns to wrap text to: the terminal's, or none for a pipe or a file. */
export function terminalWidth(stream: NodeJS.WriteStream): number | undefined {
  return stream.isTTY && stream.columns > 0 ? stream.columns : undefined;
}

/** is-in-ci's rule (which Ink and ora follow): CI or CONTINUOUS_INTEGRATION or any CI_* set, unless CI is 0/false. */
export function isCi(env: NodeJS.ProcessEnv): boolean {
  if (env['CI'] === '0' || env['CI'] === 'false') return false;
  return 'CI' in env || 'CONTINUOUS_INTEGRATION' in env || Object.keys(env).some((k) => k.startsWith('CI_'));
}
