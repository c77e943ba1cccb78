import type { DrainEvent, PodDrainState, PodRef } from './events.js';
import { plural } from '../wording.js';

export type FinishedEvent = Extract<DrainEvent, { type: 'finished' }>;

export interface SummaryInput {
  readonly atMs: number;
  readonly nodes: readonly string[];
  readonly dryRun: 'none' | 'client' | 'server';
  /** Nodes known to be cordoned when the drain ends (real runs; empty for dry runs). */
  readonly cordoned: readonly string[];
  /** Why the drain stopped before every pod settled, if it did. */
  readonly stoppedBy: 'interrupted' | 'timeout' | null;
  /** Every pod the drain set out to evict or delete, with its last state. */
  readonly pods: ReadonlyArray<{ readonly ref: PodRef; readonly state: PodDrainState }>;
  /** A reason that stopped the drain before any eviction (a cordon that failed). */
  readonly abortedBeforeEvicting?: string | undefined;
  /** The commands to suggest, with the user's own flags (default: the bare commands for the nodes). */
  readonly commands?: NextCommands | undefined;
}

/** How to finish the drain, and how to give nodes back, as commands to paste. */
export interface NextCommands {
  readonly resume: string;
  readonly uncordon: (nodes: readonly string[]) => string;
}

const bareCommands = (nodes: readonly string[]): NextCommands => ({
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
  return {
    type: 'finished',
    atMs: input.atMs,
    result,
    gone,
    remaining,
    terminating,
    failed,
    ...(escalated.length > 0 ? { escalated } : {}),
    clusterState: clusterState(input, {
      gone: gone.length,
      terminating: terminating.length,
      remaining: remaining.length,
    }),
    commands: { resume: commands.resume, uncordon: commands.uncordon(uncordonNodes(input)) },
  };
}

/** The nodes to give back: the ones this drain cordoned, else all of them. */
const uncordonNodes = (input: SummaryInput) => (input.cordoned.length > 0 ? input.cordoned : input.nodes);

function drainResult(input: SummaryInput, failures: number): FinishedEvent['result'] {
  if (input.dryRun !== 'none') return 'dry-run';
  if (input.stoppedBy) return input.stoppedBy;
  if (input.abortedBeforeEvicting || failures > 0) return 'failed';
  return 'drained';
}

const list = (names: readonly string[]) => names.join(' ');

function clusterState(input: SummaryInput, counts: { gone: number; terminating: number; remaining: number }): string {
  if (input.dryRun === 'client') return 'nothing was changed (client dry run: no request was sent)';
  if (input.dryRun === 'server') {
    return 'nothing was changed (server dry run: the API server checked the cordon and each eviction, and applied none)';
  }
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
  const commands = input.commands ?? bareCommands(input.nodes);
  const next =
    counts.remaining > 0
      ? `; run \`${commands.resume}\` again to finish`
      : `; \`${commands.uncordon(uncordonNodes(input))}\` returns ${input.nodes.length === 1 ? 'it' : 'them'} to service`;
  return `${cordoned}; ${pods.join(', ')}${next}`;
}
