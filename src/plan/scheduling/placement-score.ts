import type { V1Toleration } from '@kubernetes/client-node';
import type { NodeInfo } from './node-info.js';
import type { PodInfo } from './pod-info.js';
import type { CycleState } from './framework.js';
import { tolerationsTolerateTaint } from '../tolerations.js';
import { spreadLoad } from './plugins/topology-spread.js';

/**
 * Which feasible node the replacement lands on. The real scheduler sums weighted scores from several
 * plugins and breaks ties at random; this approximation is deterministic and ranks, in turn:
 * 1. fewer untolerated PreferNoSchedule taints (TaintToleration, the heaviest score weight);
 * 2. fewer matching pods in the node's domains of the pod's DoNotSchedule spread constraints (lowest skew);
 * 3. fewer siblings on the node: pods of the namespace that carry all of the pod's labels, standing in for
 *    the default ScheduleAnyway spreading and preferred anti-affinity that replicas usually get;
 * 4. the least allocated node after placing the pod (NodeResourcesFit's LeastAllocated on cpu and memory);
 * 5. the node name.
 */
export function pickNode(
  pod: PodInfo,
  feasible: readonly NodeInfo[],
  state: CycleState,
  siblings: ReadonlyMap<NodeInfo, number>,
): NodeInfo | null {
  const preferTolerations = (pod.pod.spec?.tolerations ?? []).filter(
    (t) => !t.effect || t.effect === 'PreferNoSchedule',
  );
  // The best node's rank, criterion by criterion, compared in turn (no rank built per node: a placement
  // ranks hundreds), so a node is dropped at the first criterion it loses on.
  let best: NodeInfo | null = null;
  let bestTaints = 0;
  let bestLoad = 0;
  let bestSiblings = 0;
  let bestFree = 0;
  for (const node of feasible) {
    const taints = preferNoScheduleTaints(preferTolerations, node);
    if (best !== null && taints > bestTaints) continue;
    const tiedTaints = best !== null && taints === bestTaints;
    const load = spreadLoad(state.spread, node);
    if (tiedTaints && load > bestLoad) continue;
    const tiedLoad = tiedTaints && load === bestLoad;
    const siblingCount = siblings.get(node) ?? 0;
    if (tiedLoad && siblingCount > bestSiblings) continue;
    const tiedSiblings = tiedLoad && siblingCount === bestSiblings;
    const free = leastAllocated(pod, node);
    if (tiedSiblings && (free < bestFree || (free === bestFree && node.name > best!.name))) continue;
    best = node;
    bestTaints = taints;
    bestLoad = load;
    bestSiblings = siblingCount;
    bestFree = free;
  }
  return best;
}

function preferNoScheduleTaints(tolerations: readonly V1Toleration[], node: NodeInfo): number {
  let n = 0;
  for (const t of node.taints) if (t.effect === 'PreferNoSchedule' && !tolerationsTolerateTaint(tolerations, t)) n++;
  return n;
}

/** Mean free fraction of cpu and memory once the pod is added (0 when the node has none). */
function leastAllocated(pod: PodInfo, node: NodeInfo): number {
  return (free(pod, node, 'cpu') + free(pod, node, 'memory')) / 2;
}

function free(pod: PodInfo, node: NodeInfo, name: string): number {
  const allocatable = node.allocatable[name] ?? 0;
  if (allocatable <= 0) return 0;
  return (allocatable - (node.requested[name] ?? 0) - (pod.requests[name] ?? 0)) / allocatable;
}
