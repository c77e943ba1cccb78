import { drainRequestFor, planOptionsOf } from '../drain/drain-settings.js';
import { runDrain, type DrainRequest } from '../drain/engine.js';
import { bareCommands } from '../drain/summary.js';
import type { DrainEvent } from '../drain/events.js';
import type { FinishedEvent } from '../drain/summary.js';
import type { DrainApi } from '../kube/drain-api.js';
import { budgetKey, type BudgetKey } from '../plan/budgets.js';
import { buildPlan } from '../plan/build-plan.js';
import type { DrainPlan, PlanOptions } from '../plan/types.js';
import { ClusterIndex } from '../snapshot/cluster-index.js';
import type { Snapshot } from '../snapshot/types.js';
import type { RunOptions } from './state.js';

export interface BatchDrainResult {
  readonly finished: FinishedEvent;
  /** Nodes of the batch with pods left on them (or refused by kubectl's filters): they are not drained. */
  readonly notDrained: ReadonlyMap<string, string>;
  /** Every budget selecting a drained pod, with its disruptionsAllowed before the batch: what the run waits to get back. */
  readonly budgetsBefore: ReadonlyMap<BudgetKey, number>;
  readonly plan: DrainPlan;
}

/** PlanOptions for one batch from the run's recorded flags: every drain flag, as `plan` and `drain` read them. */
export function batchPlanOptions(options: RunOptions, nodes: readonly string[], nowEpochSeconds: number): PlanOptions {
  return planOptionsOf(options.drain, nodes, nowEpochSeconds);
}

/** The batch's fresh plan against the cluster as it is now (earlier batches moved pods around). */
export function planBatch(snapshot: Snapshot, nodes: readonly string[], options: RunOptions, nowMs: number): DrainPlan {
  return buildPlan(ClusterIndex.of(snapshot), batchPlanOptions(options, nodes, Math.floor(nowMs / 1000)));
}

/**
 * Why a batch is not even cordoned: its fresh plan is blocked (an earlier batch's failure, or the cluster
 * changed since the run's plan) and no --timeout bounds the drain, which would otherwise wait for ever
 * with the batch's nodes cordoned. With a --timeout the drain is tried, as the operator bounded it.
 */
export function blockedWithoutBound(plan: DrainPlan, options: RunOptions): string | null {
  if (plan.verdict !== 'blocked' || options.drain.timeoutMs > 0) return null;
  const why = plan.verdictReasons[0] ?? 'a pod cannot leave';
  return `not cordoned or drained: the batch's plan is blocked (${why}); no --timeout bounds the wait`;
}

/** A node of the batch with a pod kubectl's filters refuse is not drained: each such node, and why. */
function refusedNodesOf(plan: DrainPlan): Map<string, string> {
  const refused = new Map<string, string>();
  for (const pod of plan.pods.filter((p) => p.action === 'refuse')) {
    refused.set(pod.node, `cannot drain: ${pod.namespace}/${pod.name}: ${pod.reason}`);
  }
  return refused;
}

/**
 * The engine's request for one batch: `drain`'s own (drainRequestFor, every drain flag the run recorded)
 * for the batch's nodes that kubectl's filters let drain, with the run's words for who gives them back.
 */
export function batchDrainRequest(
  snapshot: Snapshot,
  plan: DrainPlan,
  nodes: readonly string[],
  options: RunOptions,
  signal: AbortSignal,
): DrainRequest {
  const refused = refusedNodesOf(plan);
  const drainable = nodes.filter((n) => !refused.has(n));
  const them = drainable.length === 1 ? 'it' : 'them';
  return drainRequestFor(options.drain, plan, snapshot, {
    nodes: drainable,
    dryRun: 'none',
    signal,
    // The run, not the operator, gives the nodes back: after the command, once they are Ready again.
    commands: {
      ...bareCommands(drainable),
      returnedBy: options.uncordon
        ? `the run uncordons ${them} after the maintenance, once ${drainable.length === 1 ? 'it is' : 'they are'} Ready again`
        : `the run leaves ${them} cordoned (--no-uncordon)`,
    },
  });
}

/**
 * One batch's drain with the existing engine, from the batch's fresh plan (planBatch): kubectl's refusals
 * honoured per node (a node with a refused pod is not drained and says why), then cordon and evict every
 * target.
 */
export async function drainBatch(
  snapshot: Snapshot,
  plan: DrainPlan,
  nodes: readonly string[],
  options: RunOptions,
  deps: {
    api: DrainApi;
    emit: (event: DrainEvent) => void;
    signal: AbortSignal;
  },
): Promise<BatchDrainResult> {
  const refusedNodes = refusedNodesOf(plan);
  const finished = await runDrain(batchDrainRequest(snapshot, plan, nodes, options, deps.signal), {
    api: deps.api,
    emit: deps.emit,
  });
  const notDrained = new Map(refusedNodes);
  for (const pod of finished.remaining) {
    if (!notDrained.has(pod.node))
      notDrained.set(pod.node, `drain ${finished.result}: ${pod.namespace}/${pod.name} is still on it`);
  }
  const budgetsBefore = new Map(
    plan.budgets
      .filter((b) => b.drainedPods.length > 0)
      .map((b) => [budgetKey(b.namespace, b.name), b.disruptionsAllowed]),
  );
  return { finished, notDrained, budgetsBefore, plan };
}
