/**
 * What the drain engine tells its listeners. Every view (Ink, text lines, `-o json` event lines) is a
 * function of this stream; the engine never formats output itself.
 */

/** Why a budget refused an eviction: the API server's two 429s, told apart by their cause. */
export type BudgetRefusal = 'budget-exhausted' | 'status-not-observed';

export type PodDrainState =
  | { readonly phase: 'queued' }
  | { readonly phase: 'evicting'; readonly attempt: number }
  | {
      readonly phase: 'waiting-for-budget';
      readonly pdb: string;
      /** The API's two 429s: the budget's status not yet observed by the disruption controller, or the budget used up. */
      readonly why: BudgetRefusal | 'unknown';
      readonly disruptionsAllowed: number;
      readonly currentHealthy: number;
      readonly desiredHealthy: number;
      readonly attempts: number;
      /** Epoch milliseconds when the pod started waiting. */
      readonly sinceMs: number;
      /**
       * Set when the disruption controller cannot compute the budget (condition DisruptionAllowed=False, reason
       * SyncFailed): its message, e.g. "jobs.batch does not implement the scale subresource". Such a budget
       * allows no eviction until it is fixed, however long the drain waits.
       */
      readonly controllerError?: string;
      /**
       * What keeps the budget from freeing up, as the cluster shows it (the budget's other pods): a
       * replacement the scheduler cannot place, one not yet scheduled or started, a pod not Ready.
       * Absent until known.
       */
      readonly blockers?: readonly BudgetBlocker[];
    }
  | { readonly phase: 'retrying'; readonly attempts: number; readonly error: string; readonly nextAttemptMs: number }
  | {
      readonly phase: 'terminating';
      /** Epoch milliseconds when the grace period runs out (deletionTimestamp), if known. */
      readonly deadlineMs: number | null;
    }
  | { readonly phase: 'gone'; readonly how: 'evicted' | 'deleted' | 'already-gone' }
  | { readonly phase: 'skipped'; readonly reason: string }
  | { readonly phase: 'failed'; readonly error: string }
  | {
      /**
       * Dry runs only, final. --dry-run=server: whether the API server admits the eviction now (each pod is judged
       * against the unspent budget: a server dry run does not spend it). --dry-run=client: admitted, nothing checked.
       */
      readonly phase: 'dry-run';
      readonly admitted: boolean;
      /** Why, in words: "eviction admitted", "PodDisruptionBudget hello needs 4 healthy pods, has 4"… */
      readonly reason: string;
      /** The budget that refused it, if any. */
      readonly pdb: string | null;
    };

/** A pod of a budget that keeps the budget from allowing an eviction. */
export interface BudgetBlocker {
  /** namespace/name */
  readonly pod: string;
  /**
   * unschedulable: Pending, and the scheduler found no node (the wait will not end by itself); pending:
   * not yet scheduled or not yet started; not-ready: running but not Ready.
   */
  readonly state: 'unschedulable' | 'pending' | 'not-ready';
  /** The scheduler's message (PodScheduled condition, as in the FailedScheduling event), or why not Ready. */
  readonly message: string;
}

export interface PodRef {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly node: string;
}

export type DrainEvent =
  | {
      readonly type: 'started';
      readonly atMs: number;
      readonly nodes: readonly string[];
      readonly pods: readonly PodRef[];
      readonly dryRun: 'none' | 'client' | 'server';
    }
  | {
      readonly type: 'cordoned';
      readonly atMs: number;
      readonly node: string;
      readonly already: boolean;
      readonly dryRun: boolean;
    }
  | { readonly type: 'pod'; readonly atMs: number; readonly pod: PodRef; readonly state: PodDrainState }
  | { readonly type: 'warning'; readonly atMs: number; readonly message: string }
  | {
      readonly type: 'finished';
      readonly atMs: number;
      /** drained: every pod gone; timeout: --timeout ran out; interrupted: Ctrl-C; failed: some pods failed; dry-run. */
      readonly result: 'drained' | 'timeout' | 'interrupted' | 'failed' | 'dry-run';
      readonly gone: readonly PodRef[];
      readonly remaining: readonly PodRef[];
      /** Evicted (or deleted) but not yet confirmed gone: a subset of `remaining`. */
      readonly terminating: readonly PodRef[];
      readonly failed: ReadonlyArray<{ readonly pod: PodRef; readonly error: string }>;
      /** The state the cluster is left in, in words (e.g. "node k8s-node-1 cordoned; 2 pods still on it"). */
      readonly clusterState: string;
      /**
       * Commands to paste, with the user's own flags: `resume` runs the same drain again, `uncordon` gives
       * the cordoned nodes back. Absent from events of older versions.
       */
      readonly commands?: { readonly resume: string; readonly uncordon: string };
    };
