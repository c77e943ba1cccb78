import { Option, type Command } from 'commander';
import type { DrainFlagValues } from './drain-flags.js';
import { parseSelectorArg } from './flag-values.js';
import type { KubeFlagValues } from './kube-flag-values.js';
import type { OutputFormat } from './output.js';

/** What the commands that plan from one read of the cluster (plan, audit) parse besides their own flags. */
export interface ReadFlagValues extends DrainFlagValues, KubeFlagValues {
  readonly selector?: string;
  readonly snapshot?: string;
  readonly output?: OutputFormat;
  readonly allowIncomplete?: boolean;
  /** false with --no-tui: text even on a terminal. */
  readonly tui?: boolean;
}

/**
 * The flags of the commands that plan from one read (plan, audit): which nodes (-l), where the cluster is
 * read from (--snapshot), how the result is shown (-o, --no-tui) and the exit code of an incomplete plan;
 * `help` words the first three for the command.
 */
export function addPlanFlags(
  command: Command,
  help: { readonly selector: string; readonly snapshot: string; readonly allowIncomplete: string },
): Command {
  return command
    .option('-l, --selector <selector>', help.selector, parseSelectorArg)
    .option('--snapshot <file>', help.snapshot)
    .addOption(
      new Option('-o, --output <format>', 'output format (default: a live view on a terminal, text otherwise)').choices(
        ['text', 'json', 'yaml'],
      ),
    )
    .option('--allow-incomplete', help.allowIncomplete)
    .option('--no-tui', 'print text even on a terminal, instead of the full-screen view');
}
