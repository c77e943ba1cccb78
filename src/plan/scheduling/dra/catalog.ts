import type {
  V1Device,
  V1DeviceClass,
  V1NodeSelector,
  ResourceV1ResourceClaim,
  V1ResourceClaimTemplate,
  V1ResourceSlice,
} from '@kubernetes/client-node';
import type { DraKind, Snapshot } from '../../../snapshot/types.js';
import type { NodeInfo } from '../node-info.js';
import { type NodeMatcher, nodeSelectorMatcher } from '../node-selector.js';
import { nameOf, namespaceOf, perSnapshot } from '../snapshot-objects.js';
import { type CelDevice, celDevice } from './cel.js';
import { kubeRules, type KubeRules } from '../../kube-version.js';

/** One device of a ResourceSlice, with where it can be used. */
export interface DeviceEntry {
  /** `<driver>/<pool>/<device>`, the allocator's DeviceID. */
  readonly id: string;
  readonly driver: string;
  readonly pool: string;
  readonly device: V1Device;
  /** The pool's slices are all published (resourceSliceCount of the newest generation). */
  readonly poolComplete: boolean;
  /** The pool names a device twice. */
  readonly poolInvalid: boolean;
  /** Only this node (slice or device nodeName); undefined when the device is reachable elsewhere too. */
  readonly nodeName: string | undefined;
  /** The nodes that reach it (nodeName, allNodes, or nodeSelector). */
  readonly reaches: NodeMatcher;
  /** The node selector an allocation of it carries: nodeName, the slice's nodeSelector, or none (allNodes). */
  readonly nodeSelector: V1NodeSelector | undefined;
}

const ALL_NODES: NodeMatcher = () => true;

/**
 * The snapshot's DRA objects as the DynamicResources plugin reads them (its listers and the claim assume
 * cache): claims, templates and classes by name, the newest generation of each pool's devices indexed by
 * the node they sit on, and the devices that allocated claims hold. Built once per snapshot.
 */
export class DraCatalog {
  private readonly claims = new Map<string, ResourceV1ResourceClaim>();
  private readonly templates = new Map<string, V1ResourceClaimTemplate>();
  private readonly classes = new Map<string, V1DeviceClass>();
  private readonly devicesByNode = new Map<string, DeviceEntry[]>();
  /** Devices of slices with allNodes or a nodeSelector: checked against each node. */
  private readonly sharedDevices: DeviceEntry[] = [];
  private readonly celDevices = new Map<string, CelDevice>();
  /** Device id → the claim (`<namespace>/<name>`) whose allocation holds it. */
  readonly allocated = new Map<string, string>();
  /** Pod uid → the claims it controls (those made from its ResourceClaimTemplates). */
  private readonly ownedClaims = new Map<string, string[]>();
  private readonly claimOwners = new Map<string, string>();
  private readonly kinds: Snapshot['kinds'];
  /** The server version's rules: which DRA features are on (device taints, partitionable devices). */
  readonly rules: KubeRules;

  constructor(snapshot: Snapshot) {
    this.kinds = snapshot.kinds;
    this.rules = kubeRules(snapshot);
    const pods = snapshot.resourceClaims.length > 0 ? new Set(snapshot.pods.map((p) => p.metadata?.uid)) : new Set();
    for (const c of snapshot.resourceClaims) {
      const key = draKey(namespaceOf(c), nameOf(c));
      this.claims.set(key, c);
      const owner = c.metadata?.ownerReferences?.find((o) => o.controller && o.kind === 'Pod');
      // A claim whose pod is gone is deleted by the resourceclaim controller: its devices are free (the
      // cluster after a drain, where the evicted pods no longer are).
      if (owner && !pods.has(owner.uid)) continue;
      for (const r of c.status?.allocation?.devices?.results ?? []) {
        if (r.adminAccess !== true) this.allocated.set(`${r.driver}/${r.pool}/${r.device}`, key);
      }
      if (owner?.uid) this.ownedClaims.set(owner.uid, [...(this.ownedClaims.get(owner.uid) ?? []), key]);
      if (owner?.uid) this.claimOwners.set(key, owner.uid);
    }
    for (const t of snapshot.resourceClaimTemplates) this.templates.set(draKey(namespaceOf(t), nameOf(t)), t);
    for (const c of snapshot.deviceClasses) this.classes.set(nameOf(c), c);
    for (const entry of poolDevices(snapshot.resourceSlices)) {
      if (entry.nodeName === undefined) this.sharedDevices.push(entry);
      else {
        const list = this.devicesByNode.get(entry.nodeName);
        if (list) list.push(entry);
        else this.devicesByNode.set(entry.nodeName, [entry]);
      }
    }
  }

