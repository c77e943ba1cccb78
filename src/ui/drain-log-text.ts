import type { DrainEvent, PodDrainState, PodRef } from '../drain/events.js';
import type { DrainProgress } from './drain-live-state.js';
import { renderDrainSummaryText, summarizeDrain } from './drain-summary-text.js';
import {
  budgetWaitText,
  clientDryRunHeldBy,
  clientDryRunWouldNot,
  dryRunVerdict,
  evictionErrorPrefix,
  escalationText,
  goneVerb,
  groupStartText,
  latePodsText,
  surgeText,
} from './drain-pod-text.js';
import { formatMs, qualified } from './format.js';

/**
 * Drain output without a terminal: one line per event, worded like kubectl drain. Results (cordoned,
 * evicting, evicted, drained) go to stdout; waits, retries, errors and the final summary to stderr, as
 * kubectl splits Out and ErrOut.
 *
 *   node/k8s-node-1 cordoned
 *   evicting pod demo/hello-abc
 *   pod demo/hello-def waiting for PodDisruptionBudget demo/hello: needs 3 healthy, has 3, allowed 0 (attempt 4, 12s)
 *   pod/hello-abc evicted
 *   node/k8s-node-1 drained
 */
export interface DrainLine {
  readonly stream: 'stdout' | 'stderr';
  readonly text: string;
}

/**
 * The lines for `event`, given the progress before it (for the dry-run mode, the nodes and each pod's
 * previous state). Returns no line for events kubectl stays silent on (started, terminating).
 */
export function drainEventLines(before: DrainProgress, event: DrainEvent): DrainLine[] {
  const suffix = dryRunSuffix(before.dryRun);
  switch (event.type) {
    case 'started':
      return [];
    case 'cordoned':
      return [
        out(
          `node/${event.node} ${event.already ? 'already cordoned' : 'cordoned'}${dryRunSuffix(event.dryRun ? before.dryRun : 'none')}`,
        ),
      ];
    case 'warning':
      return [err(`Warning: ${event.message}`)];
    case 'group':
      return [out(groupStartText(event))];
    case 'late-pods':
      return [err(`Warning: ${latePodsText(event)}`)];
    case 'escalating':
      return [err(`Warning: ${escalationText(event)}`)];
    case 'surge':
      return [(event.step === 'failed' || event.step === 'not-surged' ? err : out)(surgeText(event))];
    case 'pod':
      return podLines(before, event.pod, event.state, event.atMs, suffix);
    case 'finished':
      return finishedLines(before, event, suffix);
  }
}

function podLines(before: DrainProgress, pod: PodRef, state: PodDrainState, atMs: number, suffix: string): DrainLine[] {
  const previous = before.pods.find((p) => p.pod.uid === pod.uid)?.state.phase;
  switch (state.phase) {
    case 'queued':
    case 'terminating':
      return [];
    case 'evicting':
      // kubectl repeats this line on every retry; the wait lines already count attempts, so print it once.
      return previous === undefined || previous === 'queued' ? [out(`evicting pod ${qualified(pod)}${suffix}`)] : [];
    case 'waiting-for-budget':
      return [
        err(
          `pod ${qualified(pod)} waiting for ${budgetWaitText(pod, state)} (attempt ${state.attempts}, ${formatMs(atMs - state.sinceMs)})`,
        ),
      ];
    case 'retrying':
      return [
        err(`${evictionErrorPrefix(pod)} (will retry after ${formatMs(state.nextAttemptMs - atMs)}): ${state.error}`),
      ];
    case 'gone':
      return [out(`pod/${pod.name} ${goneVerb(state.how)}${suffix}`)];
    case 'skipped':
      return [out(`pod/${pod.name} skipped: ${state.reason}`)];
    case 'failed':
      return [err(`${evictionErrorPrefix(pod)}: ${state.error}`)];
    case 'dry-run':
      // A client dry run asks nothing: kubectl drain --dry-run=client says only what it would send.
      if (before.dryRun === 'client') {
        const verb = state.reason.startsWith('would be deleted') ? 'deleting' : 'evicting';
        return [out(`${verb} pod ${qualified(pod)}${suffix}`)];
      }
      return [(state.admitted ? out : err)(`pod/${pod.name} ${dryRunVerdict(state)}${suffix}`)];
  }
}

/**
 * Per node: `node/X drained` when no pod is left to move, else kubectl's "unable to drain" error. A dry
 * run moves nothing, so there a node counts as drained unless the API server refused one of its
 * evictions. Then the summary, always.
 */
function finishedLines(
  before: DrainProgress,
  event: Extract<DrainEvent, { type: 'finished' }>,
  suffix: string,
): DrainLine[] {
  const pending = new Set(pendingNodes(before, event));
  const why = failureReason(event);
  const held = clientDryRunHeldBy(before);
  const nodes = before.nodes.map((node) =>
    held
      ? err(`node/${node} ${clientDryRunWouldNot(before)} finish draining${suffix}: ${held}`)
      : pending.has(node)
        ? err(`error: unable to drain node "${node}": ${why}${suffix}`)
        : out(`node/${node} drained${suffix}`),
  );
  const summary = renderDrainSummaryText(summarizeDrain({ ...before, finished: event }, event));
  return [...nodes, ...summary.split('\n').map(err)];
}

/**
 * The nodes a finished drain did not drain: those with a pod left or failed (in a dry run, a pod the API
 * server refused), or all of them when the drain stopped before evicting anything (a cordon refused).
 */
function pendingNodes(before: DrainProgress, event: Extract<DrainEvent, { type: 'finished' }>): string[] {
  if (event.result === 'failed' && event.failed.length === 0) return [...before.nodes];
  const held =
    event.result === 'dry-run'
      ? before.pods.filter((p) => p.state.phase === 'dry-run' && !p.state.admitted).map((p) => p.pod)
      : event.remaining;
  const pending = new Set([...held, ...event.failed.map((f) => f.pod)].map((p) => p.node));
  return before.nodes.filter((node) => pending.has(node));
}

function failureReason(event: Extract<DrainEvent, { type: 'finished' }>): string {
  if (event.error) return event.error;
  return event.result === 'dry-run' ? 'evictions refused' : event.result === 'timeout' ? 'timed out' : event.result;
}

/**
 * The one line a drain that did not finish prints on stderr under `-o json` (whose stdout carries the
 * events): `error: unable to drain node "k8s-node-1": <why>`. Null when it finished (or a dry run was
 * answered in full, budget refusals included: they are the answer a dry run asks for).
 */
export function drainErrorLine(before: DrainProgress, event: Extract<DrainEvent, { type: 'finished' }>): string | null {
  if (event.result === 'drained' || event.result === 'dry-run') return null;
  const nodes = pendingNodes(before, event);
  const named = nodes.length > 0 ? nodes : before.nodes;
  const which = `${named.length === 1 ? 'node' : 'nodes'} ${named.map((n) => `"${n}"`).join(', ')}`;
  return `error: unable to drain ${which}: ${failureReason(event)}`;
}

function dryRunSuffix(mode: DrainProgress['dryRun']): string {
  if (mode === 'client') return ' (dry run)';
  if (mode === 'server') return ' (server dry run)';
  return '';
}

function out(text: string): DrainLine {
  return { stream: 'stdout', text };
}

function err(text: string): DrainLine {
  return { stream: 'stderr', text };
}
