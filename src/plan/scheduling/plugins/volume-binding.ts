import type {
  V1CSIStorageCapacity,
  V1PersistentVolume,
  V1PersistentVolumeClaim,
  V1StorageClass,
  V1TopologySelectorTerm,
} from '@kubernetes/client-node';
import { matchesLabelSelector } from '../../../snapshot/label-selector.js';
import { resourceAmount } from '../../../snapshot/quantity.js';
import { type FilterPlugin, type FilterResult, type Rejection, unresolvable } from '../framework.js';
import type { NodeInfo } from '../node-info.js';
import type { PodClaim } from '../pod-claims.js';
import { claimClass, isClaimBound, SELECTED_NODE, type VolumeCatalog, volumeCatalog } from '../volume-catalog.js';
import { type NodeMatcher, nodeSelectorMatcher } from '../node-selector.js';
import { kindPlural } from '../../../wording.js';
import type { ClusterState } from '../framework.js';
import type { PodInfo } from '../pod-info.js';
import { hasClaimVolumes, replacementClaims } from '../pod-claims.js';

/** VolumeBinding's reasons (pkg/scheduler/framework/plugins/volumebinding/binder.go, v1.37). */
export const VOLUME_NODE_CONFLICT = "node(s) didn't match PersistentVolume's node affinity";
export const VOLUME_BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind";
export const VOLUME_NOT_ENOUGH_SPACE = 'node(s) did not have enough free storage';
export const VOLUME_PV_NOT_EXIST = 'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)';
export const UNBOUND_IMMEDIATE_CLAIMS = 'pod has unbound immediate PersistentVolumeClaims';

const NO_PROVISIONER = 'kubernetes.io/no-provisioner';

/** A bound claim and its PersistentVolume (undefined when it does not exist), with the PV's node affinity. */
interface BoundVolume {
  readonly claim: V1PersistentVolumeClaim;
  readonly volume: V1PersistentVolume | undefined;
  readonly affinity: NodeMatcher | null;
}

/** An unbound WaitForFirstConsumer claim: bound, or provisioned, where the pod lands. */
interface DelayedClaim {
  readonly claim: V1PersistentVolumeClaim;
  readonly className: string;
  /** resources.requests.storage in bytes (0 when absent). */
  readonly request: number;
}

export interface VolumeBindingState {
  readonly bound: readonly BoundVolume[];
  /** Sorted by requested size, smallest first (`byPVCSize`): each takes the smallest PV that fits. */
  readonly delayed: readonly DelayedClaim[];
  readonly catalog: VolumeCatalog;
}

/** PreFilter's answer: the state for Filter, a rejection of every node, or why the snapshot cannot tell. */
export type VolumeBindingPreFilter =
  { readonly state: VolumeBindingState } | { readonly rejection: Rejection } | { readonly unknown: string };

/**
 * VolumeBinding's PreFilter (`podHasPVCs`, `GetPodVolumeClaims`, `GetEligibleNodes`): every claim must
 * exist, not be Lost nor being deleted; a bound claim (volumeName and the bind-completed annotation)
 * brings its PV's node affinity; an unbound claim of a WaitForFirstConsumer class is matched per node;
 * any other unbound claim rejects every node. A kind the snapshot did not read makes the answer unknown.
 * No PreFilterResult narrows the nodes to those local PVs name (`GetEligibleNodes` in some upstream
 * versions): kube-scheduler v1.37.2 filters every node, so the others are counted under
 * "didn't match PersistentVolume's node affinity" (seen in the lab, scenario volumes).
 */
