import { buildPoolPlan } from '../plan/pool-plan.js';
import type { PoolPlan } from '../plan/pool-types.js';
import { ClusterIndex } from '../snapshot/cluster-index.js';
import { isScopedKindWarning, type Snapshot } from '../snapshot/types.js';
import { planOptionsFrom, type DrainFlagValues } from './drain-flags.js';
import { UsageError } from './exit-codes.js';
import { resolveNodes, type NodeSelection } from './node-selection.js';
import { resolveMaxUnavailable, type MaxUnavailable } from './pool-flags.js';
import { safeLines } from '../safe-text.js';
import { canOpenFullScreen, terminalWidth } from './terminal.js';

export interface PoolFlagValues extends DrainFlagValues {
  readonly maxUnavailable?: MaxUnavailable;
  /** --command-time, in milliseconds. */
  readonly commandTime?: number;
}

/**
 * `plan` is a pool plan, batch by batch as `run` takes the nodes, when --max-unavailable is given.
 * Without it, `plan NODE…` (or `-l SELECTOR`) previews `drain NODE…`: every node cordoned first, all
 * drained together, as kubectl does — the same plan `drain --dry-run` shows. --command-time only
 * estimates batches, so it asks for a pool plan.
 */
export function isPoolPlan(values: PoolFlagValues): boolean {
  if (values.maxUnavailable === undefined && values.commandTime !== undefined) {
    throw new UsageError(
      '--command-time estimates the batches of a pool plan: add --max-unavailable N (without it, the nodes are drained together)',
    );
  }
  return values.maxUnavailable !== undefined;
}

/** Plans the pool the selection names, batch by batch (default: one node at a time). */
export function poolPlanOf(index: ClusterIndex, nodes: readonly string[], values: PoolFlagValues): PoolPlan {
  const maxUnavailable = resolveMaxUnavailable(values.maxUnavailable ?? { count: 1 }, nodes.length);
  return buildPoolPlan(index, {
    ...planOptionsFrom(values, nodes, Math.floor(Date.now() / 1000)),
    maxUnavailable,
    commandSeconds: values.commandTime === undefined ? null : values.commandTime / 1000,
  });
}

/** The snapshot's nodes for the selection, and the index both plans use. */
export function indexAndNodes(snapshot: Snapshot, selection: NodeSelection): { index: ClusterIndex; nodes: string[] } {
  // A kind that judges only some replacements is said on the pods it concerns, as a caveat (plan/caveats.ts).
  for (const warning of snapshot.warnings.filter((w) => !isScopedKindWarning(w))) {
    process.stderr.write(`warning: ${warning}\n`);
  }
  const index = new ClusterIndex(snapshot);
  return { index, nodes: resolveNodes(index, selection) };
}

/**
 * As a drain's plan is shown: JSON or YAML when asked; without -o on a terminal the full-screen view;
 * otherwise text, wrapped to the terminal when stdout is one.
 */
export async function showPoolPlan(
  plan: PoolPlan,
  format: 'text' | 'json' | 'yaml' | undefined,
  options: { readonly noTui?: boolean } = {},
): Promise<void> {
  if (format === 'json' || format === 'yaml') {
    const { renderPlanJson, renderPlanYaml } = await import('../ui/plan-output.js');
    return void process.stdout.write(format === 'json' ? renderPlanJson(plan) : renderPlanYaml(plan));
  }
  if (format === undefined && !options.noTui && canOpenFullScreen()) {
    const { renderPlanScreen } = await import('../ui/plan-view.js');
    return renderPlanScreen(plan);
  }
  const { renderPoolPlanText } = await import('../ui/pool-plan-text.js');
  // Reasons carry text from the cluster: shown without control sequences.
  process.stdout.write(safeLines(renderPoolPlanText(plan, { width: terminalWidth(process.stdout) })));
}
