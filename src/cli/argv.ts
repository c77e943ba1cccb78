import type { Command, Option } from 'commander';
import { UsageError } from './exit-codes.js';

/**
 * kubectl's flags are parsed by pflag, commander's differently. Before commander sees the arguments,
 * this rewrites the two forms where they disagree, so that scripts written for `kubectl drain` work:
 *
 * - a boolean flag takes `=VALUE` in strconv.ParseBool's spellings (`--force=false`,
 *   `--ignore-daemonsets=true`); the last occurrence wins, as in pflag; `=false` of a flag that is on by
 *   default (declared with a hidden `--no-` form too) becomes that form;
 * - a flag whose value is optional (`--dry-run`) takes its value only after `=`: bare `--dry-run` means
 *   its preset (client), and the next word stays an argument (`drain --dry-run k8s-node-1`).
 *
 * Everything after `--` is left alone, as are arguments that are not known flags of the command.
 */
export function pflagStyleArgv(program: Command, argv: readonly string[]): string[] {
  const command = subcommandOf(program, argv);
  const options = [...program.options, ...(command?.options ?? [])];
  const out: Array<string | { readonly long: string; readonly value: boolean }> = [];
  let i = 0;
  for (; i < argv.length && argv[i] !== '--'; i += 1) {
    const arg = argv[i]!;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const option = arg.startsWith('-') ? options.find((o) => o.long === name || o.short === name) : undefined;
    if (option?.isBoolean() && !option.negate && option.long) {
      out.push({ long: option.long, value: eq > 0 ? parseBool(arg.slice(eq + 1), option) : true });
    } else if (option?.optional && eq < 0 && option.presetArg !== undefined) {
      out.push(`${option.long ?? name}=${String(option.presetArg)}`);
    } else {
      out.push(arg);
    }
  }
  // A boolean flag given more than once counts once, with its last value, as in pflag.
  const last = new Map<string, number>();
  out.forEach((item, j) => typeof item !== 'string' && last.set(item.long, j));
  const kept = out.flatMap((item, j) => {
    if (typeof item === 'string') return [item];
    if (last.get(item.long) !== j) return [];
    // A flag on by default (one with a --no- form) is turned off by `=false`.
    const negated = `--no-${item.long.slice(2)}`;
    return item.value ? [item.long] : options.some((o) => o.long === negated) ? [negated] : [];
  });
  return [...kept, ...argv.slice(i)];
}

/** Go's strconv.ParseBool, which pflag uses for boolean flags: undefined for a word it refuses. */
export function parseBoolWord(text: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
  return undefined;
}

function parseBool(text: string, option: Option): boolean {
  const value = parseBoolWord(text);
  if (value !== undefined) return value;
  // kubectl's shape ("invalid argument … for … flag"), without Go's parser name a TypeScript tool has no use for.
  throw new UsageError(
    `invalid argument "${text}" for "${option.long}" flag: expected true or false (or 1, 0, t, f, TRUE, FALSE, True, False)`,
  );
}

/** The subcommand the arguments name (the first word that is a command's name), if any. */
export function subcommandOf(program: Command, argv: readonly string[]): Command | undefined {
  for (const arg of argv) {
    if (arg === '--') return undefined;
    if (arg.startsWith('-')) continue;
    return program.commands.find((c) => c.name() === arg || c.aliases().includes(arg));
  }
  return undefined;
}
