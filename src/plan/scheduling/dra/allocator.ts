import type {
  V1DeviceClaim,
  V1DeviceConstraint,
  V1DeviceSelector,
  V1DeviceTaint,
  V1DeviceToleration,
  V1ExactDeviceRequest,
} from '@kubernetes/client-node';
import { untoleratedDoNotScheduleTaint } from '../../tolerations.js';
import type { NodeInfo } from '../node-info.js';
import { type NodeMatcher, nodeSelectorMatcher } from '../node-selector.js';
import { jsonKey } from '../content-memo.js';
import { attributeValue, compileSelector } from './cel.js';
import type { DeviceEntry, DraCatalog } from './catalog.js';

/** `AllocationResultsMaxSize`: the most devices one claim may be allocated (resource.k8s.io/v1). */
export const ALLOCATION_RESULTS_MAX_SIZE = 32;
/** Allocation steps before the plan gives up (kube-scheduler gives up after a 10 s Filter timeout). */
const MAX_STEPS = 200_000;

/** A claim the scheduler allocates itself: a fresh one (from a template) or a shared one not yet allocated. */
export interface ClaimToAllocate {
  /** `<namespace>/<name>`; a replacement's fresh claim has a name of its own. */
  readonly key: string;
  readonly devices: V1DeviceClaim | undefined;
}

export interface AllocatedDevice {
  /** The request, or `<request>/<subrequest>` for a firstAvailable choice. */
  readonly request: string;
  readonly entry: DeviceEntry;
}

/** One claim's allocation on a node: its devices, and the nodes the allocation is usable from (null: any). */
export interface ClaimAllocation {
  readonly key: string;
  readonly devices: readonly AllocatedDevice[];
  readonly reaches: NodeMatcher | null;
}

/**
 * `Allocate`'s outcome on one node: every claim allocated; none (the node cannot take them); or an error
 * the scheduler would abort the attempt with (a CEL runtime error, All over a pool being updated…) or a
 * feature the plan does not model: both leave where the pod runs unknown.
 */
export type AllocateOutcome =
  { readonly allocations: readonly ClaimAllocation[] } | { readonly failed: true } | { readonly unknown: string };

type RequestSpec = Pick<
  V1ExactDeviceRequest,
  'deviceClassName' | 'selectors' | 'allocationMode' | 'count' | 'adminAccess' | 'tolerations' | 'capacity'
>;

/** One way to satisfy a request: the request itself, or one of its firstAvailable subrequests. */
interface Alternative {
  /** The name results carry (`req` or `req/sub`). */
  readonly name: string;
  /** The request's own name (a constraint may name either). */
  readonly parent: string;
  /** Devices of the node that pass the class's and the request's selectors and tolerations, in order. */
  readonly matching: readonly DeviceEntry[];
  /** ExactCount's count, or for All every matching device. */
  readonly count: number;
  readonly all: boolean;
}

interface Slot {
  readonly claim: number;
  readonly alternatives: readonly Alternative[];
}

class Unknown extends Error {}

/**
 * The structured allocator (dynamic-resource-allocation/structured, `Allocate`) for one node: claim
 * after claim, request after request, it picks free devices the node reaches that pass the DeviceClass's
 * and the request's CEL selectors and tolerate the device's taints, checks each claim's matchAttribute
 * and distinctAttribute constraints as it goes, and backtracks; the first full solution wins. A
 * firstAvailable request takes the first subrequest that works. All takes every matching device, which
 * must all be free. Devices of invalid pools are never picked.
 */
export function allocate(
  catalog: DraCatalog,
  node: NodeInfo,
  claims: readonly ClaimToAllocate[],
  inUse: (deviceId: string) => boolean,
): AllocateOutcome {
  try {
    const candidates = catalog.devicesFor(node);
    const slots = claims.flatMap((claim, index) => slotsOf(catalog, node, candidates, claim, index));
    const constraints = claims.map((c) => (c.devices?.constraints ?? []).map((spec) => new Constraint(spec)));
    const chosen: AllocatedDevice[][] = claims.map(() => []);
    const taken = new Set<string>();
    let steps = 0;

    const tryDevice = (slot: Slot, alt: Alternative, entry: DeviceEntry): boolean => {
      const added: Constraint[] = [];
      for (const c of constraints[slot.claim]!) {
        if (!c.add(alt, entry)) {
          for (const a of added) a.remove(alt);
          return false;
        }
        added.push(c);
      }
      taken.add(entry.id);
      chosen[slot.claim]!.push({ request: alt.name, entry });
      return true;
    };
    const untry = (slot: Slot, alt: Alternative, entry: DeviceEntry) => {
      for (const c of constraints[slot.claim]!) c.remove(alt);
      taken.delete(entry.id);
      chosen[slot.claim]!.pop();
      void entry;
    };
    const free = (entry: DeviceEntry) => !taken.has(entry.id) && !inUse(entry.id);

    const search = (at: number): boolean => {
      if (at === slots.length) return true;
      const slot = slots[at]!;
      for (const alt of slot.alternatives) {
        if (alt.all) {
          if (alt.matching.length === 0 || !alt.matching.every(free)) continue;
          const done: DeviceEntry[] = [];
          for (const entry of alt.matching) {
            if (!tryDevice(slot, alt, entry)) break;
            done.push(entry);
          }
          if (done.length === alt.matching.length && search(at + 1)) return true;
          for (const entry of done.reverse()) untry(slot, alt, entry);
          continue;
        }
        if (pick(at, slot, alt, 0, 0)) return true;
      }
      return false;
    };
    const pick = (at: number, slot: Slot, alt: Alternative, picked: number, from: number): boolean => {
      if (picked === alt.count) return search(at + 1);
      for (let i = from; i < alt.matching.length; i++) {
        if (++steps > MAX_STEPS) throw new Unknown('the device search is larger than the plan explores');
        const entry = alt.matching[i]!;
        if (!free(entry) || !tryDevice(slot, alt, entry)) continue;
        if (pick(at, slot, alt, picked + 1, i + 1)) return true;
        untry(slot, alt, entry);
      }
      return false;
    };

    if (!search(0)) return { failed: true };
    return {
      allocations: claims.map((claim, i) => ({
        key: claim.key,
        devices: chosen[i]!,
        reaches: reachOf(node, chosen[i]!),
      })),
    };
  } catch (e) {
    if (e instanceof Unknown) return { unknown: e.message };
    throw e;
  }
}

