import { formatMs } from '../kube/connection-errors.js';
import type { DrainEvent, PodDrainState, PodRef } from './events.js';
import { plural } from '../wording.js';

export type FinishedEvent = Extract<DrainEvent, { type: 'finished' }>;

export interface SummaryInput {
  readonly atMs: number;
  readonly nodes: readonly string[];
  readonly dryRun: 'none' | 'client' | 'server';
  /** Nodes known to be cordoned when the drain ends (real runs; empty for dry runs). */
  readonly cordoned: readonly string[];
  /** Of those, the nodes this drain cordoned itself (not already cordoned): the only ones it gives back. */
  readonly cordonedHere?: readonly string[] | undefined;
  /** Why the drain stopped before every pod settled, if it did. */
  readonly stoppedBy: 'interrupted' | 'timeout' | null;
  /** Every pod the drain set out to evict or delete, with its last state. */
  readonly pods: ReadonlyArray<{ readonly ref: PodRef; readonly state: PodDrainState }>;
  /** A reason that stopped the drain before any eviction (a cordon that failed). */
  readonly abortedBeforeEvicting?: string | undefined;
  /** The commands to suggest, with the user's own flags (default: the bare commands for the nodes). */
  readonly commands?: NextCommands | undefined;
  /** What interrupted the drain, when `stoppedBy` is 'interrupted' (the signal: SIGINT, SIGTERM). */
  readonly interruptedBy?: string | undefined;
  /** --timeout in milliseconds, to say it when `stoppedBy` is 'timeout'. */
  readonly timeoutMs?: number | undefined;
}

/** How to finish the drain, and how to give nodes back, as commands to paste. */
export interface NextCommands {
  readonly resume: string;
  readonly uncordon: (nodes: readonly string[]) => string;
  /**
   * Said of a finished drain instead of the uncordon command, when something else gives the nodes back: a
   * run's drain, whose nodes the run uncordons once the operator's command is done.
   */
  readonly returnedBy?: string;
  /** Why running `resume` again alone does not finish the drain: the plan said no flag finishes it. */
  readonly stuck?: string | undefined;
}

/** The commands as typed with no flags: `kubectl maint drain NODES`, `kubectl maint uncordon NODES`. */
export const bareCommands = (nodes: readonly string[]): NextCommands => ({
  resume: `kubectl maint drain ${list(nodes)}`,
  uncordon: (cordoned) => `kubectl maint uncordon ${list(cordoned)}`,
});

/** The last event: what is gone, what remains, and the state the cluster is left in, in words. */
export function finishedEvent(input: SummaryInput): FinishedEvent {
  const gone = input.pods.filter((p) => p.state.phase === 'gone').map((p) => p.ref);
  const remaining = input.pods.filter((p) => p.state.phase !== 'gone').map((p) => p.ref);
  // Evicted but not seen gone: still terminating, or left terminating by --skip-wait-for-delete-timeout.
  const terminating = input.pods
    .filter((p) => p.state.phase === 'terminating' || (p.state.phase === 'skipped' && input.dryRun === 'none'))
    .map((p) => p.ref);
  const failed = input.pods.flatMap((p) => (p.state.phase === 'failed' ? [{ pod: p.ref, error: p.state.error }] : []));
  const escalated = input.pods.filter((p) => p.state.phase === 'gone' && p.state.how === 'escalated').map((p) => p.ref);
  const result = drainResult(input, failed.length);
  const commands = input.commands ?? bareCommands(input.nodes);
  const error = drainError(input, result, failed);
  return {
    type: 'finished',
    atMs: input.atMs,
    result,
    gone,
    remaining,
    terminating,
    failed,
    ...(escalated.length > 0 ? { escalated } : {}),
    ...leftAndNext(input, { gone: gone.length, terminating: terminating.length, remaining: remaining.length }),
    commands: {
      resume: commands.resume,
      uncordon: commands.uncordon(uncordonNodes(input)),
      ...(commands.stuck ? { stuck: commands.stuck } : {}),
    },
    ...(error === undefined ? {} : { error }),
  };
}

/** The nodes to give back: the ones this drain cordoned itself, else the cordoned ones, else all of them. */
function uncordonNodes(input: SummaryInput): readonly string[] {
  if (input.cordonedHere && input.cordonedHere.length > 0) return input.cordonedHere;
  return input.cordoned.length > 0 ? input.cordoned : input.nodes;
}

/**
 * A dry run that the API server refused (the cordon, or an eviction for anything but a budget) failed:
 * it must not read as a successful rehearsal. A budget's refusal is the answer a dry run asks for.
 */
function drainResult(input: SummaryInput, failures: number): FinishedEvent['result'] {
  if (input.abortedBeforeEvicting) return 'failed';
  if (input.dryRun !== 'none') return failures > 0 ? 'failed' : 'dry-run';
  if (input.stoppedBy) return input.stoppedBy;
  if (failures > 0) return 'failed';
  return 'drained';
}

