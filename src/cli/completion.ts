import type { Command, Option } from 'commander';
import { pflagStyleArgv, subcommandOf } from './argv.js';
import type { KubeFlagValues } from './kube-flag-values.js';
import { CONNECTION_FLAGS, connectionFlagsAfterSubcommand } from './leading-flags.js';

/**
 * Shell completion in cobra's protocol, which kubectl speaks to plugins: `kubectl-maint __complete
 * ARGS… PARTIAL` prints one candidate a line (`value<TAB>description`), then `:DIRECTIVE`. kubectl ≥ 1.26
 * runs `kubectl_complete-maint ARGS… PARTIAL` on <TAB> after `kubectl maint` (that script calls
 * `kubectl-maint __complete`), and the scripts of `kubectl maint completion SHELL` do the same for
 * `kubectl-maint` typed alone.
 */

/** cobra's ShellCompDirective bits. */
export const Directive = {
  Default: 0,
  Error: 1,
  NoSpace: 2,
  NoFileComp: 4,
  KeepOrder: 32,
} as const;

export interface Candidate {
  readonly value: string;
  readonly description?: string;
}

export interface Completions {
  readonly candidates: readonly Candidate[];
  readonly directive: number;
}

/** Where the names of live nodes come from; the real one reads the cluster (listNodeNames below). */
export type NodeLister = (values: KubeFlagValues) => Promise<readonly string[]>;

/** Names the kubeconfig defines, by the flag that takes one: --context, --cluster, --user. */
export type KubeconfigLister = (values: KubeFlagValues) => Promise<Readonly<Record<string, readonly string[]>>>;

/** Completes the last of `args` (possibly empty) after the words before it. */
export async function complete(
  program: Command,
  args: readonly string[],
  listNodes: NodeLister,
  listKubeconfig: KubeconfigLister = kubeconfigNamesOf,
): Promise<Completions> {
  // Connection flags typed before the subcommand count as after it, as when the command runs.
  const words = connectionFlagsAfterSubcommand(args.slice(0, -1));
  const partial = args.at(-1) ?? '';
  const command = subcommandOf(program, words);
  if (!command) {
    const leadingValue = asAfterSubcommand(program, words, partial);
    if (leadingValue) return complete(program, leadingValue, listNodes, listKubeconfig);
    if (partial.startsWith('-')) return flagsOf(program, words, partial);
    const commands = program.commands.filter((c) => !isHidden(c));
    return matching(
      commands.map((c) => ({ value: c.name(), description: c.summary() || c.description() })),
      partial,
    );
  }
  const previous = words.at(-1);
  const valueOf = previous && !previous.includes('=') ? optionNamed(command, previous) : undefined;
  // The flags typed before the one being completed (a flag still waiting for its value would not parse).
  const kubeconfigValues = async (option: Option, typed: string, prefix = '') => {
    const before = prefix ? words : words.slice(0, -1);
    const names = (await listKubeconfig(flagValues(program, command, before)))[option.long ?? ''] ?? [];
    return matching(
      names.map((name) => ({ value: `${prefix}${name}` })),
      `${prefix}${typed}`,
    );
  };
  if (valueOf && !valueOf.isBoolean() && !valueOf.optional) {
    return KUBECONFIG_FLAGS.has(valueOf.long ?? '') ? kubeconfigValues(valueOf, partial) : valuesOf(valueOf, partial);
  }
  const eq = partial.indexOf('=');
  if (partial.startsWith('--') && eq > 0) {
    const option = optionNamed(command, partial.slice(0, eq));
    if (option && KUBECONFIG_FLAGS.has(option.long ?? '')) {
      return kubeconfigValues(option, partial.slice(eq + 1), partial.slice(0, eq + 1));
    }
    return option ? valuesOf(option, partial.slice(eq + 1)) : none();
  }
  if (partial.startsWith('-')) return flagsOf(command, words, partial);
  if (command.name() === 'completion')
    return matching(
      SHELLS.map((value) => ({ value })),
      partial,
    );
  if (command.registeredArguments[0]?.name() !== 'node') return none();
  const given = new Set(operands(program, command, words));
  const names = await listNodes(flagValues(program, command, words));
  return matching(
    names.filter((name) => !given.has(name)).map((value) => ({ value })),
    partial,
  );
}

export const SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const;

/**
 * The value of a connection flag typed before the subcommand (`kubectl maint --context <TAB>`,
 * `--context=<TAB>`): the words as a command declaring those flags receives them, the partial value
 * last, or undefined when not completing such a value.
 */
