import type { V1OwnerReference, V1Pod } from '@kubernetes/client-node';
import type { ClusterIndex, OwnerObject } from '../snapshot/cluster-index.js';
import type { SnapshotKind } from '../snapshot/types.js';
import { missingKindCaveat } from './caveats.js';
import { controllerRef } from './pod-facts.js';

/** The workload that owns a pod, and whether it puts a replacement back after an eviction. */
export interface ControllerInfo {
  /** The top of the chain: Deployment for a ReplicaSet it owns, otherwise the pod's controller. */
  readonly kind: string;
  readonly name: string;
  /** True when the controller creates a new pod to replace an evicted one. */
  readonly recreates: boolean;
  /** What the snapshot could not confirm, in words; null when it confirmed everything. */
  readonly caveat: string | null;
}

/** Built-in controllers that recreate their pods (the ones the disruption controller and kubectl know). */
const RECREATING_KINDS = new Set(['ReplicaSet', 'StatefulSet', 'ReplicationController', 'Job', 'DaemonSet']);

/**
 * Who recreates the pod, from its controller owner reference: ReplicaSet → its Deployment, StatefulSet,
 * ReplicationController, Job, DaemonSet; a Node (static pod) or no controller recreates nothing. Lookups
 * go through the index; a kind the snapshot did not load is assumed present, with the snapshot-wide caveat.
 */
export function controllerOf(pod: V1Pod, index: ClusterIndex): ControllerInfo | null {
  const ref = controllerRef(pod);
  if (!ref) return null;
  if (ref.kind === 'Node') return { kind: 'Node', name: ref.name, recreates: false, caveat: null };
  if (!RECREATING_KINDS.has(ref.kind)) {
    const caveat = `${ref.kind} is not a built-in controller: its pods are assumed to be recreated`;
    return { kind: ref.kind, name: ref.name, recreates: true, caveat };
  }
  const namespace = pod.metadata?.namespace ?? 'default';
  const found = lookUp(index, ref, namespace);
  if (found.status !== 'found') return { kind: ref.kind, name: ref.name, ...found.info };
  const parent = ref.kind === 'ReplicaSet' ? deploymentOf(found.owner) : undefined;
  return { kind: parent?.kind ?? ref.kind, name: parent?.name ?? ref.name, recreates: true, caveat: null };
}

type LookUp =
  | { status: 'found'; owner: OwnerObject }
  | { status: 'unknown' | 'missing'; info: { recreates: boolean; caveat: string } };

function lookUp(index: ClusterIndex, ref: V1OwnerReference, namespace: string): LookUp {
  if (!index.snapshot.kinds.has(ref.kind as SnapshotKind)) {
    return { status: 'unknown', info: { recreates: true, caveat: missingKindCaveat(ref.kind as SnapshotKind) } };
  }
  const owner = index.owner(ref.kind, namespace, ref.name);
  if (owner) return { status: 'found', owner };
  const caveat = `${ref.kind} ${namespace}/${ref.name} does not exist: nothing recreates the pod`;
  return { status: 'missing', info: { recreates: false, caveat } };
}

/** A ReplicaSet's controlling Deployment, when it has one (the disruption controller's same test). */
function deploymentOf(replicaSet: OwnerObject): { kind: string; name: string } | undefined {
  const ref = replicaSet.metadata?.ownerReferences?.find((r) => r.controller === true);
  return ref?.kind === 'Deployment' ? { kind: ref.kind, name: ref.name } : undefined;
}
