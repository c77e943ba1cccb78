import type { ApiOutcome } from '../kube/api-outcome.js';
import type { ApiStatus } from '../kube/api-status.js';
import { coveringBudgetText } from './budget-coverage.js';
import type { BudgetRefusal, CoveringBudget } from './events.js';

/** What to do after one eviction (or delete) request, decided from the API server's answer alone. */
export type EvictionStep =
  /** 2xx: the API server admitted it; the pod is being deleted (or would be, in a server dry run). */
  | { readonly kind: 'admitted' }
  /** 404, or a UID precondition that no longer matches: the pod we meant no longer exists. */
  | { readonly kind: 'gone'; readonly detail: string }
  /** 429 from a PodDisruptionBudget: wait for its status to change, then ask again. */
  | {
      readonly kind: 'budget';
      readonly why: BudgetRefusal;
      readonly pdb: string;
      /** From the cause "needs N healthy pods and has M currently" (budget-exhausted only). */
      readonly desiredHealthy: number | null;
      readonly currentHealthy: number | null;
      readonly message: string;
    }
  /**
   * Worth asking again after a delay: network error, 5xx, throttling, terminating namespace, conflict, an
   * admission webhook's 429. `patient`: a refusal that is the answer, not a failure (a webhook whose operator
   * moves the pod first): it does not count towards the pod's limit of failures, the drain's timeout bounds it.
   */
  | {
      readonly kind: 'retry';
      readonly error: string;
      readonly retryAfterMs: number | null;
      readonly patient?: boolean;
    }
  /** Asking again will not help: forbidden, more than one budget, invalid request. */
  | { readonly kind: 'fail'; readonly error: string };

export interface EvictionCall {
  readonly namespace: string;
  readonly name: string;
  /** kubectl's words for the request, for error messages: create pods/eviction, or delete pods. */
  readonly verb: 'create' | 'delete';
  readonly resource: 'pods/eviction' | 'pods';
  /**
   * The budgets that select the pod (the plan's, and any the budget watch has seen since), with their
   * numbers: named, each with its state, when the API refuses the pod for having several.
   */
  readonly budgets: readonly CoveringBudget[];
}

// The cause messages of the eviction handler's 429s (pkg/registry/core/pod/storage/eviction.go). Every one
// starts with the budget's name; only "needs N … has M" carries numbers. Kubernetes 1.37 adds "does not allow
// evicting pods currently" (a concurrent eviction spent the budget while this one retried its update).
const BUDGET_NAME = /^The disruption budget (\S+)/;
const EXHAUSTED = /needs (\d+) healthy pods and has (\d+) currently/;
const NOT_OBSERVED = /is still being processed by the server/;
const MULTIPLE_PDBS = /more than one PodDisruptionBudget/;
// The answer to a UID precondition that fails (eviction: "the UID in the precondition (…) does not match the
// UID in record (…)"; delete: "Precondition failed: UID in precondition: …"): the name now belongs to another pod.
const UID_MISMATCH = /UID in (the )?precondition/i;
// How the API server words a webhook's refusal (apiserver webhook/errors/statuserror.go ToStatusErr).
const WEBHOOK_REFUSAL = /^admission webhook "([^"]+)" denied the request/;

/** kubectl drain's delay after any 429 (EvictErrorRetryDelay): a webhook's 429 is asked again no slower. */
const WEBHOOK_RETRY_MS = 5_000;

/** The API's 500 for a pod that more than one budget selects: the drain reads which ones before saying so. */
export function refusedForSeveralBudgets(outcome: ApiOutcome): boolean {
  return outcome.kind === 'status' && outcome.code === 500 && MULTIPLE_PDBS.test(outcome.status.message);
}

