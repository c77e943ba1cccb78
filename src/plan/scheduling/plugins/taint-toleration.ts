import { type FilterPlugin, type FilterResult, unresolvable } from '../framework.js';
import type { NodeInfo } from '../node-info.js';
import type { PodInfo } from '../pod-info.js';
import { tolerationsTolerateTaint, untoleratedDoNotScheduleTaint } from '../../tolerations.js';

/**
 * TaintToleration (pkg/scheduler/framework/plugins/tainttoleration, v1.37). Since 1.35 the message no
 * longer names the taint ("node(s) had untolerated taint {key: value}" before); the key is logged at V(4).
 */
export const TAINT_TOLERATION_REASON = 'node(s) had untolerated taint(s)';

/** Every NoSchedule and NoExecute taint of the node must be tolerated; PreferNoSchedule only lowers the score. */
export function taintToleration(pod: PodInfo, node: NodeInfo): FilterResult {
  const taint = untoleratedDoNotScheduleTaint(node.taints, pod.pod.spec?.tolerations ?? []);
  return taint ? unresolvable(TAINT_TOLERATION_REASON) : null;
}

export const taintTolerationPlugin: FilterPlugin = {
  name: 'TaintToleration',
  reads: ['Node'],
  filter: (pod, node) => taintToleration(pod, node),
};

/**
 * TaintToleration's raw score: the node's PreferNoSchedule taints the pod's tolerations (those with no
 * effect or PreferNoSchedule) do not tolerate; normalized reversed, fewer is better (weight 3). One pod
 * is scored on many nodes: its tolerations are sorted out once.
 */
export function intolerablePreferNoScheduleCounter(pod: PodInfo): (node: NodeInfo) => number {
  const tolerations = (pod.pod.spec?.tolerations ?? []).filter((t) => !t.effect || t.effect === 'PreferNoSchedule');
  return (node) => {
    let n = 0;
    for (const t of node.taints) if (t.effect === 'PreferNoSchedule' && !tolerationsTolerateTaint(tolerations, t)) n++;
    return n;
  };
}
