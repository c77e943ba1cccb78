import type { StepBase } from './step-context.js';

/**
 * The nodes of the batch a --pause waits on: those drained by this process. Nodes a resume found drained
 * (`drainedBefore`) had their pause: --resume said go on. None with a command (it runs instead).
 */
export function nodesToPause(
  s: Pick<StepBase, 'definition' | 'phases'>,
  nodes: readonly string[],
  drainedBefore: ReadonlySet<string>,
): string[] {
  if (!s.definition.options.pause || s.definition.command.length > 0) return [];
  return nodes.filter((n) => s.phases.phaseOf(n) === 'drained' && !drainedBefore.has(n));
}

/**
 * --pause: once the batch is drained, the operator's turn. Nodes drained by this process wait (a key on
 * a terminal; otherwise the run stops, to be continued by --resume); nodes a resume found drained go on.
 * 'go-on', or where the run stops: 'stopped' (to be resumed) or 'aborted'.
 */
export async function pauseStep(
  s: Pick<StepBase, 'definition' | 'phases' | 'deps' | 'emit' | 'aborted'>,
  batch: number,
  nodes: readonly string[],
  drainedBefore: ReadonlySet<string>,
): Promise<'go-on' | 'paused' | 'aborted'> {
  const waiting = nodesToPause(s, nodes, drainedBefore);
  if (waiting.length === 0) return 'go-on';
  const pause = s.deps.pause ?? { waitingFor: 'resume' as const, wait: async () => 'stop' as const };
  s.emit({
    type: 'paused',
    batch,
    nodes: waiting,
    waitingFor: pause.waitingFor,
    resumeCommand: s.deps.resumeCommand(false),
  });
  const answer = await pause.wait();
  if (answer === 'stop') return 'paused';
  return s.aborted() ? 'aborted' : 'go-on';
}
