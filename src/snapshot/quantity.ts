/**
 * Resource quantities ("100m", "64Mi", "3377252Ki", "1.5", "2e3") as the scheduler counts them: cpu in
 * millicores (`MilliValue`), everything else in whole units (`Value`), both rounded UP like apimachinery's
 * resource.Quantity. client-node's quantityToScalar reads "" as 0 and cannot read "1.5Gi", so this is a small exact parser: the
 * arithmetic is done on BigInt so that "0.1" cpu is 100m, not 101m after a float round-up.
 */

const BINARY_SUFFIX: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL_SUFFIX: Readonly<Record<string, number>> = {
  n: -9,
  u: -6,
  m: -3,
  '': 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};

const QUANTITY = /^([+-]?)(\d*)(?:\.(\d*))?(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]))?$/;

/** Parsed quantities per scale: a cluster repeats the same few strings ("100m", "64Mi") many times. */
const cache = { 0: new Map<string, number | null>(), 3: new Map<string, number | null>() };

/**
 * The quantity scaled by 10^`scaleExponent` and rounded up (0 for milli-units, 3 for millicores).
 * Returns null when the text is not a quantity, so callers can ignore a malformed entry as the API
 * server would have refused it.
 */
export function scaledQuantity(text: string | number, scaleExponent: 0 | 3): number | null {
  const key = String(text);
  const hit = cache[scaleExponent].get(key);
  if (hit !== undefined) return hit;
  const value = parse(key.trim(), scaleExponent);
  cache[scaleExponent].set(key, value);
  return value;
}

/** cpu in millicores, anything else in units, as `Resource.Add` counts them. */
export function resourceAmount(resource: string, text: string | number): number {
  return scaledQuantity(text, resource === 'cpu' ? 3 : 0) ?? 0;
}

function parse(text: string, scaleExponent: number): number | null {
  const m = QUANTITY.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return null;
  const [, sign, whole, fraction = '', exponent, suffix = ''] = m;
  let mantissa = BigInt(`${whole}${fraction}` || '0');
  let power10 = scaleExponent - fraction.length;
  let power2 = 0;
  if (exponent !== undefined) power10 += Number(exponent.slice(1));
  else if (suffix in BINARY_SUFFIX) power2 = BINARY_SUFFIX[suffix]!;
  else power10 += DECIMAL_SUFFIX[suffix]!;
  if (power2 > 0) mantissa *= 2n ** BigInt(power2);
  let result: bigint;
  if (power10 >= 0) result = mantissa * 10n ** BigInt(power10);
  else {
    const divisor = 10n ** BigInt(-power10);
    result = (mantissa + divisor - 1n) / divisor;
  }
  return sign === '-' ? -Number(result) : Number(result);
}

/**
 * Why a value is not a quantity the API server would accept in a resource list (requests, limits,
 * allocatable, capacity, overhead), or null: resource.ParseQuantity's syntax (no spaces, a sign, digits
 * with an optional fraction, then a binary or decimal suffix or an exponent), and not negative, as
 * ValidateResourceQuantityValue requires.
 */
export function quantityProblem(value: unknown): string | null {
  if (typeof value === 'string' && validQuantities.has(value)) return null;
  const problem = checkQuantity(value);
  if (problem === null && typeof value === 'string') {
    if (validQuantities.size >= 4096) validQuantities.clear();
    validQuantities.add(value);
  }
  return problem;
}

/** Quantity strings found valid: a cluster repeats the same few ("100m", "64Mi") on every pod. Bounded. */
const validQuantities = new Set<string>();

function checkQuantity(value: unknown): string | null {
  if (typeof value === 'number') {
    return !Number.isFinite(value) ? 'is not a quantity' : value < 0 ? 'must be greater than or equal to 0' : null;
  }
  if (typeof value !== 'string') return 'is not a quantity (a string such as "100m" or "64Mi")';
  if (value === '') return 'is empty, not a quantity';
  const m = QUANTITY.exec(value);
  if (!m || (m[2] === '' && (m[3] ?? '') === ''))
    return `${JSON.stringify(value.length > 63 ? `${value.slice(0, 63)}…` : value)} is not a quantity`;
  if (m[1] === '-' && /[1-9]/.test(`${m[2]}${m[3] ?? ''}`))
    return `${JSON.stringify(value)} must be greater than or equal to 0`;
  return null;
}
