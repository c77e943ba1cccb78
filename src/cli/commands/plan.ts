import { Option, type Command } from 'commander';
import { buildPlan } from '../../plan/build-plan.js';
import type { DrainPlan, ReadVerdict, Verdict } from '../../plan/types.js';
import { ClusterIndex } from '../../snapshot/cluster-index.js';
import type { Snapshot } from '../../snapshot/types.js';
import { renderPlanText } from '../../ui/plan-text.js';
import { addDrainFlags, planOptionsFrom, type DrainFlagValues } from '../drain-flags.js';
import { ExitCode } from '../exit-codes.js';
import { parseSelectorArg } from '../flag-values.js';
import { addKubeFlags, asCliError, connect, type KubeFlagValues } from '../kube-flags.js';
import { nodeSelection, resolveNodes, type NodeSelection } from '../node-selection.js';
import { maxUnavailableOption } from '../pool-flags.js';
import { indexAndNodes, isPoolPlan, poolPlanOf, showPoolPlan, type PoolFlagValues } from '../pool-plan.js';

export type PlanFormat = 'text' | 'json' | 'yaml';

export interface PlanFlagValues extends PoolFlagValues, KubeFlagValues {
  readonly selector?: string;
  readonly snapshot?: string;
  readonly output?: PlanFormat;
  readonly allowIncomplete?: boolean;
}

export function register(program: Command): void {
  const command = program
    .command('plan')
    .summary('preview a drain: what happens to each pod, in how many waves, and whether it can finish')
    .description(
      'Preview `kubectl drain NODE…` without touching the cluster: which pods are evicted, skipped or refused, ' +
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
    );
  command.addOption(maxUnavailableOption().helpGroup('Pool (several nodes, batch by batch):'));
  addDrainFlags(command);
  addKubeFlags(command);
  command.action(async (nodeArgs: string[], values: PlanFlagValues) => {
    const selection = nodeSelection(nodeArgs, values.selector);
    const { index, nodes } = indexAndNodes(await snapshotFromFlags(values), selection);
    const plan = isPoolPlan(nodes, values)
      ? poolPlanOf(index, nodes, values)
      : buildPlan(index, planOptionsFrom(values, nodes, Math.floor(Date.now() / 1000)));
    if (plan.kind === 'PoolPlan') await showPoolPlan(plan, values.output);
    else await showPlan(plan, values.output);
    process.exitCode = planExitCode(plan, values.allowIncomplete === true);
  });
}

const READ_VERDICT_EXIT: Record<ReadVerdict, number> = {
  clear: ExitCode.Ok,
  slow: ExitCode.Ok,
  blocked: ExitCode.Blocked,
};

/**
 * What a pipeline gates on: 0 clear or slow, 3 blocked, 4 incomplete. An incomplete plan fails closed;
 * --allow-incomplete opts in to the exit code of the verdict from what was read (a pool plan that is
 * incomplete has no blocked batch, so that is 0).
 */
export function planExitCode(
  plan: { readonly verdict: Verdict; readonly assumedVerdict?: ReadVerdict },
  allowIncomplete: boolean,
): number {
  if (plan.verdict !== 'incomplete') return READ_VERDICT_EXIT[plan.verdict];
  return allowIncomplete ? READ_VERDICT_EXIT[plan.assumedVerdict ?? 'clear'] : ExitCode.Incomplete;
}

/** Loads the snapshot the flags name: the file of --snapshot, else the live cluster. */
export async function snapshotFromFlags(values: PlanFlagValues): Promise<Snapshot> {
  try {
    if (values.snapshot) {
      const { loadSnapshotFile } = await import('../../snapshot/load-file.js');
      return await loadSnapshotFile(values.snapshot);
    }
    const { loadLiveSnapshot } = await import('../../snapshot/load-live.js');
    return await loadLiveSnapshot(await connect(values), values);
  } catch (err) {
    throw asCliError(err);
  }
}

/** Plans a loaded snapshot; warnings from loading go to stderr first. */
export function planSnapshot(snapshot: Snapshot, selection: NodeSelection, values: DrainFlagValues): DrainPlan {
  for (const warning of snapshot.warnings) process.stderr.write(`warning: ${warning}\n`);
  const index = new ClusterIndex(snapshot);
  const nodes = resolveNodes(index, selection);
  return buildPlan(index, planOptionsFrom(values, nodes, Math.floor(Date.now() / 1000)));
}

/**
 * Results go to stdout. Without -o: the Ink view on a terminal (loaded only then, so pipes never parse
 * React), plain text otherwise.
 */
export async function showPlan(plan: DrainPlan, format: PlanFormat | undefined): Promise<void> {
  if (format === 'json' || format === 'yaml') {
    const { renderPlanJson, renderPlanYaml } = await import('../../ui/plan-output.js');
    return void process.stdout.write(format === 'json' ? renderPlanJson(plan) : renderPlanYaml(plan));
  }
  if (format === undefined && process.stdout.isTTY) {
    const { renderPlanInk } = await import('../../ui/plan-view.js');
    return renderPlanInk(plan);
  }
  process.stdout.write(renderPlanText(plan));
}
