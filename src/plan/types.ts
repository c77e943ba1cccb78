/**
 * The plan's output types. `DrainPlan` is also the `-o json` / `-o yaml` contract: fields may be added,
 * never renamed or removed.
 */

import type { BudgetKey } from './budgets.js';
import type { DrainFilterOptions } from './drain-filters/chain.js';

/** What `kubectl drain` would do with a pod (the filter chain's verdict). */
export type DrainAction = 'evict' | 'skip' | 'delete' | 'refuse';
/** For evicted pods: admitted at once, after waiting for its budget, or never. */
export type EvictOutcome = 'immediate' | 'waits' | 'blocked';
/**
 * clear: every pod can go now; slow: some wait for their budget; blocked: the drain cannot finish, or may
 * not (a pod's budget waits for a replacement whose fate is unknown: `outcomeUnknown`);
 * disruptive: the drain finishes but leaves a workload with replicas down (a removed pod's replacement
 * finds no node: `outages` says which, how many and until when); incomplete: the plan could not read a
 * kind it needs (budgets, owners, pods — absent from the snapshot file or forbidden to the user) and would
 * otherwise say clear or slow: what it did not read could hold the drain back, so it does not call the
 * drain clear. From most to least severe: blocked, disruptive, incomplete, slow, clear (a blocked drain
 * stays blocked; an outage found in what was read stands whatever was not read). Exit codes: 0 clear or
 * slow, 3 blocked, 4 incomplete (the exit code of `assumedVerdict` with --allow-incomplete), 5 disruptive.
 */
export type Verdict = 'clear' | 'slow' | 'blocked' | 'disruptive' | 'incomplete';
/** The verdict from what was read alone. */
export type ReadVerdict = Exclude<Verdict, 'incomplete'>;

/**
 * What a drain is asked to do (kubectl's pod-handling options in `DrainFilterOptions`, the strategies) and
 * the comparisons' settings, as plan, drain and run read them, whatever the command line calls them:
 * mapped from the flags in cli/drain-flags.ts alone.
 */
export interface DrainOptions extends DrainFilterOptions {
  /** The NoExecute taint compared with the drain (--taint KEY[=VALUE]). */
  readonly taint: { readonly key: string; readonly value?: string | undefined };
  /** kube-controller-manager --node-monitor-grace-period, seconds (default 50). */
  readonly nodeMonitorGracePeriodSeconds: number;
  /**
   * How pods are ordered into groups that leave one after another: by their maint.kubectl.io/drain-order
   * annotation (the default; no annotation anywhere = one group, kubectl's all at once) or, with
   * `--order priority`, by pod priority, lowest first.
   */
  readonly orderBy?: 'annotation' | 'priority' | undefined;
  /** --escalate-after / --escalate-namespace: pods of these namespaces still refused after this long are deleted. */
  readonly escalation?: { readonly afterSeconds: number; readonly namespaces: readonly string[] } | undefined;
  /** --surge (all Deployments) or --surge=NS/NAME,… (these): Deployments whose budget-locked pods are surged. */
  readonly surge?: { readonly all: boolean; readonly deployments: readonly string[] } | undefined;
}

