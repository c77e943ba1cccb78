/**
 * Storage objects for the volume plugin tests, shaped like upstream's test_utils.go (`makePVC`,
 * `makePV`, `withBoundPV`, `withNodeAffinity`…), and a runner for the four volume plugins: PreFilter
 * through the simulation's own CycleState, then one plugin's Filter on one node.
 */
import type {
  V1CSINode,
  V1PersistentVolume,
  V1PersistentVolumeClaim,
  V1Pod,
  V1StorageClass,
} from '@kubernetes/client-node';
import type { FilterPlugin, FilterResult, Rejection } from '../../../../src/plan/scheduling/framework.js';
import { podInfo } from '../../../../src/plan/scheduling/pod-info.js';
import { FILTER_PLUGINS, preFilter } from '../../../../src/plan/scheduling/registry.js';
import { nodeVolumeLimitsPlugin } from '../../../../src/plan/scheduling/plugins/node-volume-limits.js';
import { volumeBindingPlugin } from '../../../../src/plan/scheduling/plugins/volume-binding.js';
import { volumeRestrictionsPlugin } from '../../../../src/plan/scheduling/plugins/volume-restrictions.js';
import { volumeZonePlugin } from '../../../../src/plan/scheduling/plugins/volume-zone.js';
import { makePod } from '../../builders.js';
import { clusterOf, type Scene } from './harness.js';

export const NS = 'default';

export class ClaimBuilder {
  readonly claim: V1PersistentVolumeClaim;
  constructor(name: string, className: string) {
    this.claim = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name, namespace: NS, uid: `uid-${name}` },
      spec: {
        accessModes: ['ReadWriteOnce'],
        resources: {},
        ...(className === '' ? {} : { storageClassName: className }),
      },
      status: { phase: 'Pending' },
    };
  }
  /** `withBoundPV`: volumeName and the PV controller's bind-completed annotation. */
  boundTo(volume: string): this {
    this.claim.spec!.volumeName = volume;
    this.claim.metadata!.annotations = {
      ...this.claim.metadata!.annotations,
      'pv.kubernetes.io/bind-completed': 'yes',
    };
    this.claim.status = { phase: 'Bound' };
    return this;
  }
  /** volumeName set by a user, not yet bound by the PV controller. */
  preBoundTo(volume: string): this {
    this.claim.spec!.volumeName = volume;
    return this;
  }
  request(storage: string): this {
    this.claim.spec!.resources = { requests: { storage } };
    return this;
  }
  phase(phase: string): this {
    this.claim.status = { phase };
    return this;
  }
  accessModes(...modes: string[]): this {
    this.claim.spec!.accessModes = modes;
    return this;
  }
  annotation(key: string, value: string): this {
    this.claim.metadata!.annotations = { ...this.claim.metadata!.annotations, [key]: value };
    return this;
  }
  deleting(): this {
    this.claim.metadata!.deletionTimestamp = new Date('2026-01-01T00:00:00Z');
    return this;
  }
  obj(): V1PersistentVolumeClaim {
    return this.claim;
  }
}

export class VolumeBuilder {
  readonly volume: V1PersistentVolume;
  constructor(name: string, className: string) {
    this.volume = {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name },
      spec: { storageClassName: className, accessModes: ['ReadWriteOnce'], capacity: {} },
      status: { phase: 'Available' },
    };
  }
  phase(phase: string): this {
    this.volume.status = { phase };
    return this;
  }
  capacity(storage: string): this {
    this.volume.spec!.capacity = { storage };
    return this;
  }
  /** `withNodeAffinity`: one term, one `In` expression per key. */
  nodeAffinity(keyValues: Readonly<Record<string, readonly string[]>>): this {
    const matchExpressions = Object.entries(keyValues).map(([key, values]) => ({
      key,
      operator: 'In',
      values: [...values],
    }));
    this.volume.spec!.nodeAffinity = { required: { nodeSelectorTerms: [{ matchExpressions }] } };
    return this;
  }
  /** A local volume: node affinity to one node by its hostname label. */
  onNode(node: string): this {
    return this.nodeAffinity({ 'kubernetes.io/hostname': [node] });
  }
  label(key: string, value: string): this {
    this.volume.metadata!.labels = { ...this.volume.metadata!.labels, [key]: value };
    return this;
  }
  claimRef(name: string, uid?: string): this {
    this.volume.spec!.claimRef = { name, namespace: NS, ...(uid ? { uid } : {}) };
    return this;
  }
  csi(driver: string, handle: string): this {
    this.volume.spec!.csi = { driver, volumeHandle: handle };
    return this;
  }
  obj(): V1PersistentVolume {
    return this.volume;
  }
}

