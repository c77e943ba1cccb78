/**
 * The cluster audit's output types (`kubectl maint audit [-l SELECTOR] [NODE…]`), also the `-o json` /
 * `-o yaml` contract `kind: ClusterAudit`: fields may be added, never renamed or removed.
 */
import type { ReadVerdict, Verdict } from './types.js';

/**
 * Why a workload holds a node back, from the plan's structure:
 * refused: kubectl drain refuses its pod (a DaemonSet pod, emptyDir data, no controller): `flag` lets it go;
 * budget-never-allows: its budget admits no eviction however long one waits (maxUnavailable 0, minAvailable
 * reaching every pod, a budget the disruption controller cannot compute);
 * single-replica: the same, for a budget over a single pod: its only replica must stay up;
 * two-budgets: more than one budget selects the pod, and the Eviction API refuses it;
 * admission-denied: the API server's admission chain (a ValidatingAdmissionPolicy, a webhook) denies the
 * eviction;
 * budget-unhealthy: its budget allows no disruption now and the drain frees none (pods elsewhere not Ready);
 * no-room: a replacement finds no node (blocking the budget's other pods, or leaving replicas down);
 * unknown: whether the pod can go is unknown (the replacement whose Readiness its budget waits on);
 * other: held for a reason none of the above names (`detail` says it).
 */
export type AuditCauseKind =
  | 'refused'
  | 'budget-never-allows'
  | 'single-replica'
  | 'two-budgets'
  | 'admission-denied'
  | 'budget-unhealthy'
  | 'no-room'
  | 'unknown'
  | 'other';

/** blocks: the node's drain cannot finish; disrupts: it finishes with the workload's replicas down. */
export type AuditEffect = 'blocks' | 'disrupts';

/** One reason a workload holds nodes back, merged over the nodes where the plan finds it. */
export interface AuditCause {
  readonly kind: AuditCauseKind;
  readonly effect: AuditEffect;
  /** The nodes it holds, in audit order. */
  readonly nodes: readonly string[];
  /** The workload's pods concerned, as namespace/name. */
  readonly pods: readonly string[];
  /** The budget concerned (namespace/name), or null. */
  readonly budget: string | null;
  /** The drain flag that gets the pods out (--ignore-daemonsets, --force, --surge=NS/NAME…), or null: the owner must change something. */
  readonly flag: string | null;
  /** The fact behind it, as the plan says it: kubectl's refusal, why the budget never allows, the scheduler's message. */
  readonly detail: string;
  /** The way out, in words: the flag and what it costs, or what the workload's owner must change. */
  readonly wayOut: string;
  /** For no-room that disrupts: the replicas are down until the drained node returns, or for good. */
  readonly until?: 'node-returns' | 'for-good';
}

/** A workload (its owner, or a pod no controller owns) holding one or more nodes back. */
export interface AuditWorkload {
  /** `namespace/Kind/name`: what the nodes' `workloads` name. */
  readonly id: string;
  readonly namespace: string;
  /** Deployment (for its ReplicaSets), StatefulSet, DaemonSet, Job…; Pod for a pod no controller owns. */
  readonly kind: string;
  readonly name: string;
  /** The budgets of its pods the causes name (namespace/name). */
  readonly budgets: readonly string[];
  /** The nodes whose drain it blocks. */
  readonly blocks: readonly string[];
  /** The nodes whose drain finishes with its replicas down (and that it does not block). */
  readonly disrupts: readonly string[];
  readonly causes: readonly AuditCause[];
}

/** One node's drain, planned on its own. */
export interface AuditNode {
  readonly name: string;
  /** As `kubectl maint plan NODE` with the same flags says. */
  readonly verdict: Verdict;
  readonly assumedVerdict: ReadVerdict;
  /** The plan's reasons, most important first. */
  readonly verdictReasons: readonly string[];
  /** The pods on the node the drain removes (evicts or deletes). */
  readonly evicted: number;
  /** The workloads holding it back (AuditWorkload ids), most nodes held first. */
  readonly workloads: readonly string[];
}

export interface ClusterAudit {
  readonly kind: 'ClusterAudit';
  readonly apiVersion: 'maint.kubectl.io/v1alpha1';
  /** The worst of the nodes' verdicts (blocked, disruptive, incomplete, slow, clear). */
  readonly verdict: Verdict;
  /** The worst of the nodes' verdicts from what was read (the exit code under --allow-incomplete). */
  readonly assumedVerdict: ReadVerdict;
  /** Why, most important first: the count of each verdict, then the workloads that hold most nodes. */
  readonly verdictReasons: readonly string[];
  /** How many nodes have each verdict. */
  readonly verdicts: Readonly<Record<Verdict, number>>;
  /** Every node audited, in the order given or listed. */
  readonly nodes: readonly AuditNode[];
  /** The workloads holding nodes back, those that block most nodes first (then disrupt most). */
  readonly workloads: readonly AuditWorkload[];
}
