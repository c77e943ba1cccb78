import { isStandaloneCommand } from './standalone-commands.js';

/**
 * The CLI's entry: the short commands that stand alone (cordon, uncordon, version) run from their own
 * small bundle, every other command line from the whole CLI. Both give the same program for them.
 */
export async function main(argv: readonly string[]): Promise<number> {
  const cli = isStandaloneCommand(argv[0]) ? await import('./standalone-main.js') : await import('./main.js');
  return cli.main(argv);
}
