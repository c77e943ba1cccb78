import type { V1DeviceClaim, ResourceV1ResourceClaim } from '@kubernetes/client-node';
import { kindPlural } from '../../../wording.js';
import { DRA_KINDS, type DraKind } from '../../../snapshot/types.js';
import { type ClaimAllocation, type ClaimToAllocate, type AllocateOutcome, allocate } from '../dra/allocator.js';
import { type DraCatalog, draCatalog, draKey } from '../dra/catalog.js';
import { type ClusterState, type FilterPlugin, type FilterResult, type Rejection, unresolvable } from '../framework.js';
import type { NodeInfo } from '../node-info.js';
import type { PodInfo } from '../pod-info.js';
import { type NodeMatcher, nodeSelectorMatcher } from '../node-selector.js';
import { jsonKey } from '../content-memo.js';

/** DynamicResources' reasons (pkg/scheduler/framework/plugins/dynamicresources, v1.37). */
export const CLAIM_NOT_AVAILABLE = 'resourceclaim not available on the node';
export const CANNOT_ALLOCATE = 'cannot allocate all claims';
export const CLAIM_IN_USE = 'resourceclaim in use';
/** `ResourceClaimReservedForMaxSize`: the most consumers one claim may have. */
export const RESERVED_FOR_MAX_SIZE = 256;

/** An allocated claim of the pod: where its allocation is usable (null: every node). */
interface AllocatedClaim {
  readonly key: string;
  readonly reaches: NodeMatcher | null;
}

/** What DynamicResources' PreFilter worked out for a pod with resource claims. */
export interface DraState {
  /** PreFilter's rejection of every node (a claim missing, being deleted, in use; a class missing). */
  readonly rejection: Rejection | null;
  /** Why the snapshot cannot tell where the claims can be allocated (a kind not read…); Filter then passes. */
  readonly unknown: string | null;
  readonly allocated: readonly AllocatedClaim[];
  /** Claims the scheduler allocates: the replacement's fresh template claims, unallocated shared claims. */
  readonly toAllocate: readonly ClaimToAllocate[];
  readonly catalog: DraCatalog;
  /** Whether a device is allocated to a claim other than those being allocated. */
  readonly inUse: (deviceId: string) => boolean;
  /** Allocation outcomes per node, kept for the node the pod is placed on (the plugin's nodeAllocations). */
  readonly outcomes: Map<string, AllocateOutcome>;
  /**
   * The Filter's verdicts on the claims to allocate, by node position, kept for every simulation of the
   * cluster state (see keptVerdicts); null where this simulation frees devices the state holds.
   */
  readonly kept: KeptVerdicts | null;
  /** The devices placed replacements were allocated: a node reaching one of them is judged anew. */
  readonly taken: ReadonlyMap<string, string>;
}

/** Per node position: 0 not known yet, PASSES (allocated, or an outcome the plan cannot settle), FAILS. */
type KeptVerdicts = Int8Array;
const PASSES = 1;
const FAILS = 2;

/** What placed replacements were allocated in this simulation (the plugin's Reserve), kept in the cluster state's store. */
interface Reservations {
  /** The claims placed replacements allocated, by key. */
  readonly allocations: Map<string, ClaimAllocation>;
  /** Device id → claim, for the devices placed replacements were allocated. */
  readonly devices: Map<string, string>;
}

const RESERVATIONS = {};

function reservations(cluster: ClusterState): Reservations {
  return cluster.store<Reservations>(
    RESERVATIONS,
    () => ({ allocations: new Map(), devices: new Map() }),
    (kept) => ({ allocations: new Map(kept.allocations), devices: new Map(kept.devices) }),
  );
}

/**
 * Which claim (`<namespace>/<name>`) holds each device, as the cluster is now (kept by a placement's state
 * after `withEvictedGone` returns): the snapshot's allocations and those of placed replacements; the
 * claims an evicted pod controlled are freed once it is gone, and so is a claim allocated again elsewhere.
 */
