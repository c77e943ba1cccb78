import { Option, type Command } from 'commander';
import { addDrainFlags } from '../drain-flags.js';
import { parseSelectorArg } from '../flag-values.js';
import type { KubeFlagValues } from '../kube-flag-values.js';
import { addKubeFlags } from '../kube-flags.js';
import { commandTimeOption, maxUnavailableOption } from '../pool-flags.js';
import type { OutputFormat } from '../output.js';
import type { PoolFlagValues } from '../pool-plan.js';
import { invocation, suggestedCommands } from '../suggested-commands.js';

export interface PlanFlagValues extends PoolFlagValues, KubeFlagValues {
  readonly selector?: string;
  readonly snapshot?: string;
  readonly output?: OutputFormat;
  readonly allowIncomplete?: boolean;
  /** false with --no-tui: text even on a terminal. */
  readonly tui?: boolean;
}

export function register(program: Command): void {
  const command = program
    .command('plan')
    .summary('preview a drain: what happens to each pod, in how many waves, and whether it can finish')
    .description(
      'Preview `kubectl drain NODE…` without touching the cluster (several nodes: cordoned first, drained together, ' +
        'as `kubectl maint drain NODE… --dry-run` shows; --max-unavailable plans them as a pool, batch by batch): which pods are evicted, skipped or refused, ' +
        'how PodDisruptionBudgets pace the evictions, where the replacements can be scheduled, and how this ' +
        'compares with a NoExecute taint or a node failure. Reads the live cluster, or a file with --snapshot.',
    )
    .argument('[node...]', 'the nodes to drain together')
    .option('-l, --selector <selector>', 'drain the nodes matching this label selector instead', parseSelectorArg)
    .option('--snapshot <file>', 'plan against the output of kubectl get … -o json|yaml instead of the live cluster')
    .addOption(
      new Option('-o, --output <format>', 'output format (default: a live view on a terminal, text otherwise)').choices(
        ['text', 'json', 'yaml'],
      ),
    )
    .option(
      '--allow-incomplete',
      'exit as the verdict from what was read (0 for clear or slow) when a kind the plan needs could not be ' +
        'read, instead of 4 (the plan still says incomplete)',
    )
    .option('--no-tui', 'print text even on a terminal, instead of the full-screen view');
  const poolGroup = 'Pool (batch by batch, as run takes the nodes; without it, the nodes are drained together):';
  command.addOption(
    maxUnavailableOption(
      'plan the nodes as a pool, batch by batch as `kubectl maint run` takes them: at most this many (or this share of the pool, rounded down) out of service at once',
    ).helpGroup(poolGroup),
  );
  command.addOption(commandTimeOption().helpGroup(poolGroup));
  addDrainFlags(command);
  addKubeFlags(command);
  command.action(async (nodeArgs: string[], values: PlanFlagValues, self: Command) => {
    const { planAction } = await import('../plan-action.js');
    process.exitCode = await planAction(nodeArgs, values, suggestedCommands(rootOf(self), invocation()));
  });
}

/** The program a subcommand belongs to: the suggestions read every command's flags from it. */
function rootOf(command: Command): Command {
  return command.parent ? rootOf(command.parent) : command;
}
