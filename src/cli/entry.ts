import { main as standaloneMain } from './standalone-main.js';
import { isStandaloneCommand } from './standalone-commands.js';
import { connectionFlagsAfterSubcommand } from './leading-flags.js';

/**
 * The CLI's entry: the short commands that stand alone (cordon, uncordon, version) run from their own
 * small bundle, every other command line from the whole CLI. Both give the same program for them. The
 * standalone CLI is imported with this file, not on demand: its first module is a few lines (the plain
 * cordon's reader), and a cordon saves a round of loading files.
 */
export async function main(commandLine: readonly string[]): Promise<number> {
  // Connection flags given before the subcommand (`kubectl maint --context lab plan …`) go after it.
  const argv = connectionFlagsAfterSubcommand(commandLine);
  if (isStandaloneCommand(argv[0])) return standaloneMain(argv);
  const cli = await import('./main.js');
  return cli.main(argv);
}
