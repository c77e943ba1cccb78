import type { DraKind } from './types.js';

/**
 * The versions of `resource.k8s.io` DRA is read through, the one the plan prefers first: v1 is served by
 * default from 1.34; a 1.32 or 1.33 cluster that turned DRA on serves v1beta1 (and v1beta2 from 1.33),
 * and a newer one may still be made to serve only those (`--runtime-config`). One internal model: the
 * objects of every version are taken into v1's shape (`toV1`).
 */
export const DRA_API_VERSIONS = ['v1', 'v1beta2', 'v1beta1'] as const;
export type DraApiVersion = (typeof DRA_API_VERSIONS)[number];

export const DRA_GROUP = 'resource.k8s.io';

/** The version of an object's `apiVersion` ("resource.k8s.io/v1beta1"), if it is one of DRA_API_VERSIONS. */
export function draVersionOf(apiVersion: unknown): DraApiVersion | undefined {
  if (typeof apiVersion !== 'string' || !apiVersion.startsWith(`${DRA_GROUP}/`)) return undefined;
  const version = apiVersion.slice(DRA_GROUP.length + 1);
  return (DRA_API_VERSIONS as readonly string[]).includes(version) ? (version as DraApiVersion) : undefined;
}

type Json = Record<string, unknown>;
const isJson = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * A DRA object of `version` in v1's shape, for what the plan reads (k8s.io/api resource/v1beta1, v1beta2
 * and v1 types, v0.34): v1beta2 has v1's shape already. v1beta1 wraps a device's fields in `basic` and
 * puts a request's `deviceClassName`, `selectors`, `allocationMode`, `count`, `adminAccess`,
 * `tolerations` and `capacity` on the request itself, where v1 has them under `exactly` (beside
 * `firstAvailable`). Anything else is left as it is; the object is not changed in place.
 */
export function toV1(kind: DraKind, object: Json, version: DraApiVersion): Json {
  if (version !== 'v1beta1') return object;
  switch (kind) {
    case 'ResourceSlice':
      return withSpec(object, (spec) => ({
        ...spec,
        ...(Array.isArray(spec.devices) ? { devices: spec.devices.map(flatDevice) } : {}),
      }));
    case 'ResourceClaim':
      return withSpec(object, claimSpec);
    case 'ResourceClaimTemplate':
      return withSpec(object, (spec) => (isJson(spec.spec) ? { ...spec, spec: claimSpec(spec.spec) } : spec));
    case 'DeviceClass':
      return object;
  }
}

function withSpec(object: Json, change: (spec: Json) => Json): Json {
  return isJson(object.spec) ? { ...object, spec: change(object.spec) } : object;
}

function flatDevice(device: unknown): unknown {
  if (!isJson(device) || !isJson(device.basic)) return device;
  const { basic, ...rest } = device;
  return { ...rest, ...basic };
}

/** The request fields v1 keeps under `exactly`. */
const EXACT_FIELDS = [
  'deviceClassName',
  'selectors',
  'allocationMode',
  'count',
  'adminAccess',
  'tolerations',
  'capacity',
] as const;

function claimSpec(spec: Json): Json {
  const devices = spec.devices;
  if (!isJson(devices) || !Array.isArray(devices.requests)) return spec;
  return { ...spec, devices: { ...devices, requests: devices.requests.map(exactRequest) } };
}

function exactRequest(request: unknown): unknown {
  if (!isJson(request) || request.exactly !== undefined || request.firstAvailable !== undefined) return request;
  const exactly: Json = {};
  const rest: Json = {};
  for (const [field, value] of Object.entries(request)) {
    if ((EXACT_FIELDS as readonly string[]).includes(field)) exactly[field] = value;
    else rest[field] = value;
  }
  return { ...rest, exactly };
}
