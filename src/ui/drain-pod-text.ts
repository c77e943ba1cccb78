import type { BudgetBlocker, DrainEvent, PodDrainState, PodRef } from '../drain/events.js';
import { coveringBudgetText } from '../drain/budget-coverage.js';
import type { DrainProgress, PodProgress } from './drain-live-state.js';
import { formatMs, qualified, qualifiedPdb } from './format.js';
import { plural } from '../wording.js';
import type { Tone } from './theme.js';

/** How each drain view words a pod's state, in one place: the Ink rows, the text lines and the summary. */

type BudgetWait = Extract<PodDrainState, { phase: 'waiting-for-budget' }>;

/**
 * "PodDisruptionBudget demo/hello: needs 3 healthy, has 3, allowed 0" in lines and logs; "budget
 * demo/hello: …" in live rows, short of room. A budget is named namespace/name everywhere, as kubectl
 * names objects, so the row and the plan read the same.
 */
export function budgetWaitText(pod: PodRef, wait: BudgetWait, style: 'full' | 'short' = 'full'): string {
  return `${budgetStateText(pod, wait, style)}${otherBudgetsText(wait)}`;
}

function budgetStateText(pod: PodRef, wait: BudgetWait, style: 'full' | 'short'): string {
  const name = qualifiedPdb(pod.namespace, wait.pdb);
  const pdb = style === 'full' ? `PodDisruptionBudget ${name}` : `budget ${name}`;
  if (wait.controllerError) {
    // A budget the controller cannot compute never allows an eviction: say so, not "allowed 0".
    return `${pdb}: the disruption controller cannot compute it (${wait.controllerError}); no eviction until that is fixed`;
  }
  if (wait.staleStatus) {
    // The numbers are the last ones written: say so, and what the pods say now.
    return (
      `${pdb}: status stale (it last said needs ${wait.desiredHealthy} healthy, has ${wait.currentHealthy}, ` +
      `allowed ${wait.disruptionsAllowed}; ${plural(wait.staleStatus.healthyPods, 'pod')} healthy now): ` +
      'is the disruption controller (kube-controller-manager) running?'
    );
  }
  if (wait.why === 'status-not-observed') {
    return `${pdb}: status not yet observed by the disruption controller`;
  }
  const numbers = `${pdb}: needs ${wait.desiredHealthy} healthy, has ${wait.currentHealthy}, allowed ${wait.disruptionsAllowed}`;
  return wait.blockers && wait.blockers.length > 0 ? `${numbers}; ${blockersText(wait.blockers)}` : numbers;
}

/**
 * "; also under budget demo/hello-extra (needs 0 healthy, has 1, allowed 1): the Eviction API refuses a pod
 * under two budgets (500)": a second budget selecting the pod means this wait cannot end in an eviction.
 */
function otherBudgetsText(wait: BudgetWait): string {
  const others = wait.otherBudgets ?? [];
  if (others.length === 0) return '';
  const names = others.map(coveringBudgetText).join(', ');
  return `; also under ${others.length === 1 ? 'budget' : 'budgets'} ${names}: the Eviction API refuses a pod under more than one budget (500)`;
}

/**
 * What holds a budget, most blocking first: "demo/hello-x is Pending, the scheduler says: 0/4 nodes are
 * available: …", "demo/hello-y is not Ready (…)". Two at most, then how many more.
 */
export function blockersText(blockers: readonly BudgetBlocker[]): string {
  const one = (b: BudgetBlocker) => {
    switch (b.state) {
      case 'unschedulable':
        return `${b.pod} is Pending, the scheduler says: ${b.message}`;
      case 'pending':
        return `${b.pod} is Pending (${b.message})`;
      case 'not-ready':
        return `${b.pod} is not Ready (${b.message})`;
    }
  };
  const more = blockers.length > 2 ? `; and ${blockers.length - 2} more` : '';
  return `${blockers.slice(0, 2).map(one).join('; ')}${more}`;
}

/** "finalizer example.com/hold", "finalizers a, b": what a terminating pod waits on before it can go. */
export function finalizersText(finalizers: readonly string[]): string {
  return `${finalizers.length === 1 ? 'finalizer' : 'finalizers'} ${finalizers.join(', ')}`;
}

/** "evicted", "deleted", "already gone". */
export function goneVerb(how: Extract<PodDrainState, { phase: 'gone' }>['how']): string {
  if (how === 'escalated') return 'deleted by escalation';
  return how === 'already-gone' ? 'already gone' : how;
}

/** A pod's state for a live row, as of `nowMs`: what it is doing and for how long. */
type WaitingPod = PodProgress & { readonly state: BudgetWait };

/** What a pod waits for when its budget refuses it, the same words for every pod the budget holds: null otherwise. */
export function budgetWaitReason(progress: PodProgress): string | null {
  const state = progress.state;
  if (state.phase !== 'waiting-for-budget') return null;
  // Until the cluster says what holds the budget, what the plan predicted does.
  const planned = !state.blockers?.length && progress.planBlocker ? `; the plan: ${progress.planBlocker}` : '';
  return `${budgetWaitText(progress.pod, state, 'short')}${planned}`;
}

/**
 * Pods one budget holds (one reason, budgetWaitReason), said once: the reason, the longest wait, and the
 * refusals of them all.
 */
export function describeBudgetWait(pods: readonly PodProgress[], nowMs: number): string {
  const waiting = pods.filter((p): p is WaitingPod => p.state.phase === 'waiting-for-budget');
  const first = waiting[0];
  if (!first) return '';
  const longest = Math.max(...waiting.map((p) => nowMs - p.state.sinceMs));
  const waited = `waiting ${waiting.length > 1 ? 'up to ' : ''}${formatMs(longest)}`;
  const refusals = plural(
    waiting.reduce((n, p) => n + p.state.attempts, 0),
    'refusal',
  );
  if (first.budgetNeverAllows) return `${budgetWaitReason(first)} · ${waited} (${refusals})`;
  // Not a blind back-off: the budget's watch wakes the pod as soon as the budget allows an eviction.
  return `${budgetWaitReason(first)} · ${waited}, asked again once the budget allows one (${refusals})`;
}

