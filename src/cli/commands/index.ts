import type { Command } from 'commander';
import { register as registerVersion } from './version.js';

/**
 * One line per command; each module exports `register(program)`. Kept in one place so the command
 * list reads like the help.
 */
export function registerCommands(program: Command): void {
  void program;
  registerVersion(program);
}
