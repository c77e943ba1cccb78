import type { NodeInfo } from './node-info.js';
import type { PodInfo } from './pod-info.js';
import type { CycleState } from './registry.js';
import { tolerationsTolerateTaint } from './tolerations.js';
import { spreadLoad } from './topology-spread.js';

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
  const rank = (node: NodeInfo) => [
    preferNoScheduleTaints(pod, node),
    spreadLoad(state.spread, node),
    siblings.get(node) ?? 0,
    -leastAllocated(pod, node),
  ];
  let best: NodeInfo | null = null;
  let bestRank: number[] = [];
  for (const node of feasible) {
    const r = rank(node);
    if (best === null || compare(r, bestRank) < 0 || (compare(r, bestRank) === 0 && node.name < best.name)) {
      best = node;
      bestRank = r;
    }
  }
  return best;
}

function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

function preferNoScheduleTaints(pod: PodInfo, node: NodeInfo): number {
  const tolerations = (pod.pod.spec?.tolerations ?? []).filter((t) => !t.effect || t.effect === 'PreferNoSchedule');
  return node.taints.filter((t) => t.effect === 'PreferNoSchedule' && !tolerationsTolerateTaint(tolerations, t)).length;
}

/** Mean free fraction of cpu and memory once the pod is added (0 when the node has none). */
function leastAllocated(pod: PodInfo, node: NodeInfo): number {
  const free = (name: string) => {
    const allocatable = node.allocatable[name] ?? 0;
    if (allocatable <= 0) return 0;
    return (allocatable - (node.requested[name] ?? 0) - (pod.requests[name] ?? 0)) / allocatable;
  };
  return (free('cpu') + free('memory')) / 2;
}
