import { Option, type Command } from 'commander';
import { buildPlan } from '../../plan/build-plan.js';
import type { DrainPlan } from '../../plan/types.js';
import type { Snapshot } from '../../snapshot/types.js';
import type { ReadProgressReporter } from '../../ui/read-progress.js';
import { addDrainFlags, drainOptionsFrom } from '../drain-flags.js';
import { planExitCode } from '../exit-codes.js';
import { parseSelectorArg } from '../flag-values.js';
import { connect } from '../kube-connect.js';
import { asCliError, type KubeFlagValues } from '../kube-flag-values.js';
import { addKubeFlags } from '../kube-flags.js';
import { nodeSelection } from '../node-selection.js';
import { commandTimeOption, maxUnavailableOption } from '../pool-flags.js';
import { showPlan, type OutputFormat } from '../output.js';
import { indexAndNodes, planOptionsNow, readProgress } from '../plan-input.js';
import { isPoolPlan, poolPlanOf, type PoolFlagValues } from '../pool-plan.js';
import { invocation, shellQuote, suggestedCommands, type SuggestedCommands } from '../suggested-commands.js';
import { advisedFlags } from '../../ui/plan-advice.js';

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
    const selection = nodeSelection(nodeArgs, values.selector);
    const pool = isPoolPlan(values);
    const progress = await readProgress();
    let plan;
    try {
      const snapshot = await snapshotFromFlags(values, progress);
      // The spinner's line goes before the loader's warnings, or they would be drawn over.
      if (snapshot.warnings.length > 0) progress?.stop();
      progress?.step('Planning');
      const { index, nodes } = indexAndNodes(snapshot, selection);
      plan = pool
        ? poolPlanOf(index, nodes, values)
        : buildPlan(index, planOptionsNow(drainOptionsFrom(values), nodes));
    } finally {
      progress?.stop();
    }
    if (plan.kind === 'PoolPlan') await showPlan(plan, values.output, { noTui: values.tui === false });
    else {
      const next = nextCommand(plan, suggestedCommands(rootOf(self), invocation()));
      await showPlan(plan, values.output, { noTui: values.tui === false, nextCommand: next });
    }
    process.exitCode = planExitCode(plan, values.allowIncomplete === true);
  });
}

/** Loads the snapshot the flags name: the file of --snapshot, else the live cluster. */
export async function snapshotFromFlags(
  values: PlanFlagValues,
  progress?: ReadProgressReporter | null,
): Promise<Snapshot> {
  try {
    if (values.snapshot) {
      const { loadSnapshotFile } = await import('../../snapshot/load-file.js');
      return await loadSnapshotFile(values.snapshot, { onProgress: progress?.onFile });
    }
    const { loadLiveSnapshot } = await import('../../snapshot/load-live.js');
    return await loadLiveSnapshot(await connect(values), { ...values, onProgress: progress?.onList });
  } catch (err) {
    throw asCliError(err);
  }
}

/** The program a subcommand belongs to: the suggestions read every command's flags from it. */
function rootOf(command: Command): Command {
  return command.parent ? rootOf(command.parent) : command;
}

/**
 * Drain when the plan says the drain can finish; otherwise the same plan again, once the cause is fixed,
 * with the flags the advice recommends added (--ignore-daemonsets, --surge=…): the plan that shows
 * whether they are enough.
 */
export function nextCommand(plan: DrainPlan, commands: SuggestedCommands): string {
  if (plan.verdict === 'clear' || plan.verdict === 'slow') return commands.drain;
  return [commands.resume, ...advisedFlags(plan).map(shellQuote)].join(' ');
}
