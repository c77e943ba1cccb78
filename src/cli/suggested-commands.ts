import type { Command, Option } from 'commander';
import { subcommandOf } from './argv.js';

/**
 * The commands a drain suggests (resume, see the plan, give the nodes back) and the drain a plan
 * suggests, built from the words the
 * user typed so that they repeat the user's own flags — node names or selector, --ignore-daemonsets,
 * --kubeconfig, --context… — and can be pasted into a shell as they are.
 */
export interface SuggestedCommands {
  /** The same drain again: every word as typed. */
  readonly resume: string;
  /** The plan of the same drain: the words `plan` accepts. */
  readonly plan: string;
  /** The drain a plan previews: the words `drain` accepts (no --snapshot, --no-tui…). */
  readonly drain: string;
  /** The nodes back in service: `uncordon` with these nodes (the ones cordoned) and the connection flags. */
  readonly uncordon: (nodes: readonly string[]) => string;
}

/** Uncordon names the drained nodes itself, and suggests the real thing. */
const NOT_FOR_UNCORDON = new Set(['--selector', '--dry-run']);

/** The words after `kubectl maint`, as the user typed them; main() records them once. */
let typed: readonly string[] = [];

export function rememberInvocation(argv: readonly string[]): void {
  typed = [...argv];
}

export function invocation(): readonly string[] {
  return typed;
}

/** One word the user typed after the subcommand: a flag with its value words, or an operand. */
interface Word {
  readonly tokens: readonly string[];
  /** The flag's long name (`--context`), or null for an operand. */
  readonly flag: string | null;
}

/**
 * The suggestions for `argv` (the words after `kubectl maint`, subcommand included). Uncordon names the
 * nodes it is given (the ones the drain cordoned: a selector may match others by then).
 */
export function suggestedCommands(program: Command, argv: readonly string[]): SuggestedCommands {
  const command = subcommandOf(program, argv);
  const at = command ? argv.indexOf(command.name()) : -1;
  const words = command ? splitWords(command, argv.slice(at + 1)) : [];
  const accepts = (name: string) => {
    const other = program.commands.find((c) => c.name() === name);
    return (flag: string) => other?.options.some((o) => o.long === flag) ?? false;
  };
  const planAccepts = accepts('plan');
  const drainAccepts = accepts('drain');
  const uncordonAccepts = accepts('uncordon');
  const line = (subcommand: string, parts: readonly string[]) =>
    ['kubectl', 'maint', subcommand, ...parts].map(shellQuote).join(' ');
  return {
    resume: line(command?.name() ?? 'drain', argv.slice(at + 1)),
    plan: line(
      'plan',
      words.filter((w) => w.flag === null || planAccepts(w.flag)).flatMap((w) => w.tokens),
    ),
    drain: line(
      'drain',
      words.filter((w) => w.flag === null || drainAccepts(w.flag)).flatMap((w) => w.tokens),
    ),
    uncordon: (nodes) =>
      line('uncordon', [
        ...nodes,
        ...words
          .filter((w) => w.flag !== null && !NOT_FOR_UNCORDON.has(w.flag) && uncordonAccepts(w.flag))
          .flatMap((w) => w.tokens),
      ]),
  };
}

/**
 * Cuts the words after the subcommand into flags (with the words their value takes) and operands, the
 * way the parser reads them: `--flag=value`, `--flag value` and `-o json` / `-ojson` for flags that take
 * a value, a flag whose value is optional only with `=` (as argv.ts makes it), all after `--` operands.
 */
function splitWords(command: Command, tokens: readonly string[]): Word[] {
  const words: Word[] = [];
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i]!;
    if (token === '--') {
      words.push(...tokens.slice(i).map((t) => ({ tokens: [t], flag: null })));
      break;
    }
    const option = token.startsWith('-') && token !== '-' ? optionOf(command, token) : undefined;
    if (!option) {
      words.push({ tokens: [token], flag: token.startsWith('-') ? token.split('=')[0]! : null });
      continue;
    }
    const inline = token.includes('=') || (!token.startsWith('--') && token.length > 2);
    const takesNext = option.required && !inline && i + 1 < tokens.length;
    words.push({ tokens: takesNext ? [token, tokens[++i]!] : [token], flag: option.long ?? option.short ?? token });
  }
  return words;
}

function optionOf(command: Command, token: string): Option | undefined {
  const name = token.startsWith('--') ? token.split('=')[0] : token.slice(0, 2);
  return command.options.find((o) => o.long === name || o.short === name);
}

/** A word as a POSIX shell reads it back: bare when it is safe, else in single quotes. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
