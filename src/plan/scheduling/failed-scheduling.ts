import type { Rejection } from './framework.js';
import type { NodeInfo } from './node-info.js';
import type { PodInfo } from './pod-info.js';
import { plural } from '../../wording.js';

export interface NodeRejected {
  readonly node: NodeInfo;
  readonly rejection: Rejection;
}

const NOT_HELPFUL = 'Preemption is not helpful for scheduling';
const NO_VICTIMS = 'No preemption victims found for incoming pod';

/**
 * The FailedScheduling message (`FitError.Error`, v1.37): "0/N nodes are available: " then one
 * "<count> <reason>" per distinct reason over the rejected nodes, sorted as strings and joined by ", ",
 * then "."; then DefaultPreemption's own message after "preemption: ".
 */
export function failedSchedulingMessage(
  pod: PodInfo,
  totalNodes: number,
  rejected: readonly NodeRejected[],
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
  return `${available} ${preemptionMessage(pod, totalNodes, rejected)}`;
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
 * What DefaultPreemption would add, as far as the snapshot tells: a pod with preemptionPolicy Never is
 * not eligible; nodes rejected as UnschedulableAndUnresolvable are not candidates ("Preemption is not
 * helpful"); an Unschedulable node without lower-priority pods has no victims. When an Unschedulable
 * node does hold lower-priority pods, preemption might make room there; that dry run is not simulated,
 * and the message says so instead of guessing.
 */
function preemptionMessage(pod: PodInfo, totalNodes: number, rejected: readonly NodeRejected[]): string {
  if (pod.pod.spec?.preemptionPolicy === 'Never') return 'preemption: not eligible due to preemptionPolicy=Never.';
  const candidates = rejected.filter((r) => r.rejection.code === 'Unschedulable');
  const withVictims = candidates.filter((r) => r.node.lowestPriority < pod.priority).length;
  if (withVictims > 0) {
    return `preemption: not simulated (${plural(withVictims, 'node')} ${withVictims === 1 ? 'holds' : 'hold'} lower-priority pods that preemption might evict).`;
  }
  const outcome = candidates.length > 0 ? [`${candidates.length} ${NO_VICTIMS}`] : [];
  if (totalNodes > candidates.length) outcome.push(`${totalNodes - candidates.length} ${NOT_HELPFUL}`);
  return `preemption: 0/${totalNodes} nodes are available: ${outcome.sort().join(', ')}.`;
}
