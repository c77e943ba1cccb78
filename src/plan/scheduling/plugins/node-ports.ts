import { type FilterPlugin, type FilterResult, unschedulable } from '../framework.js';
import type { NodeInfo } from '../node-info.js';
import type { PodInfo } from '../pod-info.js';

/** NodePorts (pkg/scheduler/framework/plugins/nodeports, v1.37). */
export const NODE_PORTS_REASON = "node(s) didn't have free ports for the requested pod ports";

export function nodePorts(pod: PodInfo, node: NodeInfo): FilterResult {
  return pod.hostPorts.some((p) => node.usedPorts.conflicts(p)) ? unschedulable(NODE_PORTS_REASON) : null;
}

/** Its PreFilter is PodInfo.hostPorts; a pod without host ports is skipped. */
export const nodePortsPlugin: FilterPlugin = {
  name: 'NodePorts',
  reads: ['Node', 'Pod'],
  skips: (pod) => pod.hostPorts.length === 0,
  filter: (pod, node) => nodePorts(pod, node),
};