function slotsOf(
  catalog: DraCatalog,
  node: NodeInfo,
  candidates: readonly DeviceEntry[],
  claim: ClaimToAllocate,
  index: number,
): Slot[] {
  const slots: Slot[] = [];
  let minimum = 0;
  for (const request of claim.devices?.requests ?? []) {
    const specs: Array<[string, RequestSpec]> = request.exactly
      ? [[request.name, request.exactly]]
      : (request.firstAvailable ?? []).map((sub) => [`${request.name}/${sub.name}`, sub]);
    if (specs.length === 0) throw new Unknown(`claim ${claim.key}, request ${request.name}: unknown request type`);
    const alternatives = specs.map(([name, spec]) =>
      nodeAlternative(catalog, node, spec, name, () =>
        alternativeOf(catalog, candidates, claim, request.name, name, spec),
      ),
    );
    minimum += Math.min(...alternatives.map((a) => a.count));
    slots.push({ claim: index, alternatives });
  }
  if (minimum > ALLOCATION_RESULTS_MAX_SIZE) {
    throw new Unknown(
      `claim ${claim.key}: number of requested devices ${minimum} exceeds the claim limit of ${ALLOCATION_RESULTS_MAX_SIZE}`,
    );
  }
  return slots;
}

/**
 * Per catalog and request content (the claim's or its template's: the templates of many workloads ask
 * alike), each node's alternative: which devices pass the class's and the request's selectors and
 * tolerations is the node's and the request's alone, and the placements of a plan (and of an audit's
 * every node) ask it of the same nodes again and again, each asking being a CEL evaluation per device. A
 * request the allocator cannot model throws (naming the claim) and is not kept: it throws again, naming
 * the next claim.
 */
const alternatives = new WeakMap<DraCatalog, Map<string, Map<string, Alternative>>>();

function nodeAlternative(
  catalog: DraCatalog,
  node: NodeInfo,
  spec: RequestSpec,
  name: string,
  make: () => Alternative,
): Alternative {
  let perSpec = alternatives.get(catalog);
  if (!perSpec) alternatives.set(catalog, (perSpec = new Map()));
  const content = jsonKey(spec);
  let perNode = perSpec.get(content);
  if (!perNode) perSpec.set(content, (perNode = new Map()));
  const key = `${node.name}\u0000${name}`;
  let alternative = perNode.get(key);
  if (!alternative) perNode.set(key, (alternative = make()));
  return alternative;
}

function alternativeOf(
  catalog: DraCatalog,
  candidates: readonly DeviceEntry[],
  claim: ClaimToAllocate,
  parent: string,
  name: string,
  spec: RequestSpec,
): Alternative {
  if (spec.adminAccess) throw new Unknown(`request ${name} asks for admin access, which the plan does not model`);
  if (spec.capacity) throw new Unknown(`request ${name} asks for device capacity, which the plan does not model`);
  const deviceClass = catalog.deviceClass(spec.deviceClassName);
  if (!deviceClass) throw new Unknown(`request ${name}: device class ${spec.deviceClassName} does not exist`);
  const selectors = [...(deviceClass.spec?.selectors ?? []), ...(spec.selectors ?? [])];
  const all = spec.allocationMode === 'All';
  const matching: DeviceEntry[] = [];
  for (const entry of candidates) {
    if (all && (!entry.poolComplete || entry.poolInvalid)) {
      const why = entry.poolInvalid ? 'is currently invalid' : 'is currently being updated';
      throw new Unknown(
        `claim ${claim.key}, request ${name}: asks for all devices, but resource pool ${entry.driver}/${entry.pool} ${why}`,
      );
    }
    if (entry.poolInvalid) continue;
    if (catalog.rules.draDeviceTaints && !tolerated(entry, spec.tolerations ?? [])) continue;
    const counters = (entry.device.consumesCounters ?? []).length > 0;
    // Without DRAPartitionableDevices (before 1.36) such a device cannot be allocated at all.
    if (counters && !catalog.rules.draPartitionableDevices) continue;
    if (!selected(catalog, entry, selectors, claim.key, name)) continue;
    if (counters) {
      throw new Unknown(`request ${name}: device ${entry.id} consumes shared counters, which the plan does not model`);
    }
    matching.push(entry);
  }
  const mode = spec.allocationMode ?? 'ExactCount';
  if (mode !== 'ExactCount' && mode !== 'All') throw new Unknown(`request ${name}: unsupported count mode ${mode}`);
  return { name, parent, matching, count: all ? matching.length : (spec.count ?? 1), all };
}

