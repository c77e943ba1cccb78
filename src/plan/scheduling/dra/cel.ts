import { Environment } from '@marcbachmann/cel-js';
import type { V1Device, V1DeviceAttribute } from '@kubernetes/client-node';
import { scaledQuantity } from '../../../snapshot/quantity.js';

/**
 * A resource.Quantity in CEL (k8s.io/apiserver/pkg/cel/library/quantity.go), compared in milli-units
 * as apimachinery compares them.
 */
class Quantity {
  constructor(readonly milli: number) {}
}

/** A semantic version in CEL (the DRA `version` attribute type, library/semverlib.go). */
class Semver {
  constructor(
    readonly major: bigint,
    readonly minor: bigint,
    readonly patch: bigint,
    readonly pre: string,
  ) {}
}

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

function parseSemver(text: string): Semver {
  const m = SEMVER.exec(text);
  if (!m) throw new Error(`could not parse ${JSON.stringify(text)} as semver`);
  return new Semver(BigInt(m[1]!), BigInt(m[2]!), BigInt(m[3]!), m[4] ?? '');
}

function parseQuantity(text: string): Quantity {
  const milli = scaledQuantity(text, 3);
  if (milli === null) throw new Error(`could not parse ${JSON.stringify(text)} as a quantity`);
  return new Quantity(milli);
}

const sign = (n: number) => BigInt(Math.sign(n));

/** Semver precedence (semver 2.0.0 §11): numbers, then a pre-release below its release. */
function compareSemver(a: Semver, b: Semver): bigint {
  for (const [x, y] of [
    [a.major, b.major],
    [a.minor, b.minor],
    [a.patch, b.patch],
  ] as const) {
    if (x !== y) return x < y ? -1n : 1n;
  }
  if (a.pre === b.pre) return 0n;
  if (a.pre === '') return 1n;
  if (b.pre === '') return -1n;
  return comparePreRelease(a.pre.split('.'), b.pre.split('.'));
}

function comparePreRelease(a: readonly string[], b: readonly string[]): bigint {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const [x, y] = [a[i]!, b[i]!];
    if (x === y) continue;
    const [nx, ny] = [/^\d+$/.test(x), /^\d+$/.test(y)];
    if (nx && ny) return BigInt(x) < BigInt(y) ? -1n : 1n;
    if (nx !== ny) return nx ? -1n : 1n;
    return x < y ? -1n : 1n;
  }
  return sign(a.length - b.length);
}

/**
 * The CEL environment of a device selector (dynamic-resource-allocation/cel/compile.go): a `device`
 * variable, and the Kubernetes quantity and semver libraries its attributes and capacities need.
 */
const environment = new Environment()
  .registerType('Quantity', Quantity)
  .registerType('Semver', Semver)
  .registerVariable('device', 'map')
  .registerFunction('quantity(string): Quantity', parseQuantity)
  .registerFunction('isQuantity(string): bool', (s: string) => scaledQuantity(s, 3) !== null)
  .registerFunction('Quantity.compareTo(Quantity): int', (a: Quantity, b: Quantity) => sign(a.milli - b.milli))
  .registerFunction('Quantity.isGreaterThan(Quantity): bool', (a: Quantity, b: Quantity) => a.milli > b.milli)
  .registerFunction('Quantity.isLessThan(Quantity): bool', (a: Quantity, b: Quantity) => a.milli < b.milli)
  .registerFunction('Quantity.add(Quantity): Quantity', (a: Quantity, b: Quantity) => new Quantity(a.milli + b.milli))
  .registerFunction('Quantity.sub(Quantity): Quantity', (a: Quantity, b: Quantity) => new Quantity(a.milli - b.milli))
  .registerFunction('Quantity.add(int): Quantity', (a: Quantity, b: bigint) => new Quantity(a.milli + Number(b) * 1000))
  .registerFunction('Quantity.sub(int): Quantity', (a: Quantity, b: bigint) => new Quantity(a.milli - Number(b) * 1000))
  .registerFunction('Quantity.sign(): int', (a: Quantity) => sign(a.milli))
  .registerFunction('Quantity.isInteger(): bool', (a: Quantity) => a.milli % 1000 === 0)
  .registerFunction('Quantity.asInteger(): int', (a: Quantity) => BigInt(Math.ceil(a.milli / 1000)))
  .registerFunction('Quantity.asApproximateFloat(): double', (a: Quantity) => a.milli / 1000)
  .registerOperator('Quantity == Quantity', (a: Quantity, b: Quantity) => a.milli === b.milli)
  .registerFunction('semver(string): Semver', parseSemver)
  .registerFunction('isSemver(string): bool', (s: string) => SEMVER.test(s))
  .registerFunction('Semver.compareTo(Semver): int', compareSemver)
  .registerFunction('Semver.isGreaterThan(Semver): bool', (a: Semver, b: Semver) => compareSemver(a, b) > 0n)
  .registerFunction('Semver.isLessThan(Semver): bool', (a: Semver, b: Semver) => compareSemver(a, b) < 0n)
  .registerFunction('Semver.major(): int', (a: Semver) => a.major)
  .registerFunction('Semver.minor(): int', (a: Semver) => a.minor)
  .registerFunction('Semver.patch(): int', (a: Semver) => a.patch)
  .registerOperator('Semver == Semver', (a: Semver, b: Semver) => compareSemver(a, b) === 0n);

