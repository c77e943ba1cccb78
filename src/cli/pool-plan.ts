import { buildPoolPlan } from '../plan/pool-plan.js';
import type { PoolPlan } from '../plan/pool-types.js';
import type { ClusterIndex } from '../snapshot/cluster-index.js';
import { drainOptionsFrom, type DrainFlagValues } from './drain-flags.js';
import { UsageError } from './exit-codes.js';
import { planOptionsNow } from './plan-input.js';
import { resolveMaxUnavailable, type MaxUnavailable } from './pool-flags.js';

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
    ...planOptionsNow(drainOptionsFrom(values), nodes),
    maxUnavailable,
    commandSeconds: values.commandTime === undefined ? null : values.commandTime / 1000,
  });
}
