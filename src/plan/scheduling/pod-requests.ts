import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { resourceAmount } from '../../snapshot/quantity.js';

/** Amounts by resource name: cpu in millicores, memory and the rest in units (component-helpers' units). */
export type Resources = Readonly<Record<string, number>>;
type MutableResources = Record<string, number>;

/** Pod-level `spec.resources.requests` may set these (PodLevelResources, beta and on since 1.34). */
const isPodLevelResource = (name: string) => name === 'cpu' || name === 'memory' || name.startsWith('hugepages-');

/**
 * Whether and how a pod's status counts (KubeRules.resizeSumsFirst): `false` for a pod not yet on a node
 * (a replacement: its spec alone); for a pod already there, 'per-container' (1.34–1.36: each container at
 * the largest of its spec, allocated and actuated requests) or 'sums-first' (1.37: each of the three
 * summed over the containers, the largest sum).
 */
export type StatusRule = false | 'per-container' | 'sums-first';

/** The StatusRule for pods already on a node, on the server's version. */
export const statusRuleOf = (rules: { readonly resizeSumsFirst: boolean }): StatusRule =>
  rules.resizeSumsFirst ? 'sums-first' : 'per-container';

/**
 * The pod's effective request, as `resourcehelper.PodRequests` computes it for the scheduler:
 * - regular containers summed, plus every restartable init container (sidecar), which keeps running;
 * - the init phase: each ordinary init container plus the sidecars started before it, each sidecar
 *   with the sidecars up to and including it; per resource the larger of the two wins;
 * - pod-level requests (cpu, memory, hugepages-*) replace the container aggregate for that resource;
 * - `spec.overhead` (RuntimeClass) is added on top.
 * With `status`, the requests its status records (allocated and actuated) count too, as
 * InPlacePodVerticalScaling (GA 1.35) makes the scheduler do for pods already on a node (StatusRule).
 */
export function podRequests(pod: V1Pod, status: StatusRule = false, missing: Resources = {}): Resources {
  const spec = pod.spec;
  if (!spec) return {};
  const resized = status ? statusRequests(pod) : undefined;
  let total: MutableResources;
  if (!resized) {
    total = aggregate(pod, (c) => withMissing(toResources(c.resources?.requests), c, missing));
  } else if (status === 'per-container') {
    total = aggregate(pod, (c) => withMissing(containerRequests(c, resized.get(c.name)), c, missing));
  } else {
    // `AggregateContainerRequests` with UseStatusResources (component-helpers v0.37.2): a container
    // without an allocated status counts at its spec there, one without an actuated one at its allocated.
    const own = (c: V1Container) => toResources(c.resources?.requests);
    const allocatedOf = (c: V1Container) => resized.get(c.name)?.allocated ?? own(c);
    total = aggregate(pod, (c) => withMissing(own(c), c, missing));
    maxInto(
      total,
      aggregate(pod, (c) => withMissing(allocatedOf(c), c, missing)),
    );
    maxInto(
      total,
      aggregate(pod, (c) => withMissing(resized.get(c.name)?.actuated ?? allocatedOf(c), c, missing)),
    );
  }

  for (const [name, quantity] of Object.entries(spec.resources?.requests ?? {})) {
    if (isPodLevelResource(name)) total[name] = resourceAmount(name, quantity);
  }
  for (const [name, quantity] of Object.entries(spec.overhead ?? {})) {
    total[name] = (total[name] ?? 0) + resourceAmount(name, quantity);
  }
  return total;
}

/** The containers' requests (`requestsOf` each) with sidecars and the init phase (`aggregateContainerResourcesByFn`). */
function aggregate(pod: V1Pod, requestsOf: (c: V1Container) => Resources): MutableResources {
  const total: MutableResources = {};
  for (const c of pod.spec?.containers ?? []) addInto(total, requestsOf(c));

  const sidecars: MutableResources = {};
  const initPeak: MutableResources = {};
  for (const c of pod.spec?.initContainers ?? []) {
    if (c.restartPolicy === 'Always') {
      addInto(total, requestsOf(c));
      addInto(sidecars, requestsOf(c));
      maxInto(initPeak, sidecars);
    } else {
      maxInto(initPeak, sum(requestsOf(c), sidecars));
    }
  }
  maxInto(total, initPeak);
  return total;
}

