import type { Command } from 'commander';

type CommandModule = { register(program: Command): void };

/**
 * The commands in help order, each with the names it registers and its module, loaded only when needed:
 * a module's static imports are what a command line pays for at start-up, and plan, drain and run
 * bring the planner and the engine.
 */
const COMMANDS: ReadonlyArray<{ readonly names: readonly string[]; readonly load: () => Promise<CommandModule> }> = [
  { names: ['plan'], load: () => import('./plan.js') },
  { names: ['audit'], load: () => import('./audit.js') },
  { names: ['drain'], load: () => import('./drain.js') },
  { names: ['run'], load: () => import('./run.js') },
  { names: ['runs'], load: () => import('./runs.js') },
  { names: ['cordon', 'uncordon'], load: () => import('./cordon.js') },
  { names: ['rbac'], load: () => import('./rbac.js') },
  { names: ['demo'], load: () => import('./demo.js') },
  { names: ['version'], load: () => import('./version.js') },
  { names: ['completion'], load: () => import('./completion.js') },
];

/**
 * Commands that stand alone: nothing they print reads another command's flags (plan, drain, run and demo
 * suggest each other's command lines, built from the flags the program knows, so they get every command).
 */
const STANDALONE: ReadonlySet<string> = new Set(['cordon', 'uncordon', 'version', 'completion', 'runs', 'rbac']);

/**
 * Registers the commands on the program: only the one named when it stands alone, else all of them (for
 * help, completion, an unknown command's suggestions, and the commands that name each other).
 */
export async function registerCommands(program: Command, named?: string): Promise<void> {
  const only = named !== undefined && STANDALONE.has(named) ? named : undefined;
  const wanted = COMMANDS.filter((c) => only === undefined || c.names.includes(only));
  for (const module of await Promise.all(wanted.map((c) => c.load()))) module.register(program);
}
