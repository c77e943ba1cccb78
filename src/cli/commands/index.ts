import type { Command } from 'commander';

/**
 * One line per command; each module exports `register(program)`. Kept in one place so the command
 * list reads like the help.
 */
export function registerCommands(program: Command): void {
  void program;
}
