import { InvalidArgumentError } from 'commander';

export type DryRunMode = 'none' | 'client' | 'server';

/**
 * kubectl's --dry-run values: none, client, server; bare --dry-run and the deprecated true/false map as
 * kubectl maps them (client, client, none).
 */
export function parseDryRun(text: string | boolean): DryRunMode {
  if (text === true || text === 'true' || text === 'client' || text === 'unchanged') return 'client';
  if (text === false || text === 'false' || text === 'none') return 'none';
  if (text === 'server') return 'server';
  throw new InvalidArgumentError(`Invalid dry-run value (${String(text)}). Must be "none", "server", or "client".`);
}