/** A plan's input: the drain's options, the nodes drained together, and the time. */
export interface PlanOptions extends DrainOptions {
  /** Node names drained together (already resolved from NODE… or -l). */
  readonly nodes: readonly string[];
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
  /**
   * Nodes that would accept the replacement (after earlier replacements took their room). On a cluster
   * of 100 nodes or more, only those found before the search stopped, as kube-scheduler stops once it
   * has found enough (`nodesChecked` is then set): 500 of 5,000 nodes, for instance.
   */
  readonly nodes: readonly string[];
  /** The node the simulation placed it on (null when unschedulable). */
  readonly placedOn: string | null;
  /**
   * Other nodes whose weighted scores equal `placedOn`'s: kube-scheduler picks one of them at random, so the
   * replacement may run on any of them. Absent when the scores single out one node.
   */
  readonly tiedWith?: readonly string[];
  /**
   * Per rejected node, why (of the nodes checked). In the plans the audit reduces to findings, empty for a
   * replacement that found a node (see RejectedNodes).
   */
  readonly rejected: readonly NodeRejection[];
  /**
   * How many nodes the search filtered, when it stopped before checking them all because it had found
   * `numFeasibleNodesToFind` feasible ones (kube-scheduler's percentageOfNodesToScore); absent when it
   * checked every node.
   */
  readonly nodesChecked?: number;
  /** One line in the scheduler's FailedScheduling style: "0/3 nodes are available: 1 node(s) were unschedulable, …". */
  readonly message: string;
  /**
   * True when the replacement fits only once the evicted pods have terminated (their required
   * anti-affinity still holds their domain while they terminate): it waits, it is not stuck.
   */
  readonly waitsForTermination?: boolean;
  /**
   * True for a pod whose eviction is blocked (two budgets, a budget that never allows, a node held by a
   * refused pod): where its replacement would go once the block is lifted, after every admitted eviction.
   */
  readonly whenUnblocked?: boolean;
  /**
   * For a replacement that finds no node, the drained nodes its volumes allow when they narrow where it
   * may run (a local PersistentVolume pinned to the drained node, a zonal disk whose zone has no other
   * node with room): it has no node until one of them returns. Absent otherwise.
   */
  readonly untilNodeReturns?: readonly string[];
  /**
   * Why where the replacement runs cannot be told (a kind of storage object the plan could not read, a
   * volume a driver provisions without publishing its capacity): `placedOn` is then null, and the plan
   * says "unknown" rather than name a node. Absent when the answer is known.
   */
  readonly unknown?: string;
  /**
   * Set when the replacement fits nowhere as the cluster is, and kube-scheduler's DefaultPreemption makes
   * room for it by deleting lower-priority pods: the node it is nominated to (`placedOn`) and the victims.
   */
  readonly preemption?: PreemptionPlan;
}

/** What DefaultPreemption deletes to make room for a replacement. */
export interface PreemptionPlan {
  /** The node the replacement is nominated to and runs on once the victims are gone. */
  readonly node: string;
  /** The pods deleted (not evicted: no budget is asked), most important first. */
  readonly victims: readonly PreemptionVictim[];
  /** Budgets the deletions take below zero disruptions allowed. */
  readonly budgetsBroken: readonly BudgetKey[];
  /**
   * Other nodes that upstream's criteria rank exactly as `node`: kube-scheduler picks one of them at
   * random, so the node and the victims may be theirs instead. Empty when the choice is certain.
   */
  readonly tiedWith: readonly string[];
  /**
   * Budgets of lower-priority pods on `node` that the preemption leaves because deleting them would break
   * the budget as the drain's evictions left it; set only when there are some. While those evictions are
   * not all admitted yet, the budget has room, and such a pod may be the victim instead.
   */
  readonly budgetsSpared?: readonly BudgetKey[];
}

