import type { V1Pod } from '@kubernetes/client-node';
import { isMirrorPod } from '../pod-facts.js';
import { okay, skip, type PodDeleteStatus } from './status.js';

export const MIRROR_POD_SKIP = 'mirror pod of a static pod (the kubelet runs it; the API cannot delete it)';

/** mirrorPodFilter: the API-server copy of a static pod is skipped (kubectl says nothing about it). */
export function mirrorPodFilter(pod: V1Pod): PodDeleteStatus {
  return isMirrorPod(pod) ? skip(MIRROR_POD_SKIP) : okay();
}