export function describePodState(progress: PodProgress, nowMs: number): string {
  const state = progress.state;
  switch (state.phase) {
    case 'queued':
      return 'queued';
    case 'evicting':
      return state.attempt > 1 ? `evicting (attempt ${state.attempt})` : 'evicting';
    case 'waiting-for-budget':
      return describeBudgetWait([progress], nowMs);
    case 'retrying':
      return `retrying in ${formatMs(state.nextAttemptMs - nowMs)} (attempt ${state.attempts}): ${state.error}`;
    case 'terminating':
      if (state.finalizers && state.finalizers.length > 0) {
        return `terminating for ${formatMs(nowMs - progress.phaseSinceMs)}, held by ${finalizersText(state.finalizers)}`;
      }
      return state.deadlineMs === null
        ? `terminating for ${formatMs(nowMs - progress.phaseSinceMs)}`
        : `terminating, ${formatMs(state.deadlineMs - nowMs)} grace left`;
    case 'gone':
      return goneVerb(state.how);
    case 'skipped':
    case 'failed':
    case 'dry-run':
      return describeFinal(state);
  }
}

export const PHASE_TONES: Record<PodDrainState['phase'], Tone> = {
  queued: 'muted',
  evicting: 'accent',
  'waiting-for-budget': 'warn',
  retrying: 'warn',
  terminating: 'accent',
  gone: 'ok',
  skipped: 'muted',
  failed: 'bad',
  'dry-run': 'ok',
};

/** "eviction admitted" or "eviction refused: PodDisruptionBudget hello needs 4 healthy pods, has 4". */
export function dryRunVerdict(state: Extract<PodDrainState, { phase: 'dry-run' }>): string {
  return state.admitted ? state.reason || 'eviction admitted' : `eviction refused: ${state.reason}`;
}

/** kubectl's per-pod error syntax: error when evicting pods/"hello-abc" -n "demo". */
export function evictionErrorPrefix(pod: PodRef): string {
  return `error when evicting pods/"${pod.name}" -n "${pod.namespace}"`;
}

/** A finished pod in the live log: "demo/hello-abc evicted", "demo/x failed: …". */
export function finishedPodText(
  pod: PodRef,
  state: Extract<PodDrainState, { phase: 'gone' | 'skipped' | 'failed' | 'dry-run' }>,
): string {
  return `${qualified(pod)} ${state.phase === 'gone' ? goneVerb(state.how) : describeFinal(state)}`;
}

function describeFinal(state: Extract<PodDrainState, { phase: 'skipped' | 'failed' | 'dry-run' }>): string {
  if (state.phase === 'skipped') return `skipped: ${state.reason}`;
  if (state.phase === 'failed') return `failed: ${state.error}`;
  return dryRunVerdict(state);
}

/** "drain-order group 2 of 3 starts (the groups before it are gone): shop/db, shop/cache". */
export function groupStartText(event: Extract<DrainEvent, { type: 'group' }>): string {
  const names = event.pods.map((p) => qualified(p)).join(', ');
  return `drain-order group ${event.position} of ${event.of} starts (the groups before it are gone): ${names}`;
}

/** "1 pod on node-1 the plan did not show (bound since it read the node): demo/late". */
export function latePodsText(event: Extract<DrainEvent, { type: 'late-pods' }>): string {
  const nodes = [...new Set(event.pods.map((p) => p.node))];
  const names = event.pods.map((p) => qualified(p)).join(', ');
  const it = nodes.length === 1 ? 'the node' : 'the nodes';
  return `${plural(event.pods.length, 'pod')} on ${nodes.join(', ')} the plan did not show (bound since it read ${it}): ${names}`;
}

/** The loud line of an escalation: which pod, which budget, how long it refused, and that the budget is broken. */
export function escalationText(event: Extract<DrainEvent, { type: 'escalating' }>): string {
  return (
    `escalating: pod ${qualified(event.pod)} was refused by PodDisruptionBudget ${qualifiedPdb(event.pod.namespace, event.pdb)} ` +
    `for ${formatMs(event.refusedForMs)}; deleting it (grace period honoured), which breaks the budget, as --escalate-namespace ${event.pod.namespace} allows`
  );
}

/** "deployment/demo/web surge scaling-up: 1 → 2 replicas, until the extra one is Ready". */
export function surgeText(event: Extract<DrainEvent, { type: 'surge' }>): string {
  return `deployment ${event.deployment} surge ${event.step}: ${event.message}`;
}

/**
 * A client dry run sends nothing, so its answer is the plan's: when the plan says the drain cannot (or may
 * not) finish, or could not read all it needs, that, in a line; null otherwise.
 */
export function clientDryRunHeldBy(progress: DrainProgress): string | null {
  if (progress.dryRun !== 'client' || !progress.plan) return null;
  const { verdict, reason, blockedWords } = progress.plan;
  if (verdict === 'blocked') return `the plan says the drain ${blockedWords ?? 'cannot finish'}: ${reason}`;
  if (verdict === 'incomplete') return `the plan could not read all it needs: ${reason}`;
  return null;
}

/** A client dry run held back by its plan "would not" finish, or "might not" when only unknowns hold it. */
export function clientDryRunWouldNot(progress: DrainProgress): 'would not' | 'might not' {
  return progress.plan?.blockedWords === 'may not finish' ? 'might not' : 'would not';
}