export function volumeBindingPreFilter(claims: readonly PodClaim[], catalog: VolumeCatalog): VolumeBindingPreFilter {
  const named = claims.some((c) => !c.ephemeral);
  if (named && !catalog.has('PersistentVolumeClaim')) return { unknown: notRead('PersistentVolumeClaim') };
  for (const { name, claim } of claims) {
    if (!claim) return { rejection: unresolvable(`persistentvolumeclaim "${name}" not found`) };
    if (claim.status?.phase === 'Lost') {
      const volume = claim.spec?.volumeName ?? '';
      return {
        rejection: unresolvable(`persistentvolumeclaim "${name}" bound to non-existent persistentvolume "${volume}"`),
      };
    }
    if (claim.metadata?.deletionTimestamp) {
      return { rejection: unresolvable(`persistentvolumeclaim "${name}" is being deleted`) };
    }
  }
  const bound: BoundVolume[] = [];
  const delayed: DelayedClaim[] = [];
  for (const { claim } of claims as ReadonlyArray<PodClaim & { claim: V1PersistentVolumeClaim }>) {
    if (isClaimBound(claim)) {
      if (!catalog.has('PersistentVolume')) return { unknown: notRead('PersistentVolume') };
      const volume = catalog.volume(claim.spec!.volumeName!);
      bound.push({ claim, volume, affinity: volume ? volumeAffinity(volume) : null });
      continue;
    }
    if (!catalog.has('StorageClass')) return { unknown: notRead('StorageClass') };
    const className = claimClass(claim);
    if (!isDelayBinding(catalog.storageClass(className)) || claim.spec?.volumeName) {
      return { rejection: unresolvable(UNBOUND_IMMEDIATE_CLAIMS) };
    }
    if (!catalog.has('PersistentVolume')) return { unknown: notRead('PersistentVolume') };
    delayed.push({ claim, className, request: storageRequest(claim) });
  }
  delayed.sort((a, b) => a.request - b.request);
  return { state: { bound, delayed, catalog } };
}

function notRead(kind: string): string {
  return `${kindPlural(kind)} were not read, so whether a node can mount the replacement's claims is not known`;
}

/** `IsDelayBindingMode`: the class exists and waits for the first consumer (a class without a mode is Immediate). */
function isDelayBinding(storageClass: V1StorageClass | undefined): boolean {
  return storageClass?.volumeBindingMode === 'WaitForFirstConsumer';
}

/** A PV's required node affinity; null when it has none (every node). */
function volumeAffinity(volume: V1PersistentVolume): NodeMatcher | null {
  const required = volume.spec?.nodeAffinity?.required;
  return required ? nodeSelectorMatcher(required.nodeSelectorTerms) : null;
}

/** What FindPodVolumes finds on one node: its conflicts, and the claims it would have provisioned there. */
export interface PodVolumesOnNode {
  readonly reasons: readonly string[];
  readonly provisioned: readonly DelayedClaim[];
}

// One of each, shared: the filter refuses many nodes of every placement, and a rejection is only read.
const PV_MISSING = unresolvable(VOLUME_PV_NOT_EXIST);
const NODE_CONFLICT = unresolvable(VOLUME_NODE_CONFLICT);

/**
 * VolumeBinding's Filter (`FindPodVolumes`): bound claims' PVs must exist and their node affinity match
 * the node; each unbound claim takes the smallest Available PV that fits here, or else its class must be
 * able to provision here (a provisioner, allowedTopologies, published capacity). The reasons come in the
 * binder's order, all UnschedulableAndUnresolvable.
 */
export function volumeBinding(state: VolumeBindingState, node: NodeInfo): FilterResult {
  // Bound claims only (a StatefulSet's, reused): the first missing PV or node conflict decides, as in
  // findPodVolumes, without what it builds for claims still to bind, on every node a placement checks.
  if (state.delayed.length === 0) {
    for (const { volume, affinity } of state.bound) {
      if (!volume) return PV_MISSING;
      if (affinity && !affinity(node)) return NODE_CONFLICT;
    }
    return null;
  }
  const { reasons } = findPodVolumes(state, node);
  return reasons.length > 0 ? unresolvable(...reasons) : null;
}

