import type { V1Node } from '@kubernetes/client-node';
import { backoffDelayMs } from '../drain/backoff.js';
import { nodeChange } from './changes.js';
import { POLL, type StepBase } from './step-context.js';
import { ANNOTATION, RETURNING, type RunDefinition } from './state.js';

/** What the return step uses, and writes: the node's phase, and the nodes the run knows cordoned. */
export interface ReturnStep extends Pick<StepBase, 'definition' | 'deps' | 'phases' | 'waits' | 'control' | 'aborted'> {
  readonly cordoned: Set<string>;
}

/**
 * The node back in service once its command ran: returning, until it is back (Ready, and with
 * --expect-reboot a new bootID), then returned, then done and uncordoned in one write. Not back in time:
 * not-returned (a resume waits for it again; its command is not run again).
 */
export async function returnStep(s: ReturnStep, batch: number, node: string): Promise<void> {
  const phase = s.phases.phaseOf(node);
  if (!RETURNING.has(phase)) return;
  if (phase !== 'returned') {
    await s.phases.set(node, batch, 'returning');
    const back = await waitUntilBack(s, node);
    if (back === 'aborted') return;
    if (back !== 'back') return s.phases.set(node, batch, 'not-returned', back);
    await s.phases.set(node, batch, 'returned');
  }
  // Uncordoned and done in one write: a node is never left uncordoned in phase returned, nor done and
  // cordoned. Its maintenance is over: the autoscaler annotations the run's cordon set go with it.
  await s.phases.set(node, batch, 'done', undefined, {
    uncordon: s.definition.options.uncordon,
    releaseAutoscalers: true,
  });
  if (s.definition.options.uncordon) s.cordoned.delete(node);
}

/** Until the node is Ready (and, with --expect-reboot, reports another bootID than before the command). */
async function waitUntilBack(s: ReturnStep, node: string): Promise<'back' | 'aborted' | string> {
  const { clock } = s.deps;
  const deadline = clock.now() + s.definition.options.nodeReadyTimeoutMs;
  let last: V1Node | undefined;
  for (let reads = 0; ; reads += 1) {
    try {
      last = await s.waits.read(`node ${node}`, () => s.deps.api.readNode(node), s.control.signal);
    } catch (err) {
      if (s.aborted()) return 'aborted';
      throw err;
    }
    if (isBack(last, s.definition.options.expectReboot)) return 'back';
    if (clock.now() >= deadline) break;
    if (!(await s.waits.changeOrTimeout(backoffDelayMs(POLL, reads), nodeChange(node)))) return 'aborted';
  }
  return notBackReason(s.definition.options, last);
}

/** Why a node is not back once --node-ready-timeout has passed, `last` as it was last read. */
export function notBackReason(
  options: Pick<RunDefinition['options'], 'nodeReadyTimeoutMs' | 'expectReboot'>,
  last: V1Node | undefined,
): string {
  const seconds = Math.round(options.nodeReadyTimeoutMs / 1000);
  return options.expectReboot && isReady(last)
    ? `still reports the bootID it had before the command after ${seconds}s (--expect-reboot)`
    : `not Ready after ${seconds}s (--node-ready-timeout)`;
}

function isReady(node: V1Node | undefined): boolean {
  return (node?.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/**
 * Ready, and with --expect-reboot another bootID than before the command. The not-ready taint the node
 * lifecycle controller lifts a moment later (1-2 s in the lab) is not waited for here: only a fresh plan
 * that is blocked waits for it (fresh-plan.ts), the other drains go on meanwhile.
 */
export function isBack(node: V1Node, expectReboot: boolean): boolean {
  if (!isReady(node)) return false;
  if (!expectReboot) return true;
  const before = node.metadata?.annotations?.[ANNOTATION.bootId];
  return before === undefined || node.status?.nodeInfo?.bootID !== before;
}
