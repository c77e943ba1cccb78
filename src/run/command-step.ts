import { runCommand, type CommandResult } from './command.js';
import { dropResult, keepResult, type KeptResult } from './command-log.js';
import { mapLimited } from './parallel.js';
import type { StepBase } from './step-context.js';
import { ANNOTATION, UNFINISHED_COMMAND, type NodePhase } from './state.js';

/** What the command step uses, and writes: the node's phase, the commands running, why none can start. */
export interface CommandStep extends StepBase {
  readonly commandsRunning: Set<string>;
  /** Records why the command cannot start (the first reason kept): the run stops. */
  cannotStartBecause(reason: string): void;
}

/** Whether the node's command is due: drained, or (--rerun-command) its command did not finish or failed. */
export function commandDue(phase: NodePhase, rerunCommand: boolean): boolean {
  return phase === 'drained' || (rerunCommand && UNFINISHED_COMMAND.has(phase));
}

/** Runs the command on the node when its phase calls for it; 'ran' when it did (whatever its outcome). */
export async function commandStep(s: CommandStep, batch: number, node: string): Promise<'ran' | 'not-run'> {
  const { definition, deps } = s;
  if (!commandDue(s.phases.phaseOf(node), s.control.rerunCommand) || s.aborted()) return 'not-run';
  if (definition.command.length === 0) {
    await s.phases.set(node, batch, 'command-done');
    return 'not-run';
  }
  // With --expect-reboot, the bootID before the command is recorded with the phase, in the same write.
  const bootId = definition.options.expectReboot
    ? ((await s.waits.read(`node ${node}`, () => deps.api.readNode(node))).status?.nodeInfo?.bootID ?? '')
    : undefined;
  await s.phases.set(node, batch, 'command-running', undefined, {
    annotations: bootId === undefined ? {} : { [ANNOTATION.bootId]: bootId },
  });
  s.commandsRunning.add(node);
  const result: CommandResult = await (deps.runCommand ?? runCommand)({
    argv: definition.command,
    node,
    runId: definition.id,
    cwd: definition.commandDir,
    kubeconfig: deps.kubeconfig,
    timeoutMs: definition.options.commandTimeoutMs,
    // A first Ctrl-C lets the command finish: an operator's reboot or firmware flash cut off mid-way
    // leaves the node worse off than either end. Only a second one kills it.
    signal: s.control.killCommands,
    onLine: (stream, line) => s.emit({ type: 'command-output', node, stream, line }),
  }).finally(() => s.commandsRunning.delete(node));
  if (result.cannotStart) {
    // Not the node's failure: the command itself is gone. The node is drained, as before the attempt,
    // and the run stops with one line (runner.ts).
    await s.phases.set(node, batch, 'drained');
    s.cannotStartBecause(`command ${definition.command[0]} cannot start on node ${node}: ${result.cannotStart}`);
    return 'not-run';
  }
  s.emit({ type: 'command-finished', node, exitCode: result.exitCode, failure: result.failure });
  if (result.interrupted) {
    // Killed by a second Ctrl-C: a phase of its own, so the summary, `runs` and a resume say so.
    await s.phases.set(node, batch, 'command-killed', 'command killed (interrupted)');
    return 'ran';
  }
  // Kept on this machine until it is written: a write the API server does not take (away, or this
  // process gone first) never turns a command that ran into one a resume would call interrupted.
  const kept: KeptResult = {
    runId: definition.id,
    node,
    exitCode: result.exitCode,
    failure: result.failure,
    at: new Date(deps.clock.now()).toISOString(),
  };
  const dir = deps.commandLog;
  if (dir) keepResult(dir, kept);
  await writeResult(s, batch, kept);
  if (dir) dropResult(dir, node);
  return 'ran';
}

/** The command's result as the node's phase (command-done or command-failed). */
function writeResult(s: Pick<StepBase, 'phases'>, batch: number, kept: KeptResult): Promise<void> {
  const { node, failure } = kept;
  const what = { kept: `the result of ${node}'s command (${failure ?? 'exit 0'})` };
  return failure
    ? s.phases.set(node, batch, 'command-failed', `command ${failure}`, what)
    : s.phases.set(node, batch, 'command-done', undefined, what);
}

/**
 * A resume on the machine that kept a command's result it could not write (the API server away, or the
 * process gone): written now, and the command is not run again.
 */
export async function writeKeptResults(
  s: Pick<StepBase, 'phases' | 'deps' | 'emit'>,
  keptResults: readonly KeptResult[],
): Promise<void> {
  await mapLimited(keptResults, async (kept) => {
    const batch = s.phases.batchOf(kept.node) ?? 1;
    s.emit({
      type: 'warning',
      message: `node "${kept.node}": its command ended (${kept.failure ?? 'exit 0'}) at ${kept.at}, a result this machine kept because it could not be written then: written now, and the command is not run again`,
    });
    await writeResult(s, batch, kept);
    if (s.deps.commandLog) dropResult(s.deps.commandLog, kept.node);
  });
}