/**
 * What the scheduler's scoring counts a container without a cpu or memory request at
 * (`schedutil.DefaultMilliCPURequest`, `DefaultMemoryRequest`): 100m and 200Mi, so that a node full of
 * pods without requests does not score as empty.
 */
const NON_ZERO_DEFAULTS: Resources = { cpu: 100, memory: 200 * 1024 * 1024 };

/**
 * The pod's cpu and memory as NodeResourcesFit's LeastAllocated score counts them (the NodeInfo's
 * `NonZeroRequested`): podRequests with each container's missing cpu or memory request taken at its default.
 */
export function nonZeroRequests(pod: V1Pod, status: StatusRule = false, requests?: Resources): Resources {
  // Where every container requests cpu and memory the defaults change nothing: the pod's own requests,
  // already computed for every pod of the cluster, serve without a second pass over its containers.
  const all = requests && !missesADefault(pod) ? requests : podRequests(pod, status, NON_ZERO_DEFAULTS);
  return { cpu: all.cpu ?? 0, memory: all.memory ?? 0 };
}

function missesADefault(pod: V1Pod): boolean {
  const containers = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
  return containers.some((c) =>
    Object.keys(NON_ZERO_DEFAULTS).some((name) => c.resources?.requests?.[name] === undefined),
  );
}

/** The container's requests with `missing` filling the resources its spec does not request. */
function withMissing(requests: Resources, container: V1Container, missing: Resources): Resources {
  let out: MutableResources | undefined;
  for (const name in missing) {
    if (container.resources?.requests?.[name] !== undefined) continue;
    out ??= { ...requests };
    out[name] = Math.max(out[name] ?? 0, missing[name]!);
  }
  return out ?? requests;
}

function containerRequests(container: V1Container, status: StatusOfContainer | undefined): Resources {
  const own = toResources(container.resources?.requests);
  if (!status) return own;
  const result: MutableResources = { ...own };
  if (status.allocated) maxInto(result, status.allocated);
  if (status.actuated) maxInto(result, status.actuated);
  return result;
}

/** What a container's status records: `allocatedResources`, and the `resources.requests` it runs with. */
interface StatusOfContainer {
  readonly allocated: Resources | undefined;
  readonly actuated: Resources | undefined;
}

/**
 * The requests a pod's status records per container (allocated, actuated), or undefined when it records
 * none: the common case, which then costs one pass over the statuses.
 */
function statusRequests(pod: V1Pod): Map<string, StatusOfContainer> | undefined {
  let out: Map<string, StatusOfContainer> | undefined;
  for (const s of [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])]) {
    if (!s.allocatedResources && !s.resources?.requests) continue;
    out ??= new Map();
    out.set(s.name, {
      allocated: s.allocatedResources ? toResources(s.allocatedResources) : undefined,
      actuated: s.resources?.requests ? toResources(s.resources.requests) : undefined,
    });
  }
  return out;
}

/** A `{name: quantity}` map from the API (`requests`, `allocatable`, `overhead`) in scheduler units. */
export function toResources(list: Readonly<Record<string, string | number>> | undefined): Resources {
  const out: MutableResources = {};
  for (const name in list) out[name] = resourceAmount(name, list[name]!);
  return out;
}

export function addInto(target: MutableResources, add: Resources): void {
  for (const name in add) target[name] = (target[name] ?? 0) + add[name]!;
}

function maxInto(target: MutableResources, other: Resources): void {
  for (const name in other) {
    if (!(name in target) || other[name]! > target[name]!) target[name] = other[name]!;
  }
}

function sum(a: Resources, b: Resources): MutableResources {
  const out: MutableResources = { ...a };
  addInto(out, b);
  return out;
}
