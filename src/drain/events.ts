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
      /**
       * Set when the budget's status looks stale: the pods it selects have disagreed with it since `sinceMs`
       * (`healthyPods` healthy by the disruption controller's rule, not the status's currentHealthy), longer than
       * the controller takes to catch up. The numbers above are then the last ones written, not facts; the
       * usual cause is a disruption controller (kube-controller-manager) that is down.
       */
      readonly staleStatus?: { readonly healthyPods: number; readonly sinceMs: number };
      /**
       * Other budgets that select the pod too, as the budget watch shows them now (one created or widened
       * during the drain): the Eviction API refuses a pod under more than one budget (HTTP 500), so the wait
       * for this one cannot end in an eviction. Absent when the pod has no other budget.
       */
      readonly otherBudgets?: readonly CoveringBudget[];
    }
  | { readonly phase: 'retrying'; readonly attempts: number; readonly error: string; readonly nextAttemptMs: number }
  | {
      readonly phase: 'terminating';
      /** Epoch milliseconds when the grace period runs out (deletionTimestamp), if known. */
      readonly deadlineMs: number | null;
      /** The pod's finalizers, once seen terminating with some: it cannot disappear until they are removed. */
      readonly finalizers?: readonly string[];
    }
  | {
      readonly phase: 'gone';
      /** escalated: deleted by --escalate-after once its budget had refused it for that long. */
      readonly how: 'evicted' | 'deleted' | 'already-gone' | 'escalated';
    }
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

/** A budget that selects a pod, with its status numbers as last watched (null until the watch reported it). */
export interface CoveringBudget {
  /** namespace/name */
  readonly pdb: string;
  readonly disruptionsAllowed: number | null;
  readonly currentHealthy: number | null;
  readonly desiredHealthy: number | null;
}

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
  | {
      /**
       * Pods found on a drained node that the plan did not show (bound since it read the node): listed again
       * once the node is cordoned, as kubectl lists it, and once the drain's pods are gone. The drain evicts
       * them as the plan would have; each pod's states follow in `pod` events.
       */
      readonly type: 'late-pods';
      readonly atMs: number;
      readonly pods: readonly PodRef[];
    }
  | {
      /** `pod`: the pod whose eviction (or delete) the API server answered with this `Warning:` header. */
      readonly type: 'warning';
      readonly atMs: number;
      readonly message: string;
      readonly pod?: PodRef;
    }
  | {
      /**
       * --escalate-after: the pod's budget has refused it for `refusedForMs`; it is deleted now (its grace
       * period honoured), breaking the budget, because the operator named its namespace.
       */
      readonly type: 'escalating';
      readonly atMs: number;
      readonly pod: PodRef;
      readonly pdb: string;
      readonly refusedForMs: number;
    }
  | {
      /**
       * --surge, one Deployment: scaling-up (record and count patched), ready (the extra replicas are Ready:
       * its pods are evicted now), restored (back to its own count, record removed), not-surged (why not,
       * e.g. an autoscaler owns its count), failed (an API error; the record stays for the next drain).
       */
      readonly type: 'surge';
      readonly atMs: number;
      /** namespace/name */
      readonly deployment: string;
      readonly step: 'scaling-up' | 'ready' | 'restored' | 'not-surged' | 'failed';
      readonly message: string;
      /** The Deployment's own count and the surged count, when known. */
      readonly replicas?: number;
      readonly surgedTo?: number;
    }
  | {
      /** An eviction-order group starts (only when there is more than one): the groups before it are gone. */
      readonly type: 'group';
      readonly atMs: number;
      /** The plan's 1-based group number. */
      readonly index: number;
      /** 1-based position among the groups this drain runs, and how many there are. */
      readonly position: number;
      readonly of: number;
      readonly pods: readonly PodRef[];
    }
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
      /** Deleted by --escalate-after (a subset of `gone`), breaking their budgets. */
      readonly escalated?: readonly PodRef[];
      /**
       * The state the cluster is left in, in words, and the next step (e.g. "node k8s-node-1 cordoned; 1 not
       * evicted; run `kubectl maint drain k8s-node-1` again to finish"): one sentence a log can stand on.
       */
      readonly clusterState: string;
      /** The same state without the next step, for a summary that gives the commands on lines of their own. */
      readonly left?: string;
      /**
       * Commands to paste, with the user's own flags: `resume` runs the same drain again (with the flags the
       * plan says finish it, when it was blocked), `uncordon` gives the cordoned nodes back; `stuck` says
       * why running it again alone does not finish (the plan was blocked and no flag finishes it).
       * The engine always sets them; a reader given an event without them falls back to the commands with no flags.
       */
      readonly commands?: { readonly resume: string; readonly uncordon: string; readonly stuck?: string };
      /**
       * Why the drain did not finish, in one line (the cordon the API server refused, the first pod that failed,
       * the timeout or the signal, with what is left); absent when it finished, or a dry run was fully answered.
       */
      readonly error?: string;
    };
