import { Option, type Command } from 'commander';
import { buildPlan } from '../../plan/build-plan.js';
import type { DrainPlan, ReadVerdict, Verdict } from '../../plan/types.js';
import { ClusterIndex } from '../../snapshot/cluster-index.js';
import { isScopedKindWarning, type Snapshot } from '../../snapshot/types.js';
import type { ReadProgressReporter } from '../../ui/read-progress.js';
import { addDrainFlags, planOptionsFrom, type DrainFlagValues } from '../drain-flags.js';
import { ExitCode } from '../exit-codes.js';
import { parseSelectorArg } from '../flag-values.js';
import { connect } from '../kube-connect.js';
import { asCliError, type KubeFlagValues } from '../kube-flag-values.js';
import { addKubeFlags } from '../kube-flags.js';
import { nodeSelection, resolveNodes, type NodeSelection } from '../node-selection.js';
import { commandTimeOption, maxUnavailableOption } from '../pool-flags.js';
import { indexAndNodes, isPoolPlan, poolPlanOf, showPoolPlan, type PoolFlagValues } from '../pool-plan.js';
import { invocation, shellQuote, suggestedCommands, type SuggestedCommands } from '../suggested-commands.js';
import { advisedFlags } from '../../ui/plan-advice.js';
import { safeLines } from '../../safe-text.js';
import { canOpenFullScreen, terminalWidth } from '../terminal.js';

export type PlanFormat = 'text' | 'json' | 'yaml';

export interface PlanFlagValues extends PoolFlagValues, KubeFlagValues {
  readonly selector?: string;
  readonly snapshot?: string;
  readonly output?: PlanFormat;
  readonly allowIncomplete?: boolean;
  /** false with --no-tui: text even on a terminal. */
  readonly tui?: boolean;
}

export interface ShowPlanOptions {
  /** --no-tui: text even on a terminal. */
  readonly noTui?: boolean;
  /** What the full-screen view suggests running next. */
  readonly nextCommand?: string | undefined;
  /** The full-screen view's line above the headline, and what q does there (the demo's examples). */
  readonly title?: string | undefined;
  readonly quitHint?: string | undefined;
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
        : buildPlan(index, planOptionsFrom(values, nodes, Math.floor(Date.now() / 1000)));
    } finally {
      progress?.stop();
    }
    if (plan.kind === 'PoolPlan') await showPoolPlan(plan, values.output, { noTui: values.tui === false });
    else {
      const next = nextCommand(plan, suggestedCommands(rootOf(self), invocation()));
      await showPlan(plan, values.output, { noTui: values.tui === false, nextCommand: next });
    }
    process.exitCode = planExitCode(plan, values.allowIncomplete === true);
  });
}

const READ_VERDICT_EXIT: Record<ReadVerdict, number> = {
  clear: ExitCode.Ok,
  slow: ExitCode.Ok,
  blocked: ExitCode.Blocked,
  disruptive: ExitCode.Disruptive,
};

/**
 * What a pipeline gates on: 0 clear or slow, 3 blocked, 4 incomplete, 5 disruptive. An incomplete plan fails closed;
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

/** The spinner on stderr while reading, loaded only when stderr is a terminal (it is ora, and only draws there). */
export async function readProgress(): Promise<ReadProgressReporter | null> {
  if (!process.stderr.isTTY) return null;
  const { startReadProgress } = await import('../../ui/read-progress.js');
  return startReadProgress();
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

/** Plans a loaded snapshot; warnings from loading go to stderr first. */
export function planSnapshot(snapshot: Snapshot, selection: NodeSelection, values: DrainFlagValues): DrainPlan {
  // A kind that judges only some replacements is said on the pods it concerns, as a caveat (plan/caveats.ts).
  for (const warning of snapshot.warnings.filter((w) => !isScopedKindWarning(w))) {
    process.stderr.write(`warning: ${warning}\n`);
  }
  const index = new ClusterIndex(snapshot);
  const nodes = resolveNodes(index, selection);
  return buildPlan(index, planOptionsFrom(values, nodes, Math.floor(Date.now() / 1000)));
}

/**
 * Results go to stdout. Without -o, on a terminal (stdin and stdout, outside CI): the full-screen view,
 * loaded only then so pipes never parse React. Otherwise text, wrapped to the terminal when stdout is one.
 */
export async function showPlan(
  plan: DrainPlan,
  format: PlanFormat | undefined,
  options: ShowPlanOptions = {},
): Promise<void> {
  if (format === 'json' || format === 'yaml') {
    const { renderPlanJson, renderPlanYaml } = await import('../../ui/plan-output.js');
    return void process.stdout.write(format === 'json' ? renderPlanJson(plan) : renderPlanYaml(plan));
  }
  if (format === undefined && !options.noTui && canOpenFullScreen()) {
    const { renderPlanScreen } = await import('../../ui/plan-view.js');
    return renderPlanScreen(plan, {
      nextCommand: options.nextCommand,
      title: options.title,
      quitHint: options.quitHint,
    });
  }
  const { renderPlanText } = await import('../../ui/plan-text.js');
  // Reasons carry text from the cluster (annotations, the scheduler's messages): shown without control sequences.
  process.stdout.write(safeLines(renderPlanText(plan, { width: terminalWidth(process.stdout) })));
}