export interface PreemptionVictim {
  readonly namespace: string;
  readonly name: string;
  readonly node: string;
  readonly priority: number;
  /** Budgets selecting it that its deletion breaks. */
  readonly budgetsBroken: readonly BudgetKey[];
  /** The controller that recreates it; null when nothing does (it is deleted for good). */
  readonly controller: { readonly kind: string; readonly name: string } | null;
  /**
   * Where its own replacement goes, placed after the replacements of the wave that preempts it (it may
   * preempt in turn); null when nothing recreates it.
   */
  readonly replacement: ReplacementPlan | null;
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
  /** A refused pod: the flag kubectl names to drain it anyway (`--force`…); absent when no flag does. */
  readonly override?: string;
  /** null unless action is evict (or delete, under --disable-eviction: always immediate). */
  readonly outcome: EvictOutcome | null;
  /** Why the outcome, in words. */
  readonly outcomeReason: string;
  /** 1-based wave in which the eviction (or delete) is admitted (null when not evicted or blocked). */
  readonly wave: number | null;
  /**
   * Set when whether its budget lets it go is unknown: an earlier wave left a replacement whose fate the
   * plan cannot tell (`replacement.unknown`), and the budget lets this pod go only if that one is Ready
   * (or, where the plan finds it no node and the pod goes, would not should that one never be). Not set
   * when the budget lets it go either way. Set too when whether the admission chain admits its eviction
   * is unknown: a policy the plan cannot judge, or a webhook whose answer it cannot tell (the webhook's
   * `text`). `outcome` and `wave` are then the plan's answer, not a certainty.
   */
  readonly outcomeUnknown?: string;
  /**
   * Set instead of `outcomeUnknown` when the budget lets it go either way, but that replacement decides in
   * which wave: `wave` is then the plan's answer, not a certainty. The same text.
   */
  readonly waveUnknown?: string;
  /** The controller that recreates the pod, if any. */
  readonly controller: { readonly kind: string; readonly name: string } | null;
  readonly pdbs: readonly PdbRef[];
  /**
   * Judged for every pod a controller recreates, evicted or blocked (then `whenUnblocked`); null only when
   * nothing recreates the pod, or when it is not removed (skipped, refused), finished or already terminating.
   */
  readonly replacement: ReplacementPlan | null;
  readonly noExecute: { readonly afterSeconds: number | null; readonly reason: string };
  readonly nodeFailure: { readonly afterSeconds: number | null; readonly reason: string };
  /** 1-based eviction-order group the pod leaves in (DrainPlan.order); null when not evicted or deleted. */
  readonly orderGroup?: number | null;
  /** When the drain would evict it and have it gone, in seconds from the first eviction (eta.ts); null when not removed or blocked. */
  readonly eta?: PodEtaPlan | null;
  /** --escalate-after: when and why the drain would delete this pod its budget keeps refusing. */
  readonly escalation?: {
    readonly afterSeconds: number;
    readonly when: 'certain' | 'if-late';
    readonly text: string;
  };
  /**
   * The pod asked autoscalers not to disrupt it (cluster-autoscaler.kubernetes.io/safe-to-evict: "false",
   * karpenter.sh/do-not-disrupt: "true"): kubectl drain, and so the drain, removes it anyway. Only on pods
   * the drain removes (evict, delete); absent otherwise.
   */
  readonly disruptionOptOut?: {
    /** The annotations, as `key: "value"`. */
    readonly annotations: readonly string[];
    readonly text: string;
  };
  /** The admission chain's answer to the drain's request for this pod; absent when nothing in it concerns the pod. */
  readonly admission?: PodAdmissionPlan;
  /** plan --ask-server: what the API server answered a dry run of this pod's eviction, beside the plan's prediction. */
  readonly serverDryRun?: ServerDryRunAnswer;
  /** --surge: whether the drain surges this pod's Deployment (from → to replicas) or why not. */
  readonly surge?: {
    readonly surged: boolean;
    readonly deployment: string | null;
    readonly fromReplicas?: number;
    readonly toReplicas?: number;
    readonly text: string;
  };
}

/**
 * What the API server's admission chain does with the drain's request for a pod (its eviction, or its
 * delete under --disable-eviction): the ValidatingAdmissionPolicies judged as the API server judges them,
 * and the webhooks that decide. Absent on a pod whose request nothing in the chain concerns.
 */
export interface PodAdmissionPlan {
  /** The request judged: "CREATE pods/eviction", or "DELETE pods" under --disable-eviction. */
  readonly request: string;
  /** The denial, as the API server reports it (the chain stops there); absent when nothing denies. */
  readonly denied?: AdmissionDenial;
  /**
   * The other policies' denials of the same request, when several deny: the API server reports one of them,
   * the first in the order its policy cache holds them, which follows no name, so any may be the one.
   */
  readonly deniedAlso?: readonly AdmissionDenial[];
  /**
   * Where a validating webhook's denial ends the chain: the other validating webhooks of the request that
   * answer 429 first (an operator moving the pod). The API server calls validating webhooks in parallel and
   * reports the first refusal to arrive, so the drain may retry on their 429s, until they stop, before it
   * meets the denial.
   */
  readonly waitsFirst?: readonly string[];
  /** The warnings the API server sends back (a binding's Warn action), in its words. */
  readonly warnings: readonly string[];
  /** Policies whose answer the plan cannot tell, and why (the request is then not called admitted). */
  readonly unknown: readonly AdmissionUnknown[];
  /**
   * The bindings met (`policy/binding`) whose params the API server reads from its informer of a built-in
   * kind (a ConfigMap…), which stops for good once no binding uses that kind: a caveat on the pod.
   */
  readonly cachedParams?: readonly string[];
  /**
   * For a denied eviction: what --disable-eviction's DELETE of the pod would meet instead, judged by the
   * same policies (`admitted` null when unknown).
   */
  readonly deleteInstead?: { readonly admitted: boolean | null; readonly text: string };
  /** The admission webhooks the request meets, mutating ones first, each with what it is known to answer. */
  readonly webhooks?: readonly AdmissionWebhookPlan[];
}

