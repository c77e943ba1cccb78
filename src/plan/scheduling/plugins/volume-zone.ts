import type { V1PersistentVolume } from '@kubernetes/client-node';
import { type FilterPlugin, type FilterResult, type Rejection, unresolvable } from '../framework.js';
import type { NodeInfo } from '../node-info.js';
import type { PodClaim } from '../pod-claims.js';
import { claimClass, type VolumeCatalog, volumeCatalog } from '../volume-catalog.js';
import { podVolumes, volumeBinding, volumeBindingPlugin, volumesUnknown } from './volume-binding.js';

/** VolumeZone (pkg/scheduler/framework/plugins/volumezone, v1.37). */
export const VOLUME_ZONE_CONFLICT = 'node(s) had no available volume zone';

const BETA_ZONE = 'failure-domain.beta.kubernetes.io/zone';
const BETA_REGION = 'failure-domain.beta.kubernetes.io/region';
const ZONE = 'topology.kubernetes.io/zone';
const REGION = 'topology.kubernetes.io/region';
/** The PV labels read, in upstream's order (`topologyLabels`). */
const TOPOLOGY_LABELS = [BETA_ZONE, BETA_REGION, ZONE, REGION] as const;
const GA_LABEL: Readonly<Record<string, string>> = { [BETA_ZONE]: ZONE, [BETA_REGION]: REGION };

/** One zone or region label of a bound PV, with the values it allows. */
export interface VolumeTopology {
  readonly key: string;
  readonly values: ReadonlySet<string>;
}

/** PreFilter's answer: the PVs' topology (empty: Skip), or a rejection of every node. */
export type VolumeZonePreFilter =
  { readonly topologies: readonly VolumeTopology[] } | { readonly rejection: Rejection };

/**
 * VolumeZone's PreFilter (`getPVbyPod`): only named claims count (not ephemeral volumes). An unbound
 * claim of a WaitForFirstConsumer class has no zone yet; any other unbound claim, a claim or class or PV
 * that does not exist, rejects every node.
 */
export function volumeZonePreFilter(claims: readonly PodClaim[], catalog: VolumeCatalog): VolumeZonePreFilter {
  const topologies: VolumeTopology[] = [];
  for (const { name, claim, ephemeral } of claims) {
    if (ephemeral) continue;
    if (!claim) return { rejection: unresolvable(`persistentvolumeclaim "${name}" not found`) };
    const volumeName = claim.spec?.volumeName ?? '';
    if (volumeName === '') {
      const className = claimClass(claim);
      if (className === '') {
        return { rejection: unresolvable('PersistentVolumeClaim had no pv name and storageClass name') };
      }
      const storageClass = catalog.storageClass(className);
      if (!storageClass) return { rejection: unresolvable(`storageclass.storage.k8s.io "${className}" not found`) };
      if (!storageClass.volumeBindingMode) {
        return { rejection: unresolvable(`VolumeBindingMode not set for StorageClass "${className}"`) };
      }
      if (storageClass.volumeBindingMode === 'WaitForFirstConsumer') continue;
      return { rejection: unresolvable('PersistentVolume had no name') };
    }
    const volume = catalog.volume(volumeName);
    if (!volume) return { rejection: unresolvable(`persistentvolume "${volumeName}" not found`) };
    topologies.push(...volumeTopologies(volume));
  }
  return { topologies };
}

/** `getPVTopologies`: each zone/region label of the PV, its value split on "__"; a value that does not parse is ignored. */
export function volumeTopologies(volume: V1PersistentVolume): VolumeTopology[] {
  const labels = volume.metadata?.labels ?? {};
  const out: VolumeTopology[] = [];
  for (const key of TOPOLOGY_LABELS) {
    const value = labels[key];
    if (value === undefined) continue;
    const zones = labelZonesToSet(value);
    if (zones) out.push({ key, values: zones });
  }
  return out;
}

/** `LabelZonesToSet`: "a__b" is {a, b}; an empty element (after trimming) makes the label unusable. */
function labelZonesToSet(value: string): Set<string> | null {
  const zones = value.split('__').map((z) => z.trim());
  return zones.some((z) => z === '') ? null : new Set(zones);
}

/**
 * VolumeZone's Filter: a node with none of the four labels passes (a single-zone cluster); otherwise each
 * PV label must be on the node (a beta key may be matched by the node's GA key) with an allowed value.
 */
export function volumeZone(topologies: readonly VolumeTopology[], node: NodeInfo): FilterResult {
  if (!TOPOLOGY_LABELS.some((key) => key in node.labels)) return null;
  for (const { key, values } of topologies) {
    let value = node.labels[key];
    if (value === undefined && GA_LABEL[key] !== undefined) value = node.labels[GA_LABEL[key]];
    if (value === undefined || !values.has(value)) return unresolvable(VOLUME_ZONE_CONFLICT);
  }
  return null;
}

/**
 * A pod without claims, or whose volumes the snapshot cannot tell (see volumesUnknown), has no state
 * (null); one whose bound volumes have no zone or region is skipped.
 */
export const volumeZonePlugin: FilterPlugin<VolumeZonePreFilter | null> = {
  name: 'VolumeZone',
  reads: ['Node', 'PersistentVolumeClaim', 'PersistentVolume', 'StorageClass'],
  preFilter: (pod, cluster) => {
    const volumes = podVolumes(pod, cluster);
    return !volumes || volumesUnknown(volumes) !== null
      ? null
      : volumeZonePreFilter(volumes.claims, volumeCatalog(cluster.snapshot));
  },
  rejects: (state) => (state && 'rejection' in state ? state.rejection : null),
  skips: (_pod, state) => !state || !('topologies' in state) || state.topologies.length === 0,
  filter: (_pod, node, state) => volumeZone(state && 'topologies' in state ? state.topologies : [], node),
  /**
   * The nodes the pod's volumes allow: VolumeBinding's (its PVs' node affinity) and VolumeZone's, which
   * read only the node and the storage objects (a local PV on a drained node; a zonal disk whose zone has
   * no other node with room).
   */
  narrows: (zones, cycle) => {
    const binding = cycle.read(volumeBindingPlugin);
    if (!binding || !('state' in binding) || !zones || !('topologies' in zones)) return null;
    const { state } = binding;
    const { topologies } = zones;
    return (node) => volumeBinding(state, node) === null && volumeZone(topologies, node) === null;
  },
};
