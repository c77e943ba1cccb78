import { type FilterPlugin, type FilterResult, type Rejection } from '../framework.js';
import { hotResourceIndex, type NodeInfo } from '../node-info.js';
import type { PodInfo } from '../pod-info.js';

/** NodeResourcesFit (pkg/scheduler/framework/plugins/noderesources/fit.go, v1.37). */
export const TOO_MANY_PODS_REASON = 'Too many pods';
export const insufficientReason = (resource: string) => `Insufficient ${resource}`;

const NATIVE = ['cpu', 'memory', 'ephemeral-storage'];

/**
 * Scalar resources the filter checks besides cpu, memory and ephemeral-storage: hugepages-* and
 * extended resources (a domain-qualified name such as nvidia.com/gpu), as `IsScalarResourceName`.
 */
const isScalarResource = (name: string) => name.startsWith('hugepages-') || name.includes('/');

/** One resource the pod requests (> 0) and the filter checks. */
export interface ResourceRequest {
  readonly name: string;
  readonly amount: number;
  /** Its position in the NodeInfo's hot arrays, -1 for one read by name. */
  readonly hot: number;
}

/**
 * PreFilter: the requested (> 0) resources the filter checks, in fit.go's order: cpu, memory,
 * ephemeral-storage, then scalar resources.
 */
export function nodeResourcesFitPreFilter(pod: PodInfo): ResourceRequest[] {
  const scalars = Object.keys(pod.requests).filter(isScalarResource).sort();
  return [...NATIVE, ...scalars]
    .map((name) => ({ name, amount: pod.requests[name] ?? 0, hot: hotResourceIndex(name) }))
    .filter((r) => r.amount > 0);
}

/**
 * `fitsRequest`: one more pod must stay within allocatable `pods`; each resource the pod requests (> 0)
 * must fit in allocatable minus what the node's pods already request (terminating pods included, and
 * replacements placed earlier in the simulation). A pod that requests nothing only needs a pod slot.
 * Several reasons can come back at once. The code is UnschedulableAndUnresolvable when a request exceeds
 * the node's whole allocatable, since evicting pods cannot help then.
 */
export function nodeResourcesFit(requests: readonly ResourceRequest[], node: NodeInfo): FilterResult {
  return fits(requests, node) ? null : misfit(requests, node);
}

/** The common case, checked without building anything: every node a placement filters goes through here. */
function fits(requests: readonly ResourceRequest[], node: NodeInfo): boolean {
  if (node.podCount + 1 > node.allocatablePods) return false;
  const { hotAllocatable, hotRequested } = node;
  for (let i = 0; i < requests.length; i++) {
    const { name, amount, hot } = requests[i]!;
    const free =
      hot >= 0
        ? hotAllocatable[hot]! - hotRequested[hot]!
        : (node.allocatable[name] ?? 0) - (node.requested[name] ?? 0);
    if (amount > free) return false;
  }
  return true;
}

function misfit(requests: readonly ResourceRequest[], node: NodeInfo): FilterResult {
  const reasons: string[] = [];
  let unresolvable = false;
  if (node.podCount + 1 > (node.allocatable['pods'] ?? 0)) reasons.push(TOO_MANY_PODS_REASON);
  for (const { name, amount } of requests) {
    const allocatable = node.allocatable[name] ?? 0;
    if (amount > allocatable - (node.requested[name] ?? 0)) {
      reasons.push(insufficientReason(name));
      unresolvable ||= amount > allocatable;
    }
  }
  if (reasons.length === 0) return null;
  const rejection: Rejection = { code: unresolvable ? 'UnschedulableAndUnresolvable' : 'Unschedulable', reasons };
  return rejection;
}

export const nodeResourcesFitPlugin: FilterPlugin<readonly ResourceRequest[]> = {
  name: 'NodeResourcesFit',
  reads: ['Node', 'Pod'],
  preFilter: nodeResourcesFitPreFilter,
  filter: (_pod, node, requests) => nodeResourcesFit(requests, node),
  sharedVerdictKey: (requests) => JSON.stringify(requests),
  isRoomReason: (reason) => reason === TOO_MANY_PODS_REASON || reason.startsWith(insufficientReason('')),
};