/** An admission webhook that decides the drain's request for a pod. */
export interface AdmissionWebhookPlan {
  readonly kind: 'ValidatingWebhookConfiguration' | 'MutatingWebhookConfiguration';
  /** The configuration's name. */
  readonly configuration: string;
  /** The webhook's name, as the API server names it in its errors. */
  readonly name: string;
  readonly failurePolicy: 'Fail' | 'Ignore';
  readonly timeoutSeconds: number;
  /** None, NoneOnDryRun, or Some/Unknown (the API server then refuses any dry run it meets). */
  readonly sideEffects: string;
  /** Set when whether it is called at all cannot be told (a selector or matchCondition the plan cannot judge). */
  readonly matchUnknown?: string;
  /**
   * What it answers: admit, wait (429 until its operator has moved the pod), deny, or unknown (a webhook
   * whose behaviour the plan does not know).
   */
  readonly answer: 'admit' | 'wait' | 'deny' | 'unknown';
  /** The HTTP status of a refusal (wait, deny). */
  readonly code?: number;
  /** The webhook's message with a refusal, as the client sees it after `admission webhook "W" denied the request: `. */
  readonly message?: string;
  /** The operator recognised by the webhook (KubeVirt, Strimzi, GCS FUSE CSI driver). */
  readonly operator?: string;
  /** The webhook, its failurePolicy and timeout, and its answer, in words. */
  readonly text: string;
}

/**
 * The API server's answer to a request-level dry run of a pod's eviction (`?dryRun=All`: admission and the
 * budget run, nothing is written), beside the plan's own prediction. A dry run does not spend the budget,
 * so two in a row can both be admitted where the budget allows one: the plan's waves still decide.
 */
export interface ServerDryRunAnswer {
  /**
   * admitted (2xx), budget (a budget's 429), waits (another 429: a webhook), refused (any other refusal),
   * no-dry-run (a webhook whose sideEffects are Some or Unknown made the API server refuse the dry run:
   * `webhook`), error (not asked).
   */
  readonly answer: 'admitted' | 'budget' | 'waits' | 'refused' | 'no-dry-run' | 'error';
  /** The HTTP status; null when the request did not reach the API server. */
  readonly code: number | null;
  /** The API server's message (empty when admitted). */
  readonly message: string;
  /** The API server's `Warning:` headers on its answer, as kubectl prints them after `Warning: `. */
  readonly warnings?: readonly string[];
  /** no-dry-run: the webhook that makes the API server refuse dry runs. */
  readonly webhook?: string;
  /** Whether the plan's prediction agrees; where it does not, the answer wins and the plan says so. */
  readonly agrees: boolean;
  readonly text: string;
}

export interface AdmissionDenial {
  readonly by: 'ValidatingAdmissionPolicy' | 'MutatingWebhookConfiguration' | 'ValidatingWebhookConfiguration';
  /** The policy's name, or the webhook's. */
  readonly name: string;
  /** The binding's name (null for a webhook, or a policy that failed to configure). */
  readonly binding: string | null;
  /** The validation's message (or the error that failurePolicy Fail turned into a denial). */
  readonly message: string;
  /** The HTTP status the client gets: a policy's 422 (Invalid), 403, 401 or 413; a webhook's own. */
  readonly code: number;
  /**
   * The error as the client prints it: `pods "NAME" is forbidden: ValidatingAdmissionPolicy 'P' with
   * binding 'B' denied request: MSG`, or `admission webhook "W" denied the request: MSG`.
   */
  readonly text: string;
}

export interface AdmissionUnknown {
  readonly policy: string;
  readonly binding: string | null;
  readonly why: string;
}

export interface PodEtaPlan {
  readonly evictedAfterSeconds: number;
  readonly goneAfterSeconds: number;
  readonly graceSeconds: number;
  /** Its replacement's expected start-to-Ready time; null when nothing recreates it. */
  readonly replacementReadySeconds: number | null;
  /** What the numbers rest on, in words. */
  readonly basis: string;
}

/** One wave of a drain's estimate: when its evictions are admitted and when the next wave may start. */
export interface WaveEta {
  readonly wave: number;
  /** The eviction-order group it belongs to. */
  readonly group: number;
  /** Seconds after the first eviction when this wave's evictions are admitted. */
  readonly startsAfterSeconds: number;
  /** How long until the next wave may start: its replacements Ready (budget freed), or its pods gone at a group's end. */
  readonly freesAfterSeconds: number;
  readonly pods: readonly string[];
  /** What the wave's time rests on, in words. */
  readonly basis: string;
}