/** Why the drain did not finish, in one line, for the one error line every view prints first. */
function drainError(
  input: SummaryInput,
  result: FinishedEvent['result'],
  failed: FinishedEvent['failed'],
): string | undefined {
  if (input.abortedBeforeEvicting) return input.abortedBeforeEvicting;
  const left = input.pods.filter((p) => p.state.phase !== 'gone');
  const leftText = `with ${plural(left.length, 'pod')} left${left.length > 0 ? `: ${describeLeft(left)}` : ''}`;
  if (result === 'timeout') {
    const after = input.timeoutMs ? ` after ${formatMs(input.timeoutMs)} (--timeout)` : '';
    return `timed out${after} ${leftText}`;
  }
  if (result === 'interrupted') return `interrupted by ${input.interruptedBy ?? 'the user'} ${leftText}`;
  const [first] = failed;
  if (result === 'failed' && first) {
    const more = failed.length > 1 ? ` (and ${plural(failed.length - 1, 'more pod')} failed)` : '';
    return `${qualified(first.pod)}: ${first.error}${more}`;
  }
  return undefined;
}

/** "demo/a (waiting for budget hello), demo/b (terminating, held by finalizer x)" and at most 3 of them. */
function describeLeft(pods: SummaryInput['pods']): string {
  const shown = pods.slice(0, 3).map(({ ref, state }) => `${qualified(ref)} (${leftState(ref, state)})`);
  return pods.length > 3 ? `${shown.join(', ')} and ${pods.length - 3} more` : shown.join(', ');
}

function leftState(ref: PodRef, state: PodDrainState): string {
  switch (state.phase) {
    case 'waiting-for-budget':
      // A budget is in its pods' namespace: named namespace/name, as everywhere else.
      return `waiting for budget ${ref.namespace}/${state.pdb}`;
    case 'terminating':
      return state.finalizers && state.finalizers.length > 0
        ? `terminating, held by ${state.finalizers.length === 1 ? 'finalizer' : 'finalizers'} ${state.finalizers.join(', ')}`
        : 'terminating';
    case 'retrying':
      return `retrying: ${state.error}`;
    default:
      return state.phase;
  }
}

const qualified = (ref: PodRef) => `${ref.namespace}/${ref.name}`;

const list = (names: readonly string[]) => names.join(' ');

type Counts = { gone: number; terminating: number; remaining: number };

/** `clusterState` (the state and the next step, one sentence) and `left` (the state alone). */
function leftAndNext(input: SummaryInput, counts: Counts): { clusterState: string; left: string } {
  if (input.dryRun === 'client') {
    const state = 'nothing was changed (client dry run: no request was sent)';
    return { clusterState: state, left: state };
  }
  if (input.dryRun === 'server') {
    const state = serverDryRunState(input);
    return { clusterState: state, left: state };
  }
  const left = realDrainState(input, counts);
  return { clusterState: `${left}${nextStep(input, counts)}`, left };
}

/** The nodes' cordon and what became of their pods. */
function realDrainState(input: SummaryInput, counts: Counts): string {
  const nodes = input.nodes.length === 1 ? 'node' : 'nodes';
  const cordoned =
    input.cordoned.length === 0
      ? `${nodes} ${list(input.nodes)} not cordoned`
      : `${input.cordoned.length === 1 ? 'node' : 'nodes'} ${list(input.cordoned)} cordoned`;
  if (input.abortedBeforeEvicting) return `${cordoned}; no pod evicted (${input.abortedBeforeEvicting})`;
  const notEvicted = counts.remaining - counts.terminating;
  const pods: string[] = [];
  if (counts.remaining === 0)
    pods.push(counts.gone === 0 ? 'no pod to evict' : `all ${plural(counts.gone, 'pod')} gone`);
  else {
    if (counts.gone > 0) pods.push(`${counts.gone} gone`);
    if (counts.terminating > 0) pods.push(`${counts.terminating} evicted and still terminating`);
    if (notEvicted > 0) pods.push(`${notEvicted} not evicted`);
  }
  return `${cordoned}; ${pods.join(', ')}`;
}

/** What to run next, after the state: the drain again, or how the nodes return to service. */
function nextStep(input: SummaryInput, counts: Counts): string {
  if (input.abortedBeforeEvicting) return '';
  const commands = input.commands ?? bareCommands(input.nodes);
  if (counts.remaining > 0) {
    return commands.stuck
      ? `; ${commands.stuck}: once that changes, run \`${commands.resume}\` again`
      : `; run \`${commands.resume}\` again to finish`;
  }
  return commands.returnedBy
    ? `; ${commands.returnedBy}`
    : `; \`${commands.uncordon(uncordonNodes(input))}\` returns ${input.nodes.length === 1 ? 'it' : 'them'} to service`;
}

/** Only a server dry run the API server accepted in full says that it checked everything. */
function serverDryRunState(input: SummaryInput): string {
  if (input.abortedBeforeEvicting) {
    return 'nothing was changed (server dry run: the API server refused the cordon, so no eviction was sent)';
  }
  const judged = input.pods.map((p) => p.state);
  const admitted = judged.filter((s) => s.phase === 'dry-run' && s.admitted).length;
  const refused = judged.filter((s) => s.phase === 'dry-run' && !s.admitted).length;
  const failed = judged.filter((s) => s.phase === 'failed').length;
  if (admitted === judged.length) {
    return 'nothing was changed (server dry run: the API server checked the cordon and each eviction, and applied none)';
  }
  const answers = [
    admitted > 0 ? `${admitted} admitted` : '',
    refused > 0 ? `${refused} refused by a budget` : '',
    failed > 0 ? `${failed} failed` : '',
    judged.length - admitted - refused - failed > 0 ? `${judged.length - admitted - refused - failed} not sent` : '',
  ].filter((part) => part !== '');
  return `nothing was changed (server dry run: the API server accepted the cordon; evictions: ${answers.join(', ')})`;
}