  /** Whether the snapshot read this kind (an absent kind is unknown, not empty). */
  has(kind: DraKind): boolean {
    return this.kinds.has(kind);
  }

  claim(namespace: string, name: string): ResourceV1ResourceClaim | undefined {
    return this.claims.get(draKey(namespace, name));
  }

  template(namespace: string, name: string): V1ResourceClaimTemplate | undefined {
    return this.templates.get(draKey(namespace, name));
  }

  deviceClass(name: string): V1DeviceClass | undefined {
    return this.classes.get(name);
  }

  /** The claims a pod controls: deleted with it, their devices freed. */
  /** The uid of the pod that controls the claim (made from its template), for a claim whose pod exists. */
  claimOwner(key: string): string | undefined {
    return this.claimOwners.get(key);
  }

  claimsOwnedBy(podUid: string): readonly string[] {
    return this.ownedClaims.get(podUid) ?? [];
  }

  /** The devices the node reaches, its own first, in pool and slice order (`GatherPools`). */
  devicesFor(node: NodeInfo): DeviceEntry[] {
    const own = this.devicesByNode.get(node.name) ?? [];
    if (this.sharedDevices.length === 0) return own;
    return [...own, ...this.sharedDevices.filter((d) => d.reaches(node))];
  }

  /** The `device` CEL variable of a device, built once. */
  celDevice(entry: DeviceEntry): CelDevice {
    let device = this.celDevices.get(entry.id);
    if (!device) this.celDevices.set(entry.id, (device = celDevice(entry.driver, entry.device)));
    return device;
  }
}

/**
 * The devices of the newest generation of every pool (`GatherPools`): older slices are ignored, a pool
 * with fewer slices than its resourceSliceCount is incomplete, one naming a device twice invalid. Slices
 * with none of nodeName, allNodes, nodeSelector or perDeviceNodeSelection are skipped. Sorted by driver,
 * pool and slice name so that the same snapshot always picks the same devices.
 */
function poolDevices(slices: readonly V1ResourceSlice[]): DeviceEntry[] {
  const pools = new Map<string, V1ResourceSlice[]>();
  for (const slice of slices) {
    const id = `${slice.spec.driver}/${slice.spec.pool.name}`;
    const pool = pools.get(id);
    const generation = slice.spec.pool.generation;
    if (!pool || generation > pool[0]!.spec.pool.generation) pools.set(id, [slice]);
    else if (generation === pool[0]!.spec.pool.generation) pool.push(slice);
  }
  const entries: DeviceEntry[] = [];
  for (const id of [...pools.keys()].sort()) {
    const pool = pools.get(id)!.sort((a, b) => (nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0));
    const poolComplete = pool.length === pool[0]!.spec.pool.resourceSliceCount;
    const names = pool.flatMap((s) => (s.spec.devices ?? []).map((d) => d.name));
    const poolInvalid = new Set(names).size !== names.length;
    for (const slice of pool) {
      const { driver, pool: poolRef, perDeviceNodeSelection } = slice.spec;
      for (const device of slice.spec.devices ?? []) {
        const placement = perDeviceNodeSelection ? placementOf(device) : placementOf(slice.spec);
        if (!placement) continue;
        entries.push({
          id: `${driver}/${poolRef.name}/${device.name}`,
          driver,
          pool: poolRef.name,
          device,
          poolComplete,
          poolInvalid,
          ...placement,
        });
      }
    }
  }
  return entries;
}

interface Placement {
  readonly nodeName: string | undefined;
  readonly reaches: NodeMatcher;
  readonly nodeSelector: V1NodeSelector | undefined;
}

/** `nodeMatches`: nodeName, else allNodes, else nodeSelector; none of them: not usable. */
function placementOf(spec: {
  nodeName?: string;
  allNodes?: boolean;
  nodeSelector?: V1NodeSelector;
}): Placement | undefined {
  if (spec.nodeName) {
    const nodeName = spec.nodeName;
    const nodeSelector = {
      nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }],
    };
    return { nodeName, reaches: (node) => node.name === nodeName, nodeSelector };
  }
  if (spec.allNodes) return { nodeName: undefined, reaches: ALL_NODES, nodeSelector: undefined };
  if (spec.nodeSelector) {
    const nodeSelector = spec.nodeSelector;
    return { nodeName: undefined, reaches: nodeSelectorMatcher(nodeSelector.nodeSelectorTerms), nodeSelector };
  }
  return undefined;
}

/** The catalog of a snapshot's DRA objects, built on first use. */
export const draCatalog = perSnapshot((snapshot) => new DraCatalog(snapshot));

export const draKey = (namespace: string, name: string) => `${namespace}/${name}`;
