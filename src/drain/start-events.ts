import type { DrainRequest } from './drain-request.js';
import type { DrainEvent, PodDrainState } from './events.js';
import type { DrainTarget } from './targets.js';

/** Said when a pod is deleted rather than evicted (--disable-eviction): its budgets are not asked. */
export const DISABLE_EVICTION_WARNING =
  '--disable-eviction: pods are deleted directly, bypassing their PodDisruptionBudgets';

/** Said before a server dry run's evictions: the API server judges each against a budget nothing spent. */
export const SERVER_DRY_RUN_WARNING =
  'server dry run: a dry-run eviction does not spend the budget, so each pod of a budget is judged against ' +
  'the unspent budget; pods admitted here may still have to wait for their budget in a real drain';

/**
 * What a drain says before it cordons anything: that it started, on which nodes and pods; each pod it
 * leaves alone, skipped with kubectl's reason; each pod it evicts, in its first state; and, when any pod
 * is deleted rather than evicted, that budgets are bypassed.
 */
export function startEvents(
  request: Pick<DrainRequest, 'nodes' | 'targets' | 'skipped' | 'dryRun'>,
  pods: ReadonlyArray<{ readonly target: DrainTarget; readonly state: PodDrainState }>,
  nowMs: number,
): DrainEvent[] {
  const { nodes, dryRun } = request;
  return [
    { type: 'started', atMs: nowMs, nodes, pods: request.targets.map((t) => t.ref), dryRun },
    ...request.skipped.map((skip): DrainEvent => ({
      type: 'pod',
      atMs: nowMs,
      pod: skip.ref,
      state: { phase: 'skipped', reason: skip.reason },
    })),
    ...pods.map(({ target, state }): DrainEvent => ({ type: 'pod', atMs: nowMs, pod: target.ref, state })),
    ...(request.targets.some((t) => t.method === 'delete')
      ? [{ type: 'warning', atMs: nowMs, message: DISABLE_EVICTION_WARNING } as const]
      : []),
  ];
}
