import type { Rejection } from './framework.js';
import type { NodeInfo } from './node-info.js';
import type { NodeRejection } from '../types.js';
import { NOT_HELPFUL_REASON, PREEMPT_NEVER_MESSAGE } from './plugins/default-preemption.js';

export interface NodeRejected {
  readonly node: NodeInfo;
  readonly rejection: Rejection;
  /** How the plan lists it, where one listing is kept for every simulation of the cluster state. */
  readonly listed?: NodeRejection;
}

/**
 * The FailedScheduling message (`FitError.Error`, v1.37): "0/N nodes are available: " then one
 * "<count> <reason>" per distinct reason over the rejected nodes, sorted as strings and joined by ", ",
 * then "."; then DefaultPreemption's own message (`preemption`, see preemptionFailure).
 */
export function failedSchedulingMessage(
  totalNodes: number,
  rejected: readonly NodeRejected[],
  preemption: string,
  /** A PreFilter's rejection of every node: its text stands alone, not counted per node. */
  preFilterMessage?: string,
): string {
  const available =
    preFilterMessage === undefined
      ? nodesAvailable(
          totalNodes,
          rejected.flatMap((r) => r.rejection.reasons),
        )
      : `0/${totalNodes} nodes are available: ${preFilterMessage}.`;
  return `${available} ${preemption}`;
}

function nodesAvailable(totalNodes: number, reasons: readonly string[]): string {
  const histogram = new Map<string, number>();
  for (const reason of reasons) histogram.set(reason, (histogram.get(reason) ?? 0) + 1);
  const entries = [...histogram].map(([reason, n]) => `${n} ${reason}`).sort();
  return entries.length > 0
    ? `0/${totalNodes} nodes are available: ${entries.join(', ')}.`
    : `0/${totalNodes} nodes are available:`;
}

/**
 * DefaultPreemption's message when it finds no candidate: a pod with preemptionPolicy Never is not
 * eligible (`never`); otherwise its own FitError, each node the dry run tried counted under the reasons
 * it failed with ("No preemption victims found for incoming pod", or a filter's reason when the pod does
 * not fit even with every lower-priority pod gone) and every other node as "Preemption is not helpful
 * for scheduling" (rejected as UnschedulableAndUnresolvable, so not tried).
 */
export function preemptionFailure(totalNodes: number, tried: readonly NodeRejected[], never = false): string {
  if (never) return `preemption: ${PREEMPT_NEVER_MESSAGE}`;
  const reasons = tried.flatMap((t) => t.rejection.reasons);
  for (let i = tried.length; i < totalNodes; i++) reasons.push(NOT_HELPFUL_REASON);
  return `preemption: ${nodesAvailable(totalNodes, reasons)}`;
}
