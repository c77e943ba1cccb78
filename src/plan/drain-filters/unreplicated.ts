import type { V1Pod } from '@kubernetes/client-node';
import { controllerRef, isTerminal } from '../pod-facts.js';
import { error, okay, warning, type FilterContext, type PodDeleteStatus } from './status.js';

/** kubectl 1.36+ wording (earlier releases printed "cannot delete cannot delete …"). */
export const UNMANAGED_FATAL = 'Pods that declare no controller (use --force to override)';
export const UNMANAGED_WARNING = 'deleting Pods that declare no controller';

/**
 * unreplicatedFilter: a running pod with no controller owner reference (of any kind: Job, operators,
 * Node for static pods all count) would not come back, so it stops the node unless --force.
 */
export function unreplicatedFilter(pod: V1Pod, { options }: FilterContext): PodDeleteStatus {
  if (isTerminal(pod) || controllerRef(pod)) return okay();
  return options.force ? warning(true, UNMANAGED_WARNING) : error(UNMANAGED_FATAL, '--force');
}
