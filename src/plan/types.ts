/**
 * The plan's output types. `DrainPlan` is also the `-o json` / `-o yaml` contract: fields may be added,
 * never renamed or removed.
 */

/** What `kubectl drain` would do with a pod (the filter chain's verdict). */
export type DrainAction = 'evict' | 'skip' | 'delete' | 'refuse';
/** For evicted pods: admitted at once, after waiting for its budget, or never. */
export type EvictOutcome = 'immediate' | 'waits' | 'blocked';
export type Verdict = 'clear' | 'slow' | 'blocked';

export interface PlanOptions {
  /** Node names drained together (already resolved from NODE… or -l). */
  readonly nodes: readonly string[];
  readonly ignoreDaemonSets: boolean;
  readonly deleteEmptyDirData: boolean;
  readonly force: boolean;
  /** kubectl drain --pod-selector: only pods matching this label selector are drained. */
  readonly podSelector?: string | undefined;
  /** kubectl drain --disable-eviction: pods are deleted, bypassing budgets. */
  readonly disableEviction: boolean;
  /** kubectl drain --skip-wait-for-delete-timeout, seconds (0 = off). */
  readonly skipWaitForDeleteTimeoutSeconds: number;
  /** The NoExecute taint compared with the drain (--taint KEY[=VALUE]). */
  readonly taint: { readonly key: string; readonly value?: string | undefined };
  /** kube-controller-manager --node-monitor-grace-period, seconds (default 50). */
  readonly nodeMonitorGracePeriodSeconds: number;
  /**
   * "Now", in epoch seconds, for rules that compare with timestamps (skip-wait-for-delete-timeout).
   * Passed in because plan/ reads no clock.
   */
  readonly nowEpochSeconds: number;
}

export interface PdbRef {
  readonly namespace: string;
  readonly name: string;
  readonly disruptionsAllowed: number;
}

export interface NodeRejection {
  readonly node: string;
  /** The scheduler's own wording, e.g. "node(s) didn't match pod topology spread constraints". */
  readonly reasons: readonly string[];
}

export interface ReplacementPlan {
  /** True when some node outside the drained set passes every modelled filter. */
  readonly schedulable: boolean;
  /** Nodes that would accept the replacement (after earlier replacements took their room). */
  readonly nodes: readonly string[];
  /** The node the simulation placed it on (null when unschedulable). */
  readonly placedOn: string | null;
  /** Per rejected node, why. */
  readonly rejected: readonly NodeRejection[];
  /** One line in the scheduler's FailedScheduling style: "0/3 nodes are available: 1 node(s) were unschedulable, …". */
  readonly message: string;
  /**
   * True when the replacement fits only once the evicted pods have terminated (their required
   * anti-affinity still holds their domain while they terminate): it waits, it is not stuck.
   */
  readonly waitsForTermination?: boolean;
}

export interface PodPlan {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly node: string;
  readonly action: DrainAction;
  /** kubectl's reason, e.g. "DaemonSet-managed Pods (use --ignore-daemonsets to ignore)". Empty for a plain eviction. */
  readonly reason: string;
  /** Which rule decided the action (e.g. "daemonSetFilter"). */
  readonly filter: string;
  /** null unless action is evict (or delete, under --disable-eviction: always immediate). */
  readonly outcome: EvictOutcome | null;
  /** Why the outcome, in words. */
  readonly outcomeReason: string;
  /** 1-based wave in which the eviction (or delete) is admitted (null when not evicted or blocked). */
  readonly wave: number | null;
  /** The controller that recreates the pod, if any. */
  readonly controller: { readonly kind: string; readonly name: string } | null;
  readonly pdbs: readonly PdbRef[];
  /** null when nothing recreates the pod. */
  readonly replacement: ReplacementPlan | null;
  readonly noExecute: { readonly afterSeconds: number | null; readonly reason: string };
  readonly nodeFailure: { readonly afterSeconds: number | null; readonly reason: string };
}

export interface BudgetPlan {
  readonly namespace: string;
  readonly name: string;
  readonly disruptionsAllowed: number;
  readonly currentHealthy: number;
  readonly desiredHealthy: number;
  readonly expectedPods: number;
  /** status.observedGeneration behind metadata.generation: the API refuses evictions until it catches up. */
  readonly stale: boolean;
  readonly unhealthyPodEvictionPolicy: 'IfHealthyBudget' | 'AlwaysAllow';
  /** Why this budget can never allow an eviction (maxUnavailable 0, minAvailable 100 %…), or null. */
  readonly neverAllows: string | null;
  /** Pods of this budget on the drained nodes, as namespace/name. */
  readonly drainedPods: readonly string[];
  /** How many of them go at once, and how many rounds the drain needs. */
  readonly perWave: number;
  readonly waves: number;
}

export interface NoExecuteBudgetBreach {
  readonly namespace: string;
  readonly name: string;
  /** Pods of this budget the taint deletes while the budget would refuse their eviction. */
  readonly pods: readonly string[];
  readonly disruptionsAllowed: number;
}

export interface DrainPlan {
  readonly kind: 'DrainPlan';
  readonly apiVersion: 'maint.kubectl.io/v1alpha1';
  readonly nodes: readonly string[];
  readonly verdict: Verdict;
  /** Why the verdict, one line each, most important first. */
  readonly verdictReasons: readonly string[];
  readonly pods: readonly PodPlan[];
  readonly budgets: readonly BudgetPlan[];
  readonly noExecute: {
    readonly taint: string;
    readonly budgetsBroken: readonly NoExecuteBudgetBreach[];
  };
  readonly nodeFailure: { readonly nodeMonitorGracePeriodSeconds: number };
  /** What the plan does not model, and what the snapshot lacked. */
  readonly caveats: readonly string[];
}
