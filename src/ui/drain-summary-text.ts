import type { PodRef } from '../drain/events.js';
import type { FinishedEvent } from '../drain/summary.js';
import { elapsedAt, type DrainLogEntry, type DrainProgress } from './drain-live-state.js';
import {
  budgetWaitReason,
  clientDryRunHeldBy,
  clientDryRunWouldNot,
  describeBudgetWait,
  describePodState,
  goneVerb,
} from './drain-pod-text.js';
import { formatMs, listNames, qualified } from './format.js';
import { plural } from '../wording.js';
import type { Tone } from './theme.js';

/**
 * What a drain did, what remains, and the state the cluster is left in, for the end of every drain view.
 *
 *   Interrupted after 1m12s: 1 pod remains on k8s-node-1
 *     done: 1 evicted, 2 skipped
 *     remaining: demo/hello-b (budget demo/hello: needs 3 healthy, has 3, allowed 0 · attempt 4 · waiting 19s)
 *     left: node k8s-node-1 cordoned; 1 pod still on it
 *     next: resume with:
 *       kubectl maint drain k8s-node-1 --ignore-daemonsets
 *     or undo the cordon with:
 *       kubectl maint uncordon k8s-node-1
 */
export interface DrainSummary {
  readonly tone: Tone;
  readonly headline: string;
  readonly lines: readonly string[];
}

export function summarizeDrain(progress: DrainProgress, finished: FinishedEvent): DrainSummary {
  const nodes = progress.nodes.join(', ') || 'the nodes';
  const took = formatMs(elapsedAt(progress, finished.atMs));
  const remain = `${plural(finished.remaining.length, 'pod')} ${finished.remaining.length === 1 ? 'remains' : 'remain'}`;
  const headlines: Record<FinishedEvent['result'], [Tone, string]> = {
    drained: ['ok', `Drained ${nodes} in ${took}`],
    'dry-run': ['ok', `Dry run of ${nodes} done in ${took}: nothing was changed`],
    timeout: ['bad', `Timed out after ${took}: ${remain} on ${nodes}`],
    interrupted: ['warn', `Interrupted after ${took}: ${remain} on ${nodes}`],
    failed: [
      'bad',
      finished.failed.length === 0
        ? `Drain of ${nodes} failed after ${took}: ${finished.error ?? 'stopped before evicting'}`
        : `Drain of ${nodes} failed after ${took}: ${plural(finished.failed.length, 'pod')} failed, ${remain}`,
    ],
  };
  const held = finished.result === 'dry-run' ? clientDryRunHeldBy(progress) : null;
  const [tone, headline]: [Tone, string] = held
    ? [
        'bad',
        `Dry run of ${nodes} done in ${took}: nothing was changed, and the drain ${clientDryRunWouldNot(progress)} finish`,
      ]
    : headlines[finished.result];
  // A dry run's pods were judged, not left behind: only a pod it never judged remains.
  const judged = new Set(progress.pods.filter((p) => p.state.phase === 'dry-run').map((p) => p.pod.uid));
  const remaining = finished.remaining.filter((pod) => !judged.has(pod.uid));
  const next = nextSteps(progress, finished);
  const lines = [
    ...(held ? [`why: ${held}`] : []),
    `done: ${doneCounts(progress)}`,
    ...remainingLines(progress, remaining, finished.atMs),
    ...failedLines(finished.failed),
    ...admissionAdvice(finished.failed),
    ...(finished.escalated ?? []).map(
      (pod) => `escalated: ${qualified(pod)} deleted by --escalate-after, breaking its budget`,
    ),
    // The commands below, each on a line of its own, say the next step: the state says only the state.
    `left: ${next.length > 0 ? (finished.left ?? finished.clusterState) : finished.clusterState}`,
    ...next,
  ];
  return { tone, headline, lines };
}

export function renderDrainSummaryText(summary: DrainSummary): string {
  return [summary.headline, ...summary.lines.map((l) => `  ${l}`)].join('\n');
}

