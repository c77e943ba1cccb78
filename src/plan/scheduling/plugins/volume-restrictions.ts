import {
  type ClusterState,
  type FilterPlugin,
  type FilterResult,
  type Rejection,
  unresolvable,
  unschedulable,
} from '../framework.js';
import { claimKeysOf, type PodClaim } from '../pod-claims.js';
import { claimKey } from '../volume-catalog.js';
import { podVolumes, volumesUnknown } from './volume-binding.js';

/** VolumeRestrictions (pkg/scheduler/framework/plugins/volumerestrictions, v1.37). */
export const READ_WRITE_ONCE_POD_CONFLICT =
  'node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode';

/** PreFilter's answer: how many of the pod's ReadWriteOncePod claims some pod already uses, or a rejection. */
export type VolumeRestrictionsPreFilter = { readonly conflicts: number } | { readonly rejection: Rejection };

/**
 * VolumeRestrictions' PreFilter for claims (`readWriteOncePodPVCsForPod`, `calPreFilterState`): every named
 * claim must exist; each ReadWriteOncePod claim that some assigned pod of the cluster uses (terminating
 * pods included: their volume is still mounted) is a conflict. Ephemeral claims are the pod's own.
 */
export function volumeRestrictionsPreFilter(
  claims: readonly PodClaim[],
  claimInUse: (key: string) => boolean,
): VolumeRestrictionsPreFilter {
  let conflicts = 0;
  for (const { name, claim, ephemeral } of claims) {
    if (ephemeral) continue;
    if (!claim) return { rejection: unresolvable(`persistentvolumeclaim "${name}" not found`) };
    if (!(claim.spec?.accessModes ?? []).includes('ReadWriteOncePod')) continue;
    if (claimInUse(claimKey(claim.metadata?.namespace ?? 'default', name))) conflicts++;
  }
  return { conflicts };
}

/**
 * VolumeRestrictions' Filter for claims: while another pod uses one of its ReadWriteOncePod claims, no
 * node takes the pod (Unschedulable: preempting that pod would free it). In-tree inline disks (GCE PD,
 * AWS EBS, iSCSI, RBD) are not compared.
 */
export function volumeRestrictions(conflicts: number): FilterResult {
  return conflicts > 0 ? unschedulable(READ_WRITE_ONCE_POD_CONFLICT) : null;
}

const NO_CONFLICTS: VolumeRestrictionsPreFilter = { conflicts: 0 };

/**
 * Whether an assigned pod uses the claim (`<namespace>/<name>`): placed replacements in, evicted pods out
 * once gone. The state's users are found once for every simulation of the state, by a scan of the
 * claim's namespace done only for ReadWriteOncePod claims.
 */
function claimInUse(cluster: ClusterState, key: string): boolean {
  const users = cluster.stateMemo(`claim-users\u0000${key}`, () =>
    cluster
      .assignedPodsInNamespace(key.slice(0, key.indexOf('/')))
      .filter((pod) => claimKeysOf(pod).includes(key))
      .map((pod) => pod.metadata?.uid ?? ''),
  );
  if (users.some((uid) => cluster.counts(uid))) return true;
  return cluster.placed.some(({ pod }) => cluster.counts(pod.uid) && claimKeysOf(pod.pod).includes(key));
}

/**
 * A pod without claims, or whose volumes the snapshot cannot tell (see volumesUnknown), has no conflict;
 * a pod none of whose ReadWriteOncePod claims is in use is skipped.
 */
export const volumeRestrictionsPlugin: FilterPlugin<VolumeRestrictionsPreFilter> = {
  name: 'VolumeRestrictions',
  reads: ['Pod', 'PersistentVolumeClaim'],
  preFilter: (pod, cluster) => {
    const volumes = podVolumes(pod, cluster);
    if (!volumes || volumesUnknown(volumes) !== null) return NO_CONFLICTS;
    return volumeRestrictionsPreFilter(volumes.claims, (key) => claimInUse(cluster, key));
  },
  rejects: (state) => ('rejection' in state ? state.rejection : null),
  skips: (_pod, state) => !('conflicts' in state) || state.conflicts === 0,
  filter: (_pod, _node, state) => volumeRestrictions('conflicts' in state ? state.conflicts : 0),
};
