import { type FilterPlugin, type FilterResult, unresolvable } from '../framework.js';
import type { NodeInfo } from '../node-info.js';
import type { PodInfo } from '../pod-info.js';
import { tolerationsTolerateTaint, UNSCHEDULABLE_TAINT } from '../../tolerations.js';

/** NodeUnschedulable (pkg/scheduler/framework/plugins/nodeunschedulable, v1.37). */
export const NODE_UNSCHEDULABLE_REASON = 'node(s) were unschedulable';

/** A cordoned node (spec.unschedulable) takes only pods that tolerate node.kubernetes.io/unschedulable:NoSchedule. */
export function nodeUnschedulable(pod: PodInfo, node: NodeInfo): FilterResult {
  if (!node.unschedulable) return null;
  if (tolerationsTolerateTaint(pod.pod.spec?.tolerations ?? [], UNSCHEDULABLE_TAINT)) return null;
  return unresolvable(NODE_UNSCHEDULABLE_REASON);
}

export const nodeUnschedulablePlugin: FilterPlugin = {
  name: 'NodeUnschedulable',
  reads: ['Node'],
  filter: (pod, node) => nodeUnschedulable(pod, node),
};
