/**
 * The commands the plan view suggests next, built from the user's own arguments so they can be pasted
 * as they are: `kubectl maint plan k8s-node-1 --ignore-daemonsets --context prod` suggests
 * `kubectl maint drain k8s-node-1 --ignore-daemonsets --context prod`.
 */

/** Flags of `plan` that `drain` does not take (or that only shape the plan's output), with their arity. */
const PLAN_ONLY_FLAGS: Readonly<Record<string, 0 | 1>> = {
  '-o': 1,
  '--output': 1,
  '--snapshot': 1,
  '--taint': 1,
  '--node-monitor-grace-period': 1,
  '--no-tui': 0,
};

/** Drops `plan`'s own flags (in their `--flag value`, `--flag=value` and `-ovalue` forms). */
export function drainArgsFromPlanArgs(planArgs: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < planArgs.length; i++) {
    const arg = planArgs[i]!;
    if (arg === '--') {
      kept.push(...planArgs.slice(i));
      break;
    }
    const name = arg.startsWith('--') ? arg.split('=')[0]! : arg.slice(0, 2);
    const arity = PLAN_ONLY_FLAGS[name];
    if (arity === undefined) {
      kept.push(arg);
      continue;
    }
    const inline = arg.includes('=') || (!arg.startsWith('--') && arg.length > 2);
    if (arity === 1 && !inline) i++;
  }
  return kept;
}

/** POSIX shell quoting, only where needed: node names and plain flags stay as typed. */
export function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_./:=,@%+-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}

export function commandLine(words: readonly string[]): string {
  return words.map(shellQuote).join(' ');
}

/** The user's `plan …` arguments as given: what follows the `plan` word in argv. */
export function argsAfter(rawArgs: readonly string[], commandName: string): string[] {
  const at = rawArgs.indexOf(commandName);
  return at < 0 ? [] : rawArgs.slice(at + 1);
}