export function findPodVolumes(state: VolumeBindingState, node: NodeInfo): PodVolumesOnNode {
  let nodeConflict = false;
  let bindConflict = false;
  let notEnoughSpace = false;
  let volumeMissing = false;
  const provisioned: DelayedClaim[] = [];
  for (const { volume, affinity } of state.bound) {
    if (!volume) {
      volumeMissing = true;
      break;
    }
    if (affinity && !affinity(node)) {
      nodeConflict = true;
      break;
    }
  }
  const toMatch: DelayedClaim[] = [];
  const toProvision: DelayedClaim[] = [];
  let fastPathMiss = false;
  for (const delayed of state.delayed) {
    const selected = delayed.claim.metadata?.annotations?.[SELECTED_NODE];
    if (selected === undefined) toMatch.push(delayed);
    else if (selected !== node.name) {
      fastPathMiss = true;
      break;
    } else toProvision.push(delayed);
  }
  if (fastPathMiss) bindConflict = true;
  else {
    const chosen = new Set<string>();
    for (const delayed of toMatch) {
      const volume = findMatchingVolume(delayed, state.catalog.volumesOfClass(delayed.className), node, chosen);
      if (volume) chosen.add(volume.metadata?.name ?? '');
      else {
        bindConflict = true;
        toProvision.push(delayed);
      }
    }
    if (toProvision.length > 0) {
      // The provisioning check decides the claims left: a static miss is fine when the class provisions here.
      const outcome = checkVolumeProvisions(toProvision, state.catalog, node);
      if ('error' in outcome) return { reasons: [outcome.error], provisioned };
      bindConflict = !outcome.satisfied;
      notEnoughSpace = !outcome.sufficient;
      if (outcome.satisfied && outcome.sufficient) provisioned.push(...toProvision);
    }
  }
  const reasons: string[] = [];
  if (nodeConflict) reasons.push(VOLUME_NODE_CONFLICT);
  if (bindConflict) reasons.push(VOLUME_BIND_CONFLICT);
  if (notEnoughSpace) reasons.push(VOLUME_NOT_ENOUGH_SPACE);
  if (volumeMissing) reasons.push(VOLUME_PV_NOT_EXIST);
  return { reasons, provisioned };
}

/**
 * `FindMatchingVolume` on the scheduler's path (component-helpers storage/volume/pv_helpers.go): a PV
 * pre-bound to the claim wins if its node affinity holds here, and otherwise nothing does; else the
 * smallest Available PV of the class, big enough, of the same volume mode, not being deleted, matching
 * the claim's selector, the node and every access mode the claim asks for.
 */
export function findMatchingVolume(
  delayed: DelayedClaim,
  volumes: readonly V1PersistentVolume[],
  node: NodeInfo,
  excluded: ReadonlySet<string>,
): V1PersistentVolume | null {
  const { claim, className, request } = delayed;
  let smallest: V1PersistentVolume | null = null;
  let smallestSize = Infinity;
  for (const volume of volumes) {
    const spec = volume.spec ?? {};
    if (excluded.has(volume.metadata?.name ?? '')) continue;
    const preBound = isVolumeBoundToClaim(volume, claim);
    if (spec.claimRef && !preBound) continue;
    const size = storageOf(spec.capacity);
    if (size < request) continue;
    if ((spec.volumeMode ?? 'Filesystem') !== (claim.spec?.volumeMode ?? 'Filesystem')) continue;
    if (volume.metadata?.deletionTimestamp) continue;
    const affinity = volumeAffinity(volume);
    const affinityValid = affinity === null || affinity(node);
    if (preBound) return affinityValid ? volume : null;
    if (volume.status?.phase !== 'Available') continue;
    if (claim.spec?.selector && !matchesLabelSelector(volume.metadata?.labels, claim.spec.selector)) continue;
    if ((spec.storageClassName ?? '') !== className) continue;
    if (!affinityValid) continue;
    const modes = spec.accessModes ?? [];
    if (!(claim.spec?.accessModes ?? []).every((m) => modes.includes(m))) continue;
    if (size < smallestSize) {
      smallest = volume;
      smallestSize = size;
    }
  }
  return smallest;
}

