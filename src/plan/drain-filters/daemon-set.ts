import type { V1Pod } from '@kubernetes/client-node';
import { controllerRef, isTerminal } from '../pod-facts.js';
import { error, okay, warning, type FilterContext, type PodDeleteStatus } from './status.js';

export const DAEMON_SET_FATAL = 'DaemonSet-managed Pods (use --ignore-daemonsets to ignore)';
export const DAEMON_SET_WARNING = 'ignoring DaemonSet-managed Pods';

/**
 * daemonSetFilter: pods whose controller is an apps/v1 DaemonSet are never evicted (the DaemonSet would
 * put them straight back, it ignores cordons). Without --ignore-daemonsets that stops the node; with it,
 * a warning. Finished DaemonSet pods are deleted. A DaemonSet that no longer exists is kubectl's GET
 * error, which --force turns into a (silently overwritten) warning and the orphan is evicted.
 *
 * When the snapshot did not load DaemonSets, the DaemonSet is assumed to exist (the plan says so).
 */
export function daemonSetFilter(pod: V1Pod, { options, index }: FilterContext): PodDeleteStatus {
  const ref = controllerRef(pod);
  if (ref?.kind !== 'DaemonSet' || ref.apiVersion !== 'apps/v1') return okay();
  if (isTerminal(pod)) return okay();
  const namespace = pod.metadata?.namespace ?? 'default';
  const missing = index.snapshot.kinds.has('DaemonSet') && !index.owner('DaemonSet', namespace, ref.name);
  if (missing) {
    const notFound = `daemonsets.apps "${ref.name}" not found`;
    return options.force ? warning(true, notFound) : error(notFound, '--force');
  }
  if (!options.ignoreDaemonSets) return error(DAEMON_SET_FATAL, '--ignore-daemonsets');
  return warning(false, DAEMON_SET_WARNING);
}
