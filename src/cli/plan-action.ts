import { buildPlan } from '../plan/build-plan.js';
import type { DrainPlan } from '../plan/types.js';
import { advisedFlags } from '../ui/plan-advice.js';
import type { PlanFlagValues } from './commands/plan.js';
import { drainOptionsFrom } from './drain-flags.js';
import { planExitCode, UsageError } from './exit-codes.js';
import { connect } from './kube-connect.js';
import { asCliError } from './kube-flag-values.js';
import { nodeSelection } from './node-selection.js';
import { showPlan } from './output.js';
import { indexAndNodes, planOptionsNow, readProgress, snapshotFromFlags } from './plan-input.js';
import { isPoolPlan, poolPlanOf } from './pool-plan.js';
import { shellQuote, type SuggestedCommands } from './suggested-commands.js';

/** What `kubectl maint plan` does once its flags are parsed, loaded by it alone: the planner and its views. Returns the exit code. */
export async function planAction(
  nodeArgs: readonly string[],
  values: PlanFlagValues,
  commands: SuggestedCommands,
): Promise<number> {
  const selection = nodeSelection(nodeArgs, values.selector);
  const pool = isPoolPlan(values);
  if (values.askServer && values.snapshot) {
    throw new UsageError('--ask-server asks the live cluster: it cannot be used with --snapshot');
  }
  const progress = await readProgress();
  let plan;
  try {
    const snapshot = await snapshotFromFlags(values, progress);
    // The spinner's line goes before the loader's warnings, or they would be drawn over.
    if (snapshot.warnings.length > 0) progress?.stop();
    progress?.step('Planning');
    const { index, nodes } = indexAndNodes(snapshot, selection);
    plan = pool ? poolPlanOf(index, nodes, values) : buildPlan(index, planOptionsNow(drainOptionsFrom(values), nodes));
    if (values.askServer && plan.kind === 'DrainPlan') {
      progress?.step('Asking the API server');
      const { withAnswersOfServer } = await import('./ask-server.js');
      plan = await withAnswersOfServer(
        plan,
        await connect(values).catch((err: unknown) => {
          throw asCliError(err);
        }),
      );
    }
  } finally {
    progress?.stop();
  }
  if (plan.kind === 'PoolPlan') await showPlan(plan, values.output, { noTui: values.tui === false });
  else {
    const next = nextCommand(plan, commands);
    await showPlan(plan, values.output, { noTui: values.tui === false, nextCommand: next });
  }
  return planExitCode(plan, values.allowIncomplete === true);
}

/**
 * Drain when the plan says the drain can finish; otherwise the same plan again with the flags the advice
 * recommends added (--ignore-daemonsets, --surge=…): the plan that shows whether they are enough. None when
 * no flag is advised: the same plan again would say the same, and "What to do" says what to change.
 */
export function nextCommand(plan: DrainPlan, commands: SuggestedCommands): string | undefined {
  if (plan.verdict === 'clear' || plan.verdict === 'slow') return commands.drain;
  const flags = advisedFlags(plan);
  return flags.length > 0 ? [commands.resume, ...flags.map(shellQuote)].join(' ') : undefined;
}
