/**
 * kubectl's connection flags (kube-flags.ts declares them for each command), by the names they are given
 * with, and whether each takes a value. Kept free of commander: the entry reads it before choosing which
 * CLI loads (a plain cordon loads no commander). A unit test holds it equal to kube-flags.ts.
 */
export const CONNECTION_FLAGS: ReadonlyMap<string, boolean> = new Map([
  ['--kubeconfig', true],
  ['--context', true],
  ['--cluster', true],
  ['--user', true],
  ['-s', true],
  ['--server', true],
  ['--token', true],
  ['--as', true],
  ['--as-group', true],
  ['--as-uid', true],
  ['--certificate-authority', true],
  ['--client-certificate', true],
  ['--client-key', true],
  ['--tls-server-name', true],
  ['--request-timeout', true],
  ['--insecure-skip-tls-verify', false],
  ['--chunk-size', true],
]);

/**
 * kubectl refuses flags before a plugin's name (`kubectl --context lab maint plan` is an error), so the
 * natural place for them is right after it: `kubectl maint --context lab plan NODE`. Moves connection
 * flags (with their values) that come before the subcommand to just after it, where each command declares
 * them. Anything else before the subcommand (`--help`, `--version`, an unknown flag) leaves the command
 * line as it is, for the program to answer; so does a command line without a subcommand.
 */
export function connectionFlagsAfterSubcommand(argv: readonly string[]): readonly string[] {
  const leading: string[] = [];
  let i = 0;
  for (; i < argv.length;) {
    const arg = argv[i]!;
    if (arg === '--') return argv;
    if (!arg.startsWith('-')) break;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const takesValue = CONNECTION_FLAGS.get(eq > 0 ? arg.slice(0, eq) : arg);
    if (takesValue === undefined) return argv;
    const width = takesValue && eq < 0 ? 2 : 1;
    if (i + width > argv.length) return argv;
    leading.push(...argv.slice(i, i + width));
    i += width;
  }
  if (leading.length === 0 || i >= argv.length) return argv;
  return [argv[i]!, ...leading, ...argv.slice(i + 1)];
}
