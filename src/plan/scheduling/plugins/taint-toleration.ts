import type { V1Taint } from '@kubernetes/client-node';
import {
  type ClusterState,
  type FilterPlugin,
  type FilterResult,
  type ScorePlugin,
  unresolvable,
} from '../framework.js';
import type { NodeInfo } from '../node-info.js';
import type { PodInfo } from '../pod-info.js';
import { kubeRules, type KubeRules } from '../../kube-version.js';
import { tolerationsTolerateTaint, untoleratedDoNotScheduleTaint } from '../../tolerations.js';
import { defaultNormalizeScore } from './score-normalize.js';

/**
 * TaintToleration (pkg/scheduler/framework/plugins/tainttoleration). From 1.34.2 and 1.35 the message
 * no longer names the taint, which is logged instead; before, it did (KubeRules.taintReasonNamesTaint).
 */
export const TAINT_TOLERATION_REASON = 'node(s) had untolerated taint(s)';

/** The filter's reason for an untolerated taint, in the words of the server's version. */
export function taintReason(taint: V1Taint, rules: Pick<KubeRules, 'taintReasonNamesTaint'>): string {
  return rules.taintReasonNamesTaint
    ? `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`
    : TAINT_TOLERATION_REASON;
}

/** Every NoSchedule and NoExecute taint of the node must be tolerated; PreferNoSchedule only lowers the score. */
export function taintToleration(
  pod: PodInfo,
  node: NodeInfo,
  rules: Pick<KubeRules, 'taintReasonNamesTaint'> = { taintReasonNamesTaint: false },
): FilterResult {
  const taint = untoleratedDoNotScheduleTaint(node.taints, pod.pod.spec?.tolerations ?? []);
  return taint ? unresolvable(taintReason(taint, rules)) : null;
}

/** Its PreFilter state is the server version's rules (the wording of its reason). */
export const taintTolerationPlugin: FilterPlugin<KubeRules> = {
  name: 'TaintToleration',
  reads: ['Node'],
  preFilter: (_pod, cluster) => kubeRules(cluster.snapshot),
  filter: (pod, node, rules) => taintToleration(pod, node, rules),
};

/**
 * TaintToleration's raw score: the node's PreferNoSchedule taints the pod's tolerations (those with no
 * effect or PreferNoSchedule) do not tolerate; normalized reversed, fewer is better. One pod
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

const hasPreferNoSchedule = (node: NodeInfo): boolean => node.taints.some((t) => t.effect === 'PreferNoSchedule');

/**
 * The intolerable PreferNoSchedule taints of each of the cluster state's nodes for pods with these
 * tolerations (those the score reads), by position, worked out on first use (-1: not yet): kept for every
 * simulation of the state, whose views of a node add only the cordon's NoSchedule taint.
 */
function stateCounts(pod: PodInfo, cluster: ClusterState): { nodes: readonly NodeInfo[]; counts: Int8Array } {
  const tolerations = (pod.pod.spec?.tolerations ?? []).filter((t) => !t.effect || t.effect === 'PreferNoSchedule');
  return cluster.stateMemo(`prefer-no-schedule-counts\u0000${JSON.stringify(tolerations)}`, (nodes) => ({
    nodes,
    counts: new Int8Array(nodes.length).fill(-1),
  }));
}

/**
 * TaintToleration's score: fewer intolerable PreferNoSchedule taints score higher. Where no feasible node
 * has one, every node scores alike (100): skipped, nothing to add.
 */
export const taintTolerationScorePlugin: ScorePlugin = {
  name: 'TaintToleration',
  score: (pod, feasible, _state, cluster) => {
    // Most clusters have no PreferNoSchedule taint: every node then counts 0.
    // Asked once per cluster state of its nodes (a simulation's views add only the cordon's NoSchedule
    // taint), not of the hundreds of feasible nodes each placement scores.
    const anyPreferred = cluster.stateMemo('prefer-no-schedule-taints', (nodes) => nodes.some(hasPreferNoSchedule));
    if (!anyPreferred) return null;
    const { nodes, counts } = stateCounts(pod, cluster);
    let counter: ((node: NodeInfo) => number) | null = null;
    const raw = new Array<number>(feasible.length);
    let max = 0;
    for (let i = 0; i < feasible.length; i++) {
      const node = feasible[i]!;
      const at = node.position;
      // A view of the state's node has its taints (a cordoned one a NoSchedule more, which is not counted).
      const same = nodes[at]?.node === node.node;
      let n = same ? counts[at]! : -1;
      if (n < 0) {
        n = (counter ??= intolerablePreferNoScheduleCounter(pod))(node);
        if (same && n <= 127) counts[at] = n;
      }
      raw[i] = n;
      if (n > max) max = n;
    }
    return max === 0 ? null : defaultNormalizeScore(raw, true);
  },
};