/** The device's NoSchedule and NoExecute taints are all tolerated by the request (DRADeviceTaints, on from 1.36). */
function tolerated(entry: DeviceEntry, tolerations: readonly V1DeviceToleration[]): boolean {
  const taints = (entry.device.taints ?? []) as V1DeviceTaint[];
  return taints.length === 0 || untoleratedDoNotScheduleTaint(taints, tolerations) === undefined;
}

function selected(
  catalog: DraCatalog,
  entry: DeviceEntry,
  selectors: readonly V1DeviceSelector[],
  claimKey: string,
  request: string,
): boolean {
  for (const [i, selector] of selectors.entries()) {
    const expression = selector.cel?.expression;
    if (expression === undefined) throw new Unknown(`claim ${claimKey}, request ${request}: selector #${i} is not CEL`);
    const compiled = compileSelector(expression);
    if ('error' in compiled) {
      throw new Unknown(`the plan cannot evaluate the CEL selector ${JSON.stringify(expression)}: ${compiled.error}`);
    }
    const result = compiled.selector(catalog.celDevice(entry));
    if (result instanceof Error) {
      throw new Unknown(
        `claim ${claimKey}: selector #${i}: CEL runtime error on device ${entry.id}: ${result.message} (kube-scheduler aborts the attempt)`,
      );
    }
    if (!result) return false;
  }
  return true;
}

/** matchAttribute: every device of the requests it names has the same value; distinctAttribute: all differ. */
class Constraint {
  private readonly requests: ReadonlySet<string> | null;
  private readonly attribute: string;
  private readonly distinct: boolean;
  private readonly values: string[] = [];
  /** Whether each add applied to its device (so remove undoes only those). */
  private readonly applied: boolean[] = [];

  constructor(spec: V1DeviceConstraint) {
    this.requests = (spec.requests ?? []).length > 0 ? new Set(spec.requests) : null;
    this.distinct = spec.matchAttribute === undefined;
    this.attribute = spec.matchAttribute ?? spec.distinctAttribute ?? '';
    if (this.attribute === '') throw new Unknown('empty constraint (unsupported constraint type?)');
  }

  add(alt: Alternative, entry: DeviceEntry): boolean {
    if (this.requests && !this.requests.has(alt.parent) && !this.requests.has(alt.name)) {
      this.applied.push(false);
      return true;
    }
    const value = lookupAttribute(entry, this.attribute);
    if (value === undefined) return false;
    const ok = this.distinct ? !this.values.includes(value) : this.values.length === 0 || this.values[0] === value;
    if (!ok) return false;
    this.values.push(value);
    this.applied.push(true);
    return true;
  }

  remove(_alt: Alternative): void {
    if (this.applied.pop()) this.values.pop();
  }
}

/** `lookupAttribute`: the fully qualified name, or its local name when the domain is the driver's; typed, as a key. */
function lookupAttribute(entry: DeviceEntry, qualified: string): string | undefined {
  const attributes = entry.device.attributes ?? {};
  let attribute = attributes[qualified];
  const slash = qualified.indexOf('/');
  if (!attribute && slash >= 0 && qualified.slice(0, slash) === entry.driver)
    attribute = attributes[qualified.slice(slash + 1)];
  if (!attribute) return undefined;
  const value = attributeValue(attribute);
  if (value === undefined) return undefined;
  const version = attribute.version;
  return version !== undefined ? `version:${version}` : `${typeof value}:${String(value)}`;
}

/**
 * `createNodeSelector`: a device on one node ties the allocation to this node; otherwise the slices'
 * node selectors are ANDed; devices reachable from every node leave it usable anywhere (null).
 */
function reachOf(node: NodeInfo, devices: readonly AllocatedDevice[]): NodeMatcher | null {
  if (devices.some((d) => d.entry.nodeName !== undefined)) {
    const name = node.name;
    return (n) => n.name === name;
  }
  const selectors = devices.flatMap((d) => (d.entry.nodeSelector ? [d.entry.nodeSelector] : []));
  if (selectors.length === 0) return null;
  const matchers = selectors.map((s) => nodeSelectorMatcher(s.nodeSelectorTerms));
  return (n) => matchers.every((m) => m(n));
}
