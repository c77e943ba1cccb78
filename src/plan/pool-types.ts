/**
 * The pool plan's output types (`kubectl maint plan NODE…|-l SELECTOR --max-unavailable N|P%`), also the
 * `-o json` / `-o yaml` contract `kind: PoolPlan`: fields may be added, never renamed or removed.
 */
import type { BatchEta, PoolEta } from './pool-eta.js';
import type { DrainPlan, PlanOptions, Verdict } from './types.js';

export interface PoolPlanOptions extends PlanOptions {
  /** How many pool nodes may be out of service at once (already resolved from N or P%), ≥ 1. */
  readonly maxUnavailable: number;
  /** How long the operator's command and the node's return take per batch, in seconds (--command-time): an assumption for the estimates; absent: not counted. */
  readonly commandSeconds?: number | null;
}

export interface PoolBatch {
  /** 1-based, in run order. */
  readonly number: number;
  readonly nodes: readonly string[];
  /** The batch's drain verdict, against the cluster as it will be when the batch starts. */
  readonly verdict: Verdict;
  readonly verdictReasons: readonly string[];
  /** Pods the drain evicts or deletes. */
  readonly evicted: number;
  /** The most eviction waves any budget forces inside the batch (0 when nothing is evicted). */
  readonly waves: number;
  /** Where the placed replacements land: nodes of earlier batches, nodes of later batches (those pods move twice), or outside the pool. */
  readonly replacementsOn: { readonly doneNodes: number; readonly laterNodes: number; readonly outsidePool: number };
  /** How long the batch takes: its drain, the command (as assumed) and its budgets' recovery (pool-eta.ts). */
  readonly eta: BatchEta;
  /** Why the batch has fewer nodes than --max-unavailable allows (absent when it has as many). */
  readonly smaller?: string;
  /** The batch's whole drain plan (the DrainPlan contract). */
  readonly plan: DrainPlan;
}

export interface PoolPlan {
  readonly kind: 'PoolPlan';
  readonly apiVersion: 'maint.kubectl.io/v1alpha1';
  /** The pool, in the order given or listed. */
  readonly nodes: readonly string[];
  readonly maxUnavailable: number;
  /** blocked when any batch is blocked; otherwise the worst batch verdict. */
  readonly verdict: Verdict;
  /** Why, most important first; a blocked run names the batch, the pod and the reason. */
  readonly verdictReasons: readonly string[];
  readonly batches: readonly PoolBatch[];
  /** Pods whose replacement lands on a node of a later batch, so the run moves them twice (namespace/name). */
  readonly movedTwice: readonly string[];
  /** How long the run takes, batch after batch, and what that rests on (the command's time is an assumption). */
  readonly eta: PoolEta;
  readonly caveats: readonly string[];
}