function deviceHolders(cluster: ClusterState, catalog: DraCatalog): (deviceId: string) => string | undefined {
  const gone = cluster.evictedGone;
  const { allocations, devices } = reservations(cluster);
  return (deviceId) => {
    const placed = devices.get(deviceId);
    if (placed !== undefined) return placed;
    const holder = catalog.allocated.get(deviceId);
    if (holder === undefined) return undefined;
    const owner = gone ? catalog.claimOwner(holder) : undefined;
    if (owner !== undefined && cluster.wasEvicted(owner)) return undefined;
    return allocations.has(holder) ? undefined : holder;
  };
}

/**
 * DynamicResources' PreFilter (`foreachPodResourceClaim`, `PreFilter`): each claim must exist and not
 * be being deleted; an allocated claim must be reservable (fewer than 256 consumers) and brings its
 * allocation's node selector; every request of an unallocated claim must name an existing DeviceClass.
 * A replacement's ResourceClaimTemplate claims are new: the resourceclaim controller makes them from the
 * template for the new pod, unallocated (the evicted pod's are deleted with it). A shared claim whose
 * every consumer has gone, and whose allocation no node outside the drain can use, is deallocated by
 * PostFilter and allocated again. Null for a pod without claims (Skip).
 */
export function dynamicResourcesPreFilter(pod: PodInfo, cluster: ClusterState): DraState | null {
  const podClaims = pod.pod.spec?.resourceClaims ?? [];
  if (podClaims.length === 0) return null;
  const catalog = draCatalog(cluster.snapshot);
  const holderOf = deviceHolders(cluster, catalog);
  const base = {
    rejection: null,
    unknown: null,
    allocated: [],
    toAllocate: [],
    catalog,
    inUse: (id: string) => holderOf(id) !== undefined,
    outcomes: new Map<string, AllocateOutcome>(),
    kept: null,
    taken: reservations(cluster).devices,
  };
  const needed = new Set<DraKind>(['DeviceClass', 'ResourceSlice']);
  for (const c of podClaims) needed.add(c.resourceClaimName ? 'ResourceClaim' : 'ResourceClaimTemplate');
  const missing = [...needed].find((kind) => !catalog.has(kind));
  if (missing) return { ...base, unknown: notRead(missing) };

  const allocated: AllocatedClaim[] = [];
  const toAllocate: ClaimToAllocate[] = [];
  const released = new Set<string>();
  const reject = (text: string): DraState => ({ ...base, rejection: unresolvable(text) });
  for (const podClaim of podClaims) {
    if (podClaim.resourceClaimName) {
      const name = podClaim.resourceClaimName;
      const key = draKey(pod.namespace, name);
      const claim = catalog.claim(pod.namespace, name);
      if (!claim) return reject(`resourceclaim "${name}" not found`);
      if (claim.metadata?.deletionTimestamp) return reject(`resourceclaim "${name}" is being deleted`);
      const simulated = reservations(cluster).allocations.get(key);
      if (simulated) {
        allocated.push({ key, reaches: simulated.reaches });
        continue;
      }
      const allocation = claim.status?.allocation;
      if (allocation) {
        if ((claim.status?.reservedFor ?? []).length >= RESERVED_FOR_MAX_SIZE) return reject(CLAIM_IN_USE);
        const terms = allocation.nodeSelector?.nodeSelectorTerms;
        const reaches = terms ? nodeSelectorMatcher(terms) : null;
        if (!releasable(claim, reaches, cluster)) {
          allocated.push({ key, reaches });
          continue;
        }
        released.add(key);
      }
      const problem = missingClass(claim.spec?.devices, catalog);
      if (problem) return reject(problem);
      toAllocate.push({ key, devices: claim.spec?.devices });
    } else if (podClaim.resourceClaimTemplateName) {
      const template = catalog.template(pod.namespace, podClaim.resourceClaimTemplateName);
      if (!template) return reject(`pod "${pod.namespace}/${pod.name}": ResourceClaim not created yet`);
      const devices = template.spec.spec.devices;
      const problem = missingClass(devices, catalog);
      if (problem) return reject(problem);
      // The controller's name is generated (`<pod>-<claim>-xxxxx`): any name of its own will do.
      toAllocate.push({ key: draKey(pod.namespace, `${pod.name}-${podClaim.name}-${pod.uid}`), devices });
    }
  }
  const inUse = (id: string) => {
    const holder = holderOf(id);
    return holder !== undefined && !released.has(holder);
  };
  const kept = released.size === 0 ? keptVerdicts(toAllocate, cluster, catalog) : null;
  return { ...base, allocated, toAllocate, inUse, kept };
}