export const makePVC = (name: string, className: string) => new ClaimBuilder(name, className);
export const makePV = (name: string, className: string) => new VolumeBuilder(name, className);

export function storageClass(
  name: string,
  mode: 'Immediate' | 'WaitForFirstConsumer',
  provisioner = '',
  extra: Partial<V1StorageClass> = {},
): V1StorageClass {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name },
    provisioner,
    volumeBindingMode: mode,
    ...extra,
  };
}

/** upstream's immediateSC, waitSC and waitHDDSC: classes without a provisioner. */
export const immediateSC = storageClass('immediate-sc', 'Immediate');
export const waitSC = storageClass('wait-sc', 'WaitForFirstConsumer');
export const waitHDDSC = storageClass('wait-hdd-sc', 'WaitForFirstConsumer');

export function csiNode(name: string, drivers: Readonly<Record<string, number | undefined>>): V1CSINode {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'CSINode',
    metadata: { name },
    spec: {
      drivers: Object.entries(drivers).map(([driver, count]) => ({
        name: driver,
        nodeID: `${name}-${driver}`,
        ...(count === undefined ? {} : { allocatable: { count } }),
      })),
    },
  };
}

/** A pod mounting the named claims (`withPVCVolume`). */
export function podWithClaims(name: string, ...claims: string[]): V1Pod {
  const builder = makePod().name(name).ns(NS);
  claims.forEach((claimName, i) => builder.volume({ name: `vol-${i}`, persistentVolumeClaim: { claimName } }));
  return builder.obj();
}

/** What the volume plugins' PreFilters say of a pod: their first rejection, and why the snapshot cannot tell. */
export interface VolumePreFilter {
  readonly rejection: Rejection | null;
  readonly unknown: string | null;
}

const VOLUME_PLUGINS: readonly FilterPlugin[] = [
  volumeRestrictionsPlugin,
  nodeVolumeLimitsPlugin,
  volumeBindingPlugin,
  volumeZonePlugin,
];

/**
 * The simulation's PreFilters of the volume plugins for `incoming` in the scene, each read from its own
 * state; null for a pod without claims (they Skip).
 */
export function volumePreFilter(scene: Scene, incoming: V1Pod): VolumePreFilter | null {
  const state = preFilter(podInfo(incoming), clusterOf(scene));
  const binding = state.read(volumeBindingPlugin);
  if (binding === null) return null;
  const rejection = VOLUME_PLUGINS.map((plugin) => plugin.rejects?.(state.read(plugin)) ?? null).find(Boolean);
  return { rejection: rejection ?? null, unknown: 'unknown' in binding ? binding.unknown : null };
}

/**
 * What the scheduler says of `incoming` on `node` for one volume plugin: a PreFilter's rejection (every
 * node), VolumeBinding's PreFilterResult leaving the node out, or the plugin's Filter.
 */
export function volumeVerdict(plugin: string, scene: Scene, incoming: V1Pod, nodeName: string): FilterResult {
  const cluster = clusterOf(scene);
  const pod = podInfo(incoming);
  const state = preFilter(pod, cluster);
  if (state.rejection) return state.rejection;
  const node = cluster.nodeInfo(nodeName);
  const found = FILTER_PLUGINS.find((p) => p.name === plugin);
  if (!node || !found) throw new Error(`no node ${nodeName} or plugin ${plugin}`);
  return found.filter(pod, node, state.read(found));
}
