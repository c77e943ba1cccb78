import type { Command } from 'commander';
import { errorText } from './report-error.js';
import { writeErr } from './output.js';

/**
 * commander's usage errors in kubectl's words (pflag's and cobra's messages), so that an operator sees
 * the same line from `kubectl maint drain` as from `kubectl drain`:
 *
 *   error: unknown flag: --x
 *   See 'kubectl maint drain --help' for usage.
 *
 * kubectl itself prints cobra's capitalised "Error:" for these and "error:" for everything else; here
 * every error starts with "error:", one style throughout. Messages commander has no rule for keep their
 * text, with the same prefix.
 */
export function kubectlStyleUsageError(commanderMessage: string, commandPath: string): string {
  const message = commanderMessage.trim().replace(/^error:\s*/, '');
  // commander's "(Did you mean drain?)" under an unknown command or flag: kept, in cobra's words.
  const suggested = /\n\(Did you mean (\S+)\?\)\s*$/.exec(message)?.[1];
  const said = suggested ? message.slice(0, message.lastIndexOf('\n(Did you mean')) : message;
  const rewritten = rewrite(said, commandPath);
  const isFlagError = rewritten !== undefined && rewritten.flag;
  const text = errorText(rewritten?.text ?? said);
  const suggestion = suggested
    ? suggested.startsWith('-')
      ? `Did you mean ${suggested}?\n`
      : `\nDid you mean this?\n\t${suggested}\n`
    : '';
  return `error: ${text}\n${suggestion}${isFlagError ? `See '${commandPath} --help' for usage.\n` : ''}`;
}

function rewrite(message: string, commandPath: string): { text: string; flag: boolean } | undefined {
  let m = /^unknown option '(-[^-=\s])'/.exec(message);
  if (m) return { text: `unknown shorthand flag: '${m[1]!.slice(1)}' in ${m[1]}`, flag: true };
  m = /^unknown option '([^'=]+)(=[^']*)?'/.exec(message);
  if (m) return { text: `unknown flag: ${m[1]}`, flag: true };
  m = /^option '([^']+)' argument '([\s\S]*)' is invalid\. ([\s\S]*)$/.exec(message);
  if (m) return { text: `invalid argument "${m[2]}" for "${flagName(m[1]!)}" flag: ${lowerFirst(m[3]!)}`, flag: true };
  m = /^option '([^']+)' argument missing/.exec(message);
  if (m) return { text: `flag needs an argument: ${flagName(m[1]!)}`, flag: true };
  m = /^command-argument value '([^']*)' is invalid for argument '[^']*'\. Allowed choices are (.*?)\.?$/.exec(message);
  if (m) return { text: `invalid argument "${m[1]}" for "${commandPath}": expected one of ${m[2]}`, flag: false };
  m = /^unknown command '([^']*)'/.exec(message);
  if (m) return { text: `unknown command "${m[1]}" for "${commandPath}"`, flag: false };
  m = /^too many arguments(?: for '[^']*')?\. Expected \d+ arguments? but got \d+: ([^,.]*)/.exec(message);
  if (m) return { text: `unknown command "${m[1]}" for "${commandPath}"`, flag: false };
  return undefined;
}

/** commander's "-o, --output <format>" → pflag's "-o, --output"; "--timeout <duration>" → "--timeout". */
function flagName(flags: string): string {
  return flags.replace(/\s*[<[].*$/, '').trim();
}

function lowerFirst(text: string): string {
  const trimmed = text.replace(/\.$/, '');
  return /^[A-Z][a-z]/.test(trimmed) ? `${trimmed[0]!.toLowerCase()}${trimmed.slice(1)}` : trimmed;
}

/** `kubectl maint drain`: the words a user types for this command. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** Every command of the tree reports commander's errors in kubectl's words, naming itself. */
export function useKubectlStyleErrors(root: Command): void {
  const visit = (command: Command) => {
    const path = commandPath(command);
    command.configureOutput({
      writeErr,
      outputError: (str, write) => write(kubectlStyleUsageError(str, path)),
    });
    command.commands.forEach(visit);
  };
  visit(root);
}