/**
 * The allocator's verdict on a node reads the node's devices, the content of the claims' device specs
 * (the templates of many workloads ask alike) and which of the node's devices are in use (its outcome's
 * claim names only name the claims): where every device in use is the cluster state's, the verdict is
 * the state's, kept per node for every simulation of the state and claims with the same specs. A
 * simulation uses the state's devices so, except for the devices its placed replacements took (`taken`:
 * a node reaching one is judged anew), unless it frees some: the evicted pods taken as gone free their
 * claims, a claim released (or allocated again by a placed replacement) frees its devices. Null then:
 * every node is judged anew.
 */
function keptVerdicts(
  toAllocate: readonly ClaimToAllocate[],
  cluster: ClusterState,
  catalog: DraCatalog,
): KeptVerdicts | null {
  if (toAllocate.length === 0 || cluster.evictedGone) return null;
  const holders = cluster.stateMemo('dra-holders', () => new Set(catalog.allocated.values()));
  for (const key of reservations(cluster).allocations.keys()) if (holders.has(key)) return null;
  const kept = cluster.stateMemo('dra-verdicts', () => new Map<string, KeptVerdicts>());
  const key = toAllocate.map((c) => (c.devices ? jsonKey(c.devices) : '')).join('\u0000');
  let verdicts = kept.get(key);
  if (!verdicts) kept.set(key, (verdicts = new Int8Array(cluster.nodeInfos.length)));
  return verdicts;
}

/**
 * PostFilter deallocates an allocated claim that no pod uses any more (`reservedFor` empty once the
 * evicted consumers are gone); it matters here only when no node outside the drain can use it.
 */
function releasable(claim: ResourceV1ResourceClaim, reaches: NodeMatcher | null, cluster: ClusterState): boolean {
  const consumers = claim.status?.reservedFor ?? [];
  if (!consumers.every((c) => cluster.evictedGone && cluster.wasEvicted(c.uid))) return false;
  if (reaches === null) return false;
  const drained = new Set(cluster.drainedNodeInfos.map((n) => n.name));
  return !cluster.nodeInfos.some((node) => !drained.has(node.name) && reaches(node));
}

/** `validateDeviceClass` for each request and subrequest. */
function missingClass(devices: V1DeviceClaim | undefined, catalog: DraCatalog): string | null {
  for (const request of devices?.requests ?? []) {
    const specs = request.exactly
      ? [[request.name, request.exactly.deviceClassName] as const]
      : (request.firstAvailable ?? []).map((sub) => [`${request.name}/${sub.name}`, sub.deviceClassName] as const);
    for (const [name, className] of specs) {
      if (!catalog.deviceClass(className)) return `request ${name}: device class ${className} does not exist`;
    }
  }
  return null;
}

function notRead(kind: DraKind): string {
  return `${kindPlural(kind)} were not read, so where the replacement's resource claims can be allocated is not known`;
}

/**
 * DynamicResources' Filter: the allocator runs first for the claims to allocate (all or nothing: "cannot
 * allocate all claims"); then an allocated claim whose node selector excludes the node makes it
 * unavailable. Both UnschedulableAndUnresolvable. An outcome the plan cannot settle passes here and
 * leaves the placement unknown (`draUnknown`).
 */