/** A compiled selector: true or false for a device, or an error (the allocator's "CEL runtime error"). */
export type DeviceSelector = (device: CelDevice) => boolean | Error;

/** A device as the `device` variable holds it; built once per device. */
export interface CelDevice {
  readonly driver: string;
  readonly attributes: Map<string, Map<string, unknown>>;
  readonly capacity: Map<string, Map<string, Quantity>>;
  readonly allowMultipleAllocations: boolean;
}

/** What a selector compiles to: the selector, or why it cannot be evaluated here (a function the library lacks…). */
export type CompiledSelector = { readonly selector: DeviceSelector } | { readonly error: string };

// A memo, not state: an expression always compiles the same way, and a cluster repeats a few of them.
const compiled = new Map<string, CompiledSelector>();

/** Compiles a selector's expression once; the result is kept for every later device and plan. */
export function compileSelector(expression: string): CompiledSelector {
  let result = compiled.get(expression);
  if (!result) {
    result = compile(expression);
    compiled.set(expression, result);
  }
  return result;
}

function compile(expression: string): CompiledSelector {
  let program: (context: Record<string, unknown>) => unknown;
  try {
    const check = environment.check(expression);
    if (!check.valid) return { error: firstLine(check.error?.message ?? 'invalid expression') };
    program = environment.parse(expression) as (context: Record<string, unknown>) => unknown;
  } catch (e) {
    return { error: firstLine((e as Error).message) };
  }
  // "If an unknown prefix is used as a lookup in either device.attributes or device.capacity, an empty map
  // will be returned" (CELDeviceSelector): the domains the expression names are looked up empty.
  const domains = [...expression.matchAll(/"([^"\\]*)"|'([^'\\]*)'/g)]
    .map((m) => m[1] ?? m[2] ?? '')
    .filter((s) => s.includes('.'));
  const selector: DeviceSelector = (device) => {
    try {
      const value = program({ device: withDomains(device, domains) });
      return typeof value === 'boolean' ? value : new Error(`expression must evaluate to bool, got ${typeof value}`);
    } catch (e) {
      return new Error(firstLine((e as Error).message));
    }
  };
  return { selector };
}

function withDomains(device: CelDevice, domains: readonly string[]): CelDevice {
  const missing = (map: Map<string, unknown>) => domains.some((d) => !map.has(d));
  if (!missing(device.attributes) && !missing(device.capacity)) return device;
  const attributes = new Map(device.attributes);
  const capacity = new Map(device.capacity);
  for (const d of domains) {
    if (!attributes.has(d)) attributes.set(d, new Map());
    if (!capacity.has(d)) capacity.set(d, new Map());
  }
  return { ...device, attributes, capacity };
}

function firstLine(text: string): string {
  return text.split('\n')[0]!.trim();
}

/**
 * The `device` variable for a device of a driver: attributes and capacities grouped by domain, a name
 * without a domain being the driver's (`device.attributes["gpu.example.com"].model`).
 */
export function celDevice(driver: string, device: V1Device): CelDevice {
  const attributes = new Map<string, Map<string, unknown>>();
  for (const [name, attribute] of Object.entries(device.attributes ?? {})) {
    const value = attributeValue(attribute);
    if (value !== undefined) domainOf(attributes, driver, name).set(localName(name), value);
  }
  const capacity = new Map<string, Map<string, Quantity>>();
  for (const [name, { value }] of Object.entries(device.capacity ?? {})) {
    const milli = scaledQuantity(value, 3);
    if (milli !== null) domainOf(capacity, driver, name).set(localName(name), new Quantity(milli));
  }
  return { driver, attributes, capacity, allowMultipleAllocations: device.allowMultipleAllocations === true };
}

/** An attribute's value; a live read names the int field `_int` (client-node's model), a file `int`. */
export function attributeValue(attribute: V1DeviceAttribute): unknown {
  const int = attribute._int ?? (attribute as { int?: number }).int;
  if (int !== undefined) return BigInt(int);
  if (attribute.bool !== undefined) return attribute.bool;
  if (attribute.string !== undefined) return attribute.string;
  if (attribute.version !== undefined) {
    try {
      return parseSemver(attribute.version);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function domainOf<T>(map: Map<string, Map<string, T>>, driver: string, name: string): Map<string, T> {
  const slash = name.indexOf('/');
  const domain = slash < 0 ? driver : name.slice(0, slash);
  let inner = map.get(domain);
  if (!inner) map.set(domain, (inner = new Map()));
  return inner;
}

function localName(name: string): string {
  const slash = name.indexOf('/');
  return slash < 0 ? name : name.slice(slash + 1);
}
