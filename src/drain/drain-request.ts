import type { DrainApi } from '../kube/drain-api.js';
import type { Clock } from './clock.js';
import type { EscalationRequest } from './escalation-deadline.js';
import type { DrainEvent } from './events.js';
import type { NextCommands } from './summary.js';
import type { SurgeRequest } from './surge.js';
import type { ClassifyLatePods } from './late-pods.js';
import type { DrainTarget, SkippedPod } from './targets.js';

/** What a drain is asked to do: the plan's work and the flags that shape it. */
export interface DrainRequest {
  readonly nodes: readonly string[];
  readonly targets: readonly DrainTarget[];
  readonly skipped: readonly SkippedPod[];
  /** --grace-period: seconds, or -1 for each pod's own terminationGracePeriodSeconds. */
  readonly gracePeriodSeconds: number;
  /** --timeout in milliseconds, bounding the whole drain; 0 = no limit. */
  readonly timeoutMs: number;
  /** --concurrency: pods evicting or terminating at once; 0 = no limit. */
  readonly concurrency: number;
  readonly dryRun: 'none' | 'client' | 'server';
  /** --skip-wait-for-delete-timeout, seconds; 0 = off. */
  readonly skipWaitForDeleteTimeoutSeconds: number;
  /** Nodes already unschedulable, as the snapshot saw them (client dry run reports "already cordoned" from it). */
  readonly alreadyCordoned?: ReadonlySet<string> | undefined;
  /**
   * --escalate-after / --escalate-namespace: a pod of these namespaces that its budget still refuses
   * `afterMs` after the first refusal is deleted instead (its grace period honoured), loudly. No other pod.
   */
  readonly escalation?: EscalationRequest | undefined;
  /** --surge: the Deployments to surge before their pods' evictions, and those an interrupted drain left surged. */
  readonly surge?: SurgeRequest | undefined;
  /**
   * Aborting stops the drain: no new eviction is sent, the node stays cordoned, `finished` says what remains.
   * A string reason (`abort('SIGTERM')`) names what interrupted it.
   */
  readonly signal?: AbortSignal | undefined;
  /** The resume and uncordon commands to suggest, with the user's own flags. */
  readonly commands?: NextCommands | undefined;
  /**
   * How a pod found on a drained node after the plan read it is treated (drain/late-pods.ts): the nodes'
   * pods are listed once they are cordoned, as kubectl lists them, and again once the drain's pods are
   * gone. Absent: the plan's pods only.
   */
  readonly classifyLate?: ClassifyLatePods | undefined;
}

export interface DrainDeps {
  readonly api: DrainApi;
  readonly emit: (event: DrainEvent) => void;
  readonly clock?: Clock | undefined;
  /** Transient failures in a row before a pod fails (default 10: about a minute and a half of retries). */
  readonly maxFailures?: number | undefined;
}