/**
 * A pod no wave admits that a strategy takes out, as a step of the estimate beside the waves: --surge
 * scales its Deployment up when its eviction-order group starts and evicts it once the extra replica is
 * Ready; --escalate-after deletes it once its budget has refused it for that long.
 */
export interface StrategyStepEta {
  readonly strategy: 'surge' | 'escalate-after';
  /** namespace/name */
  readonly pod: string;
  /** The eviction-order group it belongs to. */
  readonly group: number;
  /** Seconds after the first eviction when the strategy starts (its group's start). */
  readonly startsAfterSeconds: number;
  /** When the pod is evicted (after a surge) or deleted (an escalation). */
  readonly removedAfterSeconds: number;
  /** When it is gone: removed plus its terminationGracePeriodSeconds. */
  readonly goneAfterSeconds: number;
  /** What the step's time rests on, in words. */
  readonly basis: string;
}

export interface DrainEtaPlan {
  /** Seconds from the first eviction until the last pod is gone; null when the drain cannot finish. */
  readonly totalSeconds: number | null;
  readonly waves: readonly WaveEta[];
  /** The strategies' steps (--surge, --escalate-after), when the drain has any. */
  readonly steps?: readonly StrategyStepEta[];
  /** What the total rests on (the workloads' observed start-to-Ready times, probes), one line each. */
  readonly basis: readonly string[];
  /**
   * The pods whose time the estimate cannot count: an operator's admission webhook takes their eviction
   * over (429 until it has moved the pod, as KubeVirt's live migration), or a webhook whose answer the
   * plan cannot tell decides it: the total is then at least.
   */
  readonly uncounted?: UncountedEta;
}

export interface UncountedEta {
  /** namespace/name */
  readonly pods: readonly string[];
  /** The webhooks that decide their time (429 until their operator has moved the pod, or unknown), each once. */
  readonly webhooks: readonly string[];
  readonly text: string;
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
  /**
   * Set when some of its pods' `outcomeUnknown` or `waveUnknown` is (the same text): `waves` (and whether
   * they come at all) is then the plan's answer, not a certainty.
   */
  readonly unknown?: string;
}

export interface NoExecuteBudgetBreach {
  readonly namespace: string;
  readonly name: string;
  /** Pods of this budget the taint deletes while the budget would refuse their eviction. */
  readonly pods: readonly string[];
  readonly disruptionsAllowed: number;
}

/** A kind the plan needs and could not read, and what that may hide. */
export interface UnreadKind {
  /** "PodDisruptionBudget", "ReplicaSet", "Pod"… */
  readonly kind: string;
  /** Why it was not read: absent from the snapshot file, or the API server's refusal. */
  readonly why: string;
  /** What the plan assumed instead, and what that may hide. */
  readonly effect: string;
  /** The drained pods whose fate it may change, as namespace/name (empty: the whole plan). */
  readonly pods: readonly string[];
}

/** Something the drain destroys for good, named before anything else. */
export interface PlanWarning {
  /**
   * PodsNotRecreated: removed pods no controller recreates (--force on unmanaged pods, an owner that is
   * gone); EmptyDirDataLost: removed pods whose emptyDir data is deleted (--delete-emptydir-data).
   */
  readonly reason: 'PodsNotRecreated' | 'EmptyDirDataLost';
  /** One line with the count, e.g. "3 pods are deleted for good: no controller recreates them (--force)". */
  readonly message: string;
  /** The pods concerned, as namespace/name. */
  readonly pods: readonly string[];
}

/**
 * A workload the drain leaves short of replicas: pods it removes whose replacement no node takes. One
 * entry per workload and per how long (outages.ts).
 */
