import type { Command } from 'commander';
import { addDrainFlags } from '../drain-flags.js';
import { addKubeFlags } from '../kube-flags.js';
import { addPlanFlags, type ReadFlagValues } from '../plan-flags.js';
import { commandTimeOption, maxUnavailableOption } from '../pool-flags.js';
import type { PoolFlagValues } from '../pool-plan.js';
import { invocation, suggestedCommands } from '../suggested-commands.js';

export interface PlanFlagValues extends PoolFlagValues, ReadFlagValues {
  /** --ask-server: each eviction sent to the API server as a dry run, its answer beside the plan's. */
  readonly askServer?: boolean;
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
    .argument('[node...]', 'the nodes to drain together');
  addPlanFlags(command, {
    selector: 'drain the nodes matching this label selector instead',
    snapshot: 'plan against the output of kubectl get … -o json|yaml instead of the live cluster',
    allowIncomplete:
      'exit as the verdict from what was read (0 for clear or slow) when a kind the plan needs could not be ' +
      'read, instead of 4 (the plan still says incomplete)',
  });
  command.option(
    '--ask-server',
    'send each eviction the drain would make to the API server as a dry run (dryRun=All: admission and the ' +
      "budgets answer, nothing is written) and put its answer beside the plan's; needs create on pods/eviction " +
      '(kubectl maint rbac plan --ask-server)',
  );
  const poolGroup = 'Pool (batch by batch, as run takes them; without it, drained together):';
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
