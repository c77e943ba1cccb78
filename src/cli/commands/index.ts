import type { Command } from 'commander';
import { register as registerCompletion } from './completion.js';
import { register as registerCordon } from './cordon.js';
import { register as registerDemo } from './demo.js';
import { register as registerDrain } from './drain.js';
import { register as registerPlan } from './plan.js';
import { register as registerRun } from './run.js';
import { register as registerVersion } from './version.js';

/**
 * One line per command; each module exports `register(program)`. Kept in one place so the command
 * list reads like the help.
 */
export function registerCommands(program: Command): void {
  void program;
  registerPlan(program);
  registerDrain(program);
  registerRun(program);
  registerCordon(program);
  registerDemo(program);
  registerVersion(program);
  registerCompletion(program);
}