/** Classifies the answer to an eviction or a delete: the whole retry policy, in one place. */
export function classifyEviction(outcome: ApiOutcome, call: EvictionCall): EvictionStep {
  if (outcome.kind === 'ok') return { kind: 'admitted' };
  if (outcome.kind === 'network') {
    return { kind: 'retry', error: outcome.message, retryAfterMs: null };
  }
  const { code, status } = outcome;
  const retryAfterMs = status.retryAfterSeconds === null ? null : status.retryAfterSeconds * 1000;
  switch (code) {
    case 404:
      return { kind: 'gone', detail: 'not found' };
    case 409:
      if (UID_MISMATCH.test(status.message)) return { kind: 'gone', detail: 'replaced by a new pod of the same name' };
      return { kind: 'retry', error: `conflict: ${status.message}`, retryAfterMs };
    case 429:
      return (
        budgetRefusal(status) ??
        webhookWait(status) ?? {
          kind: 'retry',
          error: `throttled by the API server: ${status.message}`,
          retryAfterMs,
        }
      );
    case 403:
      return forbidden(status, call);
    case 401:
      return { kind: 'fail', error: 'unauthorized: the API server rejected the credentials' };
    case 500:
      if (refusedForSeveralBudgets(outcome)) return { kind: 'fail', error: multiplePdbs(call) };
      // A webhook's refusal is its answer, whatever its code (Strimzi's drain cleaner answers 500): kubectl fails it.
      if (WEBHOOK_REFUSAL.test(status.message)) return { kind: 'fail', error: `${status.message} (HTTP ${code})` };
      return { kind: 'retry', error: `server error: ${status.message}`, retryAfterMs };
    default:
      if (code >= 500) return { kind: 'retry', error: `server error: ${status.message} (HTTP ${code})`, retryAfterMs };
      return { kind: 'fail', error: `${status.message} (HTTP ${code})` };
  }
}

/**
 * An admission webhook's 429: its operator is moving the pod (KubeVirt live-migrates a VM) and admits the
 * eviction once done. Named as that webhook, with its message; asked again after its Retry-After, at most
 * kubectl's 5 s.
 */
function webhookWait(status: ApiStatus): EvictionStep | null {
  if (!WEBHOOK_REFUSAL.test(status.message)) return null;
  const asked = status.retryAfterSeconds === null ? WEBHOOK_RETRY_MS : status.retryAfterSeconds * 1000;
  return { kind: 'retry', error: status.message, retryAfterMs: Math.min(asked, WEBHOOK_RETRY_MS), patient: true };
}

function budgetRefusal(status: ApiStatus): EvictionStep | null {
  for (const cause of status.causes) {
    const name = cause.reason === 'DisruptionBudget' ? BUDGET_NAME.exec(cause.message) : null;
    if (!name) continue;
    const numbers = EXHAUSTED.exec(cause.message);
    return {
      kind: 'budget',
      why: NOT_OBSERVED.test(cause.message) ? 'status-not-observed' : 'budget-exhausted',
      pdb: name[1]!,
      desiredHealthy: numbers ? Number(numbers[1]) : null,
      currentHealthy: numbers ? Number(numbers[2]) : null,
      message: cause.message,
    };
  }
  return null;
}

/**
 * A namespace being deleted refuses new writes with a NamespaceTerminating cause; its pods are going
 * away anyway, so ask again (kubectl does too). RBAC denials name the verb and resource; other 403s
 * (admission webhooks, a budget with negative disruptionsAllowed) keep the server's message.
 */
function forbidden(status: ApiStatus, call: EvictionCall): EvictionStep {
  if (status.causes.some((c) => c.reason === 'NamespaceTerminating')) {
    return { kind: 'retry', error: `namespace "${call.namespace}" is terminating`, retryAfterMs: null };
  }
  // The admission chain's refusals keep their own words: the policy or webhook, and its message.
  if (WEBHOOK_REFUSAL.test(status.message) || /ValidatingAdmissionPolicy '/.test(status.message)) {
    return { kind: 'fail', error: `${status.message} (HTTP 403)` };
  }
  if (/cannot \S+ resource/.test(status.message)) {
    return {
      kind: 'fail',
      error: `forbidden: cannot ${call.verb} ${call.resource} in namespace "${call.namespace}" (${status.message})`,
    };
  }
  return { kind: 'fail', error: `forbidden: ${status.message}` };
}

function multiplePdbs(call: EvictionCall): string {
  const names = call.budgets.length > 1 ? ` (${call.budgets.map(coveringBudgetText).join('; ')})` : '';
  return (
    `pod matches more than one PodDisruptionBudget${names}; the Eviction API refuses such pods ` +
    '(make the budgets select disjoint pods, or drain with --disable-eviction)'
  );
}