export interface WorkloadOutage {
  /** The controller that recreates the pods: Deployment (for its ReplicaSet), StatefulSet, Job… */
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  /** Its replicas in the snapshot (pods not finished nor terminating), the drained ones included. */
  readonly replicas: number;
  /** The drained pods whose replacement finds no node, as namespace/name: that many replicas are down. */
  readonly pods: readonly string[];
  /**
   * node-returns: the replacements fit once the drained nodes in `returnsOn` are back in service;
   * for-good: no node takes them even then.
   */
  readonly until: 'node-returns' | 'for-good';
  /** The drained nodes the replacements fit on once they return (empty when for good). */
  readonly returnsOn: readonly string[];
  /** The scheduler-style message for the first pod's replacement ("0/3 nodes are available: …"). */
  readonly message: string;
  /**
   * Set when whether some of these replacements find a node is unknown (their `replacement.unknown`, e.g.
   * the order in which the scheduler meets the wave's evictions decides): up to `pods.length` replicas are down.
   */
  readonly unknown?: string;
}

/** A caveat of this plan and the pods it concerns. */
export interface CaveatScope {
  /** The caveat's text, as in `caveats`. */
  readonly caveat: string;
  /** The drained pods it concerns, as namespace/name (empty: the whole plan). */
  readonly pods: readonly string[];
  /** The caveat without the pods it names (absent: `caveat` names none). */
  readonly rule?: string;
}

export interface DrainPlan {
  readonly kind: 'DrainPlan';
  readonly apiVersion: 'maint.kubectl.io/v1alpha1';
  readonly nodes: readonly string[];
  readonly verdict: Verdict;
  /**
   * The verdict from what was read alone: equal to `verdict`, except that an incomplete plan says here
   * whether it would have been clear or slow (the exit code under --allow-incomplete).
   */
  readonly assumedVerdict: ReadVerdict;
  /** Why the verdict, one line each, most important first. */
  readonly verdictReasons: readonly string[];
  /**
   * Workloads left with replicas down: removed pods whose replacement finds no node (empty when none).
   * Non-empty makes a drain that finishes `disruptive`; a blocked drain lists them too.
   */
  readonly outages?: readonly WorkloadOutage[];
  /**
   * Strategies not chosen that would let pods their budget blocks go: `surge`, the Deployments (namespace/name)
   * --surge would surge; `escalate`, the namespaces of budget-blocked pods --escalate-after with
   * --escalate-namespace could delete past their budget. Empty lists when nothing is blocked by a budget
   * or the strategy was chosen.
   */
  readonly waysOut?: { readonly surge: readonly string[]; readonly escalate: readonly string[] };
  /** The drained nodes cordoned before the plan (spec.unschedulable): someone took them out of service already. */
  readonly alreadyCordoned?: readonly string[];
  /**
   * The Kubernetes version whose scheduler and API the plan models (plan/kube-version.ts): `server`, the
   * server's gitVersion as read or recorded (null when the snapshot does not say); `modelled`, "1.34.4",
   * or the minor alone ("1.37") when it is assumed; `notServed`, the kinds the server does not serve (read
   * as having no objects: DRA on a server without resource.k8s.io), when there are any.
   */
  readonly kubernetes?: {
    readonly server: string | null;
    readonly modelled: string;
    readonly notServed?: readonly string[];
  };
  /** Pods deleted for good and data lost, one entry each (empty when the drain destroys nothing). */
  readonly warnings: readonly PlanWarning[];
  /** Kinds the plan needs and could not read (empty when it read all it needs). */
  readonly unread: readonly UnreadKind[];
  readonly pods: readonly PodPlan[];
  readonly budgets: readonly BudgetPlan[];
  readonly noExecute: {
    readonly taint: string;
    readonly budgetsBroken: readonly NoExecuteBudgetBreach[];
  };
  readonly nodeFailure: { readonly nodeMonitorGracePeriodSeconds: number };
  /**
   * What the plan does not model and what the snapshot lacked — only the caveats that can apply to this
   * plan (a rule about claims only when a drained pod has one), each naming the pods it concerns when it
   * does not concern them all. The full list is in the README.
   */
  readonly caveats: readonly string[];
  /** The same caveats with the pods each concerns, as data. */
  readonly caveatScopes: readonly CaveatScope[];
  /** How long the drain takes, per wave and in total, with its basis (eta.ts). */
  readonly eta?: DrainEtaPlan;
  /**
   * The groups pods leave in, one after another, each gone before the next starts (eviction-order.ts).
   * `by: 'none'` with one group is kubectl's all at once.
   */
  readonly order?: {
    readonly by: 'annotation' | 'priority' | 'none';
    readonly groups: ReadonlyArray<{ readonly index: number; readonly key: number; readonly pods: readonly string[] }>;
  };
}