export function dynamicResources(state: DraState, node: NodeInfo): FilterResult {
  // A PreFilter rejection holds for every node (the simulation stops before Filter; a caller asking per node gets it).
  if (state.rejection) return state.rejection;
  if (state.unknown) return null;
  if (fails(state, node)) return unresolvable(CANNOT_ALLOCATE);
  if (state.allocated.some((c) => c.reaches !== null && !c.reaches(node))) return unresolvable(CLAIM_NOT_AVAILABLE);
  return null;
}

/** Whether the claims to allocate cannot all be allocated on the node: the kept verdict where it holds. */
function fails(state: DraState, node: NodeInfo): boolean {
  const kept = state.kept;
  const at = node.position;
  if (kept === null || at < 0 || at >= kept.length || reachesTaken(state, node)) {
    const outcome = outcomeOn(state, node);
    return outcome !== null && 'failed' in outcome;
  }
  if (kept[at] === 0) kept[at] = 'failed' in outcomeOn(state, node)! ? FAILS : PASSES;
  return kept[at] === FAILS;
}

/** Whether the node reaches a device a placed replacement of this simulation took. */
function reachesTaken(state: DraState, node: NodeInfo): boolean {
  if (state.taken.size === 0) return false;
  return state.catalog.devicesFor(node).some((d) => state.taken.has(d.id));
}

function outcomeOn(state: DraState, node: NodeInfo): AllocateOutcome | null {
  if (state.toAllocate.length === 0) return null;
  let outcome = state.outcomes.get(node.name);
  if (!outcome) {
    outcome = allocate(state.catalog, node, state.toAllocate, state.inUse);
    state.outcomes.set(node.name, outcome);
  }
  return outcome;
}

/** Why where the pod runs is not settled by the claims on this node; null when it is. */
export function draUnknown(state: DraState, node: NodeInfo): string | null {
  if (state.unknown) return `DynamicResources: ${state.unknown}`;
  const outcome = outcomeOn(state, node);
  return outcome && 'unknown' in outcome ? `DynamicResources: ${outcome.unknown}` : null;
}

/** The claims allocated for the pod on the node it is placed on, to hold their devices from then on. */
export function draAllocationsOn(state: DraState, node: NodeInfo): readonly ClaimAllocation[] {
  const outcome = outcomeOn(state, node);
  return outcome && 'allocations' in outcome ? outcome.allocations : [];
}

/** A pod without resource claims is skipped. */
export const dynamicResourcesPlugin: FilterPlugin<DraState | null> = {
  name: 'DynamicResources',
  reads: ['Node', 'Pod', ...DRA_KINDS],
  preFilter: dynamicResourcesPreFilter,
  rejects: (state) => state?.rejection ?? null,
  skips: (_pod, state) => state === null,
  filter: (_pod, node, state) => (state ? dynamicResources(state, node) : null),
  unknownOn: (state, node) => (state ? draUnknown(state, node) : null),
  /** The devices the pod needs (or its shared claim's allocation) are on these nodes only. */
  narrows: (state) =>
    !state || state.unknown || state.rejection ? null : (node) => dynamicResources(state, node) === null,
  // An allocated named claim that no pod uses is released when no node outside the drain can use its
  // allocation, so any node's drain may change where the pod goes; a claim in use, or a template's, is not.
  drainedNodesRead: (pod, cluster) => {
    const released = (name: string) => {
      const status = draCatalog(cluster.snapshot).claim(pod.namespace, name)?.status;
      return status?.allocation != null && (status.reservedFor ?? []).length === 0;
    };
    const claims = pod.pod.spec?.resourceClaims ?? [];
    return claims.some((c) => c.resourceClaimName && released(c.resourceClaimName)) ? cluster.nodeInfos : [];
  },
  reserve: (state, node, cluster) => {
    if (!state) return;
    const { allocations, devices } = reservations(cluster);
    for (const allocation of draAllocationsOn(state, node)) {
      allocations.set(allocation.key, allocation);
      for (const { entry } of allocation.devices) devices.set(entry.id, allocation.key);
    }
  },
};
