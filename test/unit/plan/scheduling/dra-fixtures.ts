/**
 * DRA objects for the DynamicResources tests, shaped like upstream's fixtures (st.MakeResourceClaim,
 * st.MakeResourceSlice…): a driver, device classes with CEL selectors, slices of named devices per node,
 * claims and templates with ExactCount or All requests.
 */
import type {
  V1Device,
  V1DeviceAttribute,
  V1DeviceClass,
  V1DeviceConstraint,
  V1DeviceRequest,
  V1Pod,
  V1PodResourceClaim,
  ResourceV1ResourceClaim,
  V1ResourceClaimTemplate,
  V1ResourceSlice,
} from '@kubernetes/client-node';

export const DRIVER = 'gpu.example.com';
export const CLASS = 'gpu';

export function deviceClass(name = CLASS, ...expressions: string[]): V1DeviceClass {
  const selectors = [`device.driver == "${DRIVER}"`, ...expressions].map((expression) => ({ cel: { expression } }));
  return { apiVersion: 'resource.k8s.io/v1', kind: 'DeviceClass', metadata: { name }, spec: { selectors } };
}

type AttributeValue = string | number | boolean | { version: string };

export function device(
  name: string,
  attributes: Record<string, AttributeValue> = {},
  capacity: Record<string, string> = {},
): V1Device {
  const attrs: Record<string, V1DeviceAttribute> = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (typeof value === 'string') attrs[key] = { string: value };
    else if (typeof value === 'number') attrs[key] = { int: value } as V1DeviceAttribute;
    else if (typeof value === 'boolean') attrs[key] = { bool: value };
    else attrs[key] = { version: value.version };
  }
  const caps = Object.fromEntries(Object.entries(capacity).map(([k, value]) => [k, { value }]));
  return { name, attributes: attrs, capacity: caps };
}

export interface SliceOptions {
  readonly pool?: string;
  readonly generation?: number;
  readonly sliceCount?: number;
  readonly allNodes?: boolean;
  readonly name?: string;
}

/** A ResourceSlice of the node's pool (named after the node) holding the devices. */
export function slice(node: string, devices: readonly V1Device[], options: SliceOptions = {}): V1ResourceSlice {
  const pool = options.pool ?? node;
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceSlice',
    metadata: { name: options.name ?? `${pool}-${DRIVER}` },
    spec: {
      driver: DRIVER,
      pool: { name: pool, generation: options.generation ?? 1, resourceSliceCount: options.sliceCount ?? 1 },
      ...(options.allNodes ? { allNodes: true } : { nodeName: node }),
      devices: [...devices],
    },
  };
}

/** A request for `count` devices of the class (ExactCount), or all of them. */
export function request(
  name = 'req-0',
  options: { count?: number; all?: boolean; selectors?: string[]; className?: string } = {},
): V1DeviceRequest {
  return {
    name,
    exactly: {
      deviceClassName: options.className ?? CLASS,
      allocationMode: options.all ? 'All' : 'ExactCount',
      ...(options.all ? {} : { count: options.count ?? 1 }),
      ...(options.selectors ? { selectors: options.selectors.map((expression) => ({ cel: { expression } })) } : {}),
    },
  };
}

export function claim(
  name: string,
  requests: readonly V1DeviceRequest[] = [request()],
  constraints: readonly V1DeviceConstraint[] = [],
): ResourceV1ResourceClaim {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: { name, namespace: 'default', uid: `uid-${name}` },
    spec: { devices: { requests: [...requests], constraints: [...constraints] } },
  };
}

/** The claim allocated the devices of a node's pool (its node selector names the node), reserved for the pods. */
export function allocated(
  c: ResourceV1ResourceClaim,
  node: string,
  devices: readonly string[],
  reservedFor: readonly V1Pod[] = [],
): ResourceV1ResourceClaim {
  return {
    ...c,
    status: {
      allocation: {
        devices: { results: devices.map((d) => ({ request: 'req-0', driver: DRIVER, pool: node, device: d })) },
        nodeSelector: {
          nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }],
        },
      },
      reservedFor: reservedFor.map((p) => ({ resource: 'pods', name: p.metadata!.name!, uid: p.metadata!.uid! })),
    },
  };
}

/** The claim made from a template for a pod: controlled by it. */
export function ownedBy(c: ResourceV1ResourceClaim, pod: V1Pod): ResourceV1ResourceClaim {
  return {
    ...c,
    metadata: {
      ...c.metadata,
      ownerReferences: [
        { apiVersion: 'v1', kind: 'Pod', name: pod.metadata!.name!, uid: pod.metadata!.uid!, controller: true },
      ],
    },
  };
}

export function template(name: string, requests: readonly V1DeviceRequest[] = [request()]): V1ResourceClaimTemplate {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaimTemplate',
    metadata: { name, namespace: 'default' },
    spec: { spec: { devices: { requests: [...requests] } } },
  };
}

/** The pod with these resource claims (spec.resourceClaims). */
export function withClaims(pod: V1Pod, ...claims: V1PodResourceClaim[]): V1Pod {
  return { ...pod, spec: { ...pod.spec!, resourceClaims: claims } };
}

export const shared = (name: string, claimName: string): V1PodResourceClaim => ({ name, resourceClaimName: claimName });
export const fromTemplate = (name: string, templateName: string): V1PodResourceClaim => ({
  name,
  resourceClaimTemplateName: templateName,
});