function asAfterSubcommand(program: Command, words: readonly string[], partial: string): string[] | undefined {
  const eq = partial.startsWith('--') ? partial.indexOf('=') : -1;
  const flag = eq > 0 ? partial.slice(0, eq) : words.at(-1);
  if (flag === undefined || CONNECTION_FLAGS.get(flag) !== true) return undefined;
  const host = program.commands.find((c) => optionNamed(c, flag) !== undefined);
  if (!host) return undefined;
  // Every word before is a connection flag: with a value and a subcommand after them, they all move.
  const probe = eq > 0 ? [...words, host.name()] : [...words, 'value', host.name()];
  if (connectionFlagsAfterSubcommand(probe)[0] !== host.name()) return undefined;
  return [host.name(), ...words, partial];
}

/** The output cobra's `__complete` prints. */
export function formatCompletions({ candidates, directive }: Completions): string {
  const lines = candidates.map((c) => (c.description ? `${c.value}\t${firstLine(c.description)}` : c.value));
  return [...lines, `:${directive}`, ''].join('\n');
}

function none(): Completions {
  return { candidates: [], directive: Directive.NoFileComp };
}

function matching(candidates: readonly Candidate[], partial: string): Completions {
  return { candidates: candidates.filter((c) => c.value.startsWith(partial)), directive: Directive.NoFileComp };
}

/** A flag's values: its choices (-o), files for file flags, otherwise nothing to offer. */
function valuesOf(option: Option, partial: string): Completions {
  if (option.argChoices)
    return matching(
      option.argChoices.map((value) => ({ value })),
      partial,
    );
  if (option.long === '--dry-run')
    return matching(
      ['none', 'client', 'server'].map((value) => ({ value })),
      partial,
    );
  if (FILE_FLAGS.has(option.long ?? '')) return { candidates: [], directive: Directive.Default };
  return none();
}

const FILE_FLAGS = new Set([
  '--kubeconfig',
  '--snapshot',
  '--certificate-authority',
  '--client-certificate',
  '--client-key',
]);

/** The flags not given yet (a boolean or single-valued flag is offered once). */
function flagsOf(command: Command, words: readonly string[], partial: string): Completions {
  const given = new Set(words.map((w) => optionNamed(command, w.split('=')[0]!)?.long));
  const candidates: Candidate[] = [];
  for (const option of [...command.options].filter((o) => !o.hidden && !given.has(o.long))) {
    if (option.long) candidates.push({ value: option.long, description: option.description });
    // Short forms only when the user typed a single dash, as cobra does.
    if (option.short && !partial.startsWith('--'))
      candidates.push({ value: option.short, description: option.description });
  }
  return matching(candidates, partial);
}

function optionNamed(command: Command, name: string): Option | undefined {
  return command.options.find((o) => o.long === name || o.short === name);
}

function isHidden(command: Command): boolean {
  return (command as unknown as { _hidden?: boolean })._hidden === true;
}

function firstLine(text: string): string {
  return text.split('\n')[0]!.replace(/\t/g, ' ');
}

/** The command's words that are not flags or flag values (the nodes named so far). */
function operands(program: Command, command: Command, words: readonly string[]): string[] {
  return parsed(program, command, words)?.operands.filter((w) => w !== command.name()) ?? [];
}

/** The flag values typed so far (--kubeconfig, --context, …), parsed by the command's own options. */
function flagValues(program: Command, command: Command, words: readonly string[]): KubeFlagValues {
  return parsed(program, command, words) ? (command.opts() as KubeFlagValues) : {};
}

function parsed(program: Command, command: Command, words: readonly string[]): { operands: string[] } | undefined {
  try {
    const args = pflagStyleArgv(program, words);
    return command.parseOptions(args.slice(args.indexOf(command.name()) + 1));
  } catch {
    return undefined; // a half-typed or invalid flag: complete without it
  }
}

/** Node names from the cluster the typed flags choose, within a short time; nothing on any error. */
export const listNodeNames: NodeLister = async (values) => {
  const [{ connectRest }, { restNodeCalls }] = await Promise.all([
    import('./kube-flag-values.js'),
    import('../kube/cordon.js'),
  ]);
  const timeout = Math.min(values.requestTimeout || COMPLETION_TIMEOUT_MS, COMPLETION_TIMEOUT_MS);
  try {
    const rest = await connectRest({ ...values, requestTimeout: timeout });
    return await restNodeCalls(rest).listNodeNames('');
  } catch {
    return [];
  }
};

/** The flags whose values are names in the kubeconfig. */
const KUBECONFIG_FLAGS = new Set(['--context', '--cluster', '--user']);

/** The kubeconfig's names (the file --kubeconfig or KUBECONFIG chooses); none when it cannot be read. */
export const kubeconfigNamesOf: KubeconfigLister = async (values): Promise<Record<string, readonly string[]>> => {
  const { kubeconfigNames } = await import('../kube/kubeconfig.js');
  try {
    const names = kubeconfigNames(values.kubeconfig ? { kubeconfig: values.kubeconfig } : {});
    return { '--context': names.contexts, '--cluster': names.clusters, '--user': names.users };
  } catch {
    return {};
  }
};

/** A shell waits for completion: give up on the cluster after this long. */
const COMPLETION_TIMEOUT_MS = 3000;
