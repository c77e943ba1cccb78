import { parseBoolWord } from './argv.js';
import type { CordonValues } from './cordon-nodes.js';
import type { KubeFlagValues } from './kube-flag-values.js';
import { exitQuietlyWhenTheReaderGoesAway, reportFailure } from './report-error.js';

// `kubectl maint cordon NODE…` and `uncordon`, as scripts and operators type them, run without commander:
// building the command tree and parsing with it is a tenth of a cordon's start-up, which is measured
// against kubectl's (docs/benchmarks.md). Only a plain command line is read here — node names, the connection flags
// that take a string as it is, and --insecure-skip-tls-verify — and it means exactly what commander would
// make of it (test/unit/cli/plain-cordon.test.ts holds the two to the same values). Anything else (-l,
// --dry-run, --request-timeout, --help, a typo, `--`) is left to commander, with its help and errors.

/** The connection flags whose value is taken as it is (no parser, no default in commands/cordon.ts), by spelling. */
export const PLAIN_VALUE_FLAGS: Readonly<Record<string, keyof KubeFlagValues>> = {
  '--kubeconfig': 'kubeconfig',
  '--context': 'context',
  '--cluster': 'cluster',
  '--user': 'user',
  '-s': 'server',
  '--server': 'server',
  '--token': 'token',
  '--as': 'as',
  '--as-uid': 'asUid',
  '--certificate-authority': 'certificateAuthority',
  '--client-certificate': 'clientCertificate',
  '--client-key': 'clientKey',
  '--tls-server-name': 'tlsServerName',
};

const INSECURE = '--insecure-skip-tls-verify';

export interface PlainCordonLine {
  readonly unschedulable: boolean;
  readonly verb: 'cordon' | 'uncordon';
  readonly nodes: readonly string[];
  readonly values: CordonValues;
}

/** The command line read as commander would read it, or undefined when it is not a plain one. */
export function plainCordonLine(argv: readonly string[]): PlainCordonLine | undefined {
  const verb = argv[0];
  if (verb !== 'cordon' && verb !== 'uncordon') return undefined;
  const nodes: string[] = [];
  const values: Record<string, string | boolean> = {};
  for (let i = 1; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (!arg.startsWith('-')) {
      nodes.push(arg);
      continue;
    }
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (name === INSECURE) {
      // pflag's boolean: bare is true, =WORD in strconv.ParseBool's spellings, the last one wins.
      const value = eq > 0 ? parseBoolWord(arg.slice(eq + 1)) : true;
      if (value === undefined) return undefined;
      values.insecureSkipTlsVerify = value;
      continue;
    }
    const key = PLAIN_VALUE_FLAGS[name];
    if (key === undefined) return undefined;
    if (eq > 0) values[key] = arg.slice(eq + 1);
    else {
      // A value that looks like a flag is left to commander, which may read the two otherwise.
      const value = argv[i + 1];
      if (value === undefined || value.startsWith('-')) return undefined;
      values[key] = value;
      i += 1;
    }
  }
  // No node named: commander and nodeSelection say what is missing.
  if (nodes.length === 0) return undefined;
  return { unschedulable: verb === 'cordon', verb, nodes, values: { ...values, dryRun: 'none' } };
}

/**
 * Runs a plain cordon or uncordon command line and returns its exit code; undefined, having done nothing,
 * when the command line is not a plain one and commander must read it.
 */
export async function runPlainCordon(argv: readonly string[]): Promise<number | undefined> {
  const line = plainCordonLine(argv);
  if (line === undefined) return undefined;
  exitQuietlyWhenTheReaderGoesAway();
  try {
    const { cordonNodes } = await import('./cordon-nodes.js');
    return await cordonNodes(line.nodes, line.values, line.unschedulable, line.verb);
  } catch (err) {
    return reportFailure(err);
  }
}