/** `IsVolumeBoundToClaim`: the PV's claimRef names the claim (and its uid, when the claimRef has one). */
function isVolumeBoundToClaim(volume: V1PersistentVolume, claim: V1PersistentVolumeClaim): boolean {
  const ref = volume.spec?.claimRef;
  if (!ref) return false;
  if (ref.name !== claim.metadata?.name || ref.namespace !== (claim.metadata?.namespace ?? 'default')) return false;
  return !ref.uid || ref.uid === claim.metadata?.uid;
}

type ProvisionOutcome = { readonly satisfied: boolean; readonly sufficient: boolean } | { readonly error: string };

/**
 * `checkVolumeProvisions`: the first claim whose class cannot provision here decides. A class without a
 * provisioner (or `kubernetes.io/no-provisioner`) or whose allowedTopologies exclude the node cannot; one
 * whose CSI driver publishes capacity needs a CSIStorageCapacity of the class, reaching the node, with
 * room for the claim. A claim without a class, or with one that does not exist, is the scheduler's
 * internal error: the pod is not scheduled.
 */
function checkVolumeProvisions(
  claims: readonly DelayedClaim[],
  catalog: VolumeCatalog,
  node: NodeInfo,
): ProvisionOutcome {
  for (const delayed of claims) {
    const claimName = `${delayed.claim.metadata?.namespace ?? 'default'}/${delayed.claim.metadata?.name ?? ''}`;
    if (delayed.className === '') return { error: `no class for claim "${claimName}"` };
    const storageClass = catalog.storageClass(delayed.className);
    if (!storageClass) return { error: `failed to find storage class "${delayed.className}"` };
    const provisioner = storageClass.provisioner;
    if (!provisioner || provisioner === NO_PROVISIONER) return { satisfied: false, sufficient: true };
    if (!matchTopologySelectorTerms(storageClass.allowedTopologies ?? [], node)) {
      return { satisfied: false, sufficient: true };
    }
    if (!hasEnoughCapacity(delayed, provisioner, catalog, node)) return { satisfied: true, sufficient: false };
  }
  return { satisfied: true, sufficient: true };
}

/** `MatchTopologySelectorTerms`: no term matches every node; terms are ORed, a term's expressions ANDed. */
function matchTopologySelectorTerms(terms: readonly V1TopologySelectorTerm[], node: NodeInfo): boolean {
  if (terms.length === 0) return true;
  return terms.some((term) => {
    const expressions = term.matchLabelExpressions ?? [];
    if (expressions.length === 0) return false;
    return expressions.every((e) => e.key in node.labels && e.values.includes(node.labels[e.key]!));
  });
}

/**
 * `hasEnoughCapacity`: only a driver whose CSIDriver object sets `storageCapacity` is checked, and then
 * some CSIStorageCapacity of the class must reach the node (its nodeTopology) and hold the request
 * (maximumVolumeSize when published, else capacity).
 */
function hasEnoughCapacity(
  delayed: DelayedClaim,
  provisioner: string,
  catalog: VolumeCatalog,
  node: NodeInfo,
): boolean {
  if (delayed.request === 0) return true;
  if (catalog.csiDriver(provisioner)?.spec?.storageCapacity !== true) return true;
  return catalog
    .capacitiesOfClass(delayed.className)
    .some((c) => capacitySufficient(c, delayed.request) && nodeHasAccess(c, node));
}

/** Whether where the claim goes decides if its volume can be made: the driver does not publish capacity. */
export function capacityUnpublished(provisioner: string, catalog: VolumeCatalog): boolean {
  return catalog.csiDriver(provisioner)?.spec?.storageCapacity !== true;
}

function capacitySufficient(capacity: V1CSIStorageCapacity, request: number): boolean {
  const limit = capacity.maximumVolumeSize ?? capacity.capacity;
  return limit !== undefined && resourceAmount('storage', limit) >= request;
}