/** "4 evicted, 1 deleted, 2 skipped" from the log of finished pods; "nothing" when no pod finished. */
function doneCounts(progress: DrainProgress): string {
  const counts = new Map<string, number>();
  for (const entry of progress.log) {
    if (entry.kind !== 'pod') continue;
    const word = doneWord(entry.state, progress.dryRun);
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  const last = (word: string) => (word === 'skipped' || word === 'failed' ? 1 : 0);
  const sorted = [...counts].sort(([a], [b]) => last(a) - last(b));
  return sorted.length === 0 ? 'nothing' : sorted.map(([word, n]) => `${n} ${word}`).join(', ');
}

/**
 * A server dry run's pods were admitted or refused by the API server; a client dry run asked nothing, so
 * its pods only would be evicted (or deleted), as each pod's line says.
 */
function doneWord(state: Extract<DrainLogEntry, { kind: 'pod' }>['state'], mode: DrainProgress['dryRun']): string {
  if (state.phase === 'gone') return goneVerb(state.how);
  if (state.phase === 'dry-run' && mode === 'client') {
    return state.reason.startsWith('would be deleted') ? 'would be deleted' : 'would be evicted (budgets not checked)';
  }
  if (state.phase === 'dry-run') return state.admitted ? 'admitted (server dry run)' : 'refused (server dry run)';
  return state.phase;
}

/**
 * The failed pods, one line per error naming its pods: a policy that denies every pod of a namespace says
 * its message once. The error's own pod name (`pods "x" is forbidden: …`) is left out of the shared text.
 */
function failedLines(failed: FinishedEvent['failed']): string[] {
  const groups = Map.groupBy(failed, (f) => f.error.replace(/^pods "[^"]*" is forbidden: /, ''));
  return [...groups].map(
    ([error, list]) =>
      `failed: ${listNames(
        list.map((f) => qualified(f.pod)),
        5,
      )}: ${error}`,
  );
}

const POLICY_DENIAL = /ValidatingAdmissionPolicy '([^']+)'/;
const WEBHOOK_DENIAL = /admission webhook "([^"]+)" denied the request/;

/**
 * What to do about pods the admission chain refused: its owner decides, or --disable-eviction deletes
 * through another admission path (the plan says whether the policies let that pass).
 */
function admissionAdvice(failed: FinishedEvent['failed']): string[] {
  const deciders = new Set(
    failed.flatMap((f) => {
      const policy = POLICY_DENIAL.exec(f.error)?.[1];
      const webhook = WEBHOOK_DENIAL.exec(f.error)?.[1];
      return policy ? [`ValidatingAdmissionPolicy '${policy}'`] : webhook ? [`admission webhook "${webhook}"`] : [];
    }),
  );
  if (deciders.size === 0) return [];
  return [
    `why: the admission chain refuses these evictions (${[...deciders].join(', ')}): the drain does not ask again; ` +
      'ask its owner to let this drain pass, or see with `kubectl maint plan … --disable-eviction` whether deleting the pods instead passes',
  ];
}

/**
 * Remaining pods with what each was last doing, so the operator knows what held the drain: the pods one
 * budget holds on one line, its reason said once; the others each with their own state.
 */
function remainingLines(progress: DrainProgress, remaining: readonly PodRef[], atMs: number): string[] {
  const current = remaining.map((pod) => ({ pod, progress: progress.pods.find((p) => p.pod.uid === pod.uid) }));
  const byBudget = Map.groupBy(
    current.filter((c) => c.progress && budgetWaitReason(c.progress) !== null),
    (c) => budgetWaitReason(c.progress!)!,
  );
  const waiting = [...byBudget.values()].map(
    (group) =>
      `${listNames(
        group.map((c) => qualified(c.pod)),
        5,
      )} (${describeBudgetWait(
        group.map((c) => c.progress!),
        atMs,
      )})`,
  );
  const others = current
    .filter((c) => !c.progress || budgetWaitReason(c.progress) === null)
    .map((c) => (c.progress ? `${qualified(c.pod)} (${describePodState(c.progress, atMs)})` : qualified(c.pod)));
  return [...waiting, ...(others.length > 0 ? [listNames(others, 5)] : [])].map((text) => `remaining: ${text}`);
}

/**
 * After a real drain that did not finish, the two ways out: resume, or give the nodes it cordoned back.
 * A drain that cordoned nothing (the API server refused the cordon) has nothing to undo.
 */
function nextSteps(progress: DrainProgress, finished: FinishedEvent): string[] {
  if (finished.result === 'drained' || finished.result === 'dry-run' || progress.dryRun !== 'none') return [];
  const nodes = progress.nodes.join(' ');
  const resume = finished.commands?.resume ?? `kubectl maint drain ${nodes}`;
  const uncordon = finished.commands?.uncordon ?? `kubectl maint uncordon ${nodes}`;
  // A drain the plan said no flag finishes: running it again alone would hang the same way.
  const stuck = finished.commands?.stuck ? [`${finished.commands.stuck}; once that changes:`] : [];
  // A drain that cordoned nothing (the API server refused the cordon) has nothing to undo; nor has one
  // that found its nodes cordoned already: that cordon is someone else's to undo.
  const cordoned = progress.log.filter((e) => e.kind === 'cordoned' && !e.dryRun);
  if (cordoned.length === 0) return [...stuck, `next: nothing to undo; once the cause is fixed, run:`, `  ${resume}`];
  if (cordoned.every((e) => e.kind === 'cordoned' && e.already)) {
    return [
      ...stuck,
      `next: resume with:`,
      `  ${resume}`,
      `(the nodes were cordoned before this drain: it leaves that cordon as it was)`,
    ];
  }
  // Each command on a line of its own, so that it can be copied whole.
  return [...stuck, `next: resume with:`, `  ${resume}`, `or undo the cordon with:`, `  ${uncordon}`];
}
