import fc from 'fast-check';

/**
 * Mutations of a valid snapshot as a careless edit or a broken tool would make them: one field, anywhere
 * in the document, replaced by a value of another type, an edge value or nothing at all.
 */
export type Path = readonly (string | number)[];

export interface Mutation {
  readonly path: Path;
  /** `undefined`: the field is deleted. */
  readonly value: unknown;
}

/** Every path below the List's items (the objects' fields, at any depth). */
export function fieldPaths(doc: unknown): Path[] {
  const out: Path[] = [];
  const walk = (value: unknown, path: Path) => {
    if (path.length > 2) out.push(path);
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...path, i]));
    else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) walk(v, [...path, k]);
    }
  };
  walk(doc, []);
  return out;
}

const EDGE_VALUES: readonly unknown[] = [
  undefined,
  null,
  0,
  -5,
  1.5,
  1e300,
  '',
  'abc',
  '-5',
  'Sometimes',
  true,
  [],
  {},
  [0],
  [null],
  { a: 1 },
  'x'.repeat(300),
];

export const mutationValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...EDGE_VALUES) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.integer({ min: -1000, max: 1000 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);

/** One to three mutations at paths of `doc`. */
export function mutations(doc: unknown): fc.Arbitrary<Mutation[]> {
  const paths = fieldPaths(doc);
  return fc.array(fc.record({ path: fc.constantFrom(...paths), value: mutationValue }), { minLength: 1, maxLength: 3 });
}

export function applyMutations<T>(doc: T, list: readonly Mutation[]): T {
  const copy = structuredClone(doc);
  for (const { path, value } of list) {
    let target: unknown = copy;
    for (const key of path.slice(0, -1)) {
      if (target === null || typeof target !== 'object') break;
      target = (target as Record<string | number, unknown>)[key];
    }
    if (target === null || typeof target !== 'object') continue; // an earlier mutation removed the parent
    const last = path.at(-1)!;
    const record = target as Record<string | number, unknown>;
    if (value === undefined) {
      if (Array.isArray(record)) record.splice(Number(last), 1);
      else delete record[last];
    } else record[last] = structuredClone(value);
  }
  return copy;
}