function nodeHasAccess(capacity: V1CSIStorageCapacity, node: NodeInfo): boolean {
  return capacity.nodeTopology != null && matchesLabelSelector(node.labels, capacity.nodeTopology);
}

function storageRequest(claim: V1PersistentVolumeClaim): number {
  return storageOf(claim.spec?.resources?.requests);
}

function storageOf(resources: Readonly<Record<string, string>> | undefined): number {
  const text = resources?.storage;
  return text === undefined ? 0 : resourceAmount('storage', text);
}

/** A pod without claims (null), or whose volumes the snapshot cannot tell, is skipped. */
export const volumeBindingPlugin: FilterPlugin<VolumeBindingPreFilter | null> = {
  name: 'VolumeBinding',
  reads: ['Node', 'PersistentVolumeClaim', 'PersistentVolume', 'StorageClass', 'CSIDriver', 'CSIStorageCapacity'],
  preFilter: (pod, cluster) => podVolumes(pod, cluster)?.binding ?? null,
  rejects: (state) => (state && 'rejection' in state ? state.rejection : null),
  skips: (_pod, state) => !state || !('state' in state),
  filter: (_pod, node, state) => (state && 'state' in state ? volumeBinding(state.state, node) : null),
  unknownOn: (state, node) =>
    !state
      ? null
      : 'unknown' in state
        ? state.unknown
        : 'state' in state
          ? provisioningUnknown(state.state, node)
          : null,
};

/**
 * The pod's claims, as the four volume plugins' PreFilters (VolumeRestrictions, NodeVolumeLimits,
 * VolumeBinding, VolumeZone) find them, and VolumeBinding's answer on them: whether the snapshot can
 * tell where they allow the pod at all (a kind not read: then every volume filter passes).
 */
export interface PodVolumes {
  readonly claims: readonly PodClaim[];
  readonly binding: VolumeBindingPreFilter;
}

/**
 * Read once per pod and catalog, not once per plugin: the four PreFilters of one placement (and those run
 * again by preemption's dry run) ask for the same claims.
 */
const read = new WeakMap<PodInfo, { readonly catalog: VolumeCatalog; readonly volumes: PodVolumes }>();

/** The pod's claims and VolumeBinding's answer on them; null for a pod without claims (the volume plugins Skip). */
export function podVolumes(pod: PodInfo, cluster: ClusterState): PodVolumes | null {
  if (!hasClaimVolumes(pod.pod)) return null;
  const catalog = volumeCatalog(cluster.snapshot);
  const kept = read.get(pod);
  if (kept?.catalog === catalog) return kept.volumes;
  const claims = replacementClaims(pod.pod, catalog);
  const volumes = { claims, binding: volumeBindingPreFilter(claims, catalog) };
  read.set(pod, { catalog, volumes });
  return volumes;
}

/** Why the snapshot cannot tell where the pod's volumes allow it (a kind not read), null when it can or there are none. */
export function volumesUnknown(volumes: PodVolumes | null): string | null {
  return volumes && 'unknown' in volumes.binding ? volumes.binding.unknown : null;
}

/**
 * Why where the pod lands does not settle whether it runs: a claim provisioned there by a driver that
 * publishes no capacity (the provisioner may still fail, and the scheduler then tries elsewhere). Null
 * when the placement is the scheduler's final answer as far as volumes go.
 */
export function provisioningUnknown(state: VolumeBindingState, node: NodeInfo): string | null {
  for (const { className } of findPodVolumes(state, node).provisioned) {
    const provisioner = state.catalog.storageClass(className)?.provisioner ?? '';
    if (!state.catalog.has('CSIDriver') || capacityUnpublished(provisioner, state.catalog)) {
      return `VolumeBinding: ${provisioner} provisions a new volume (StorageClass ${className}) where the replacement lands and publishes no storage capacity, so whether it can is not known`;
    }
  }
  return null;
}
