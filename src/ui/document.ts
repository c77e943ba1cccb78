import { JsonStreamStringify } from 'json-stream-stringify';
import { stringify } from 'yaml';

/**
 * `-o json` and `-o yaml` of a document (a plan, a pool plan, the version): the value exactly as the
 * command made it (the plan's contract is plan/types.ts), one document, ending in a newline. Nothing is
 * added or reordered here, so scripts read the same fields the planner wrote.
 */
export function renderJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * `-o json` of a document of any size: renderJson's text, or the same text in pieces when it is longer
 * than one string may be (V8 caps a string at 2^29 − 24 characters, and a pool plan of a large cluster
 * passes that: each replacement lists the nodes its scheduler checked, and why each one refused it).
 */
export function jsonDocument(value: unknown): string | AsyncIterable<string> {
  try {
    return renderJson(value);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    return jsonInPieces(value);
  }
}

/** JSON.stringify(value, null, 2)'s text and a newline, piece by piece, never held whole. */
export async function* jsonInPieces(value: unknown): AsyncGenerator<string> {
  for await (const piece of new JsonStreamStringify(value, undefined, 2)) yield piece as string;
  yield '\n';
}

/**
 * YAML as kubectl writes it: every object written out where it stands, never an anchor and aliases
 * (a plan shares objects, a node's reasons among the pods it refuses, and a reader of `*a1` would have to
 * look for `&a1`); long lines never folded (scheduler messages).
 */
const YAML_OPTIONS = { indent: 2, lineWidth: 0, aliasDuplicateObjects: false } as const;

export function renderYaml(value: unknown): string {
  return stringify(value, YAML_OPTIONS);
}

/**
 * renderYaml's text a top-level field at a time, and a top-level list an entry at a time: no one string
 * holds a large document (a pool plan of a large cluster runs to hundreds of megabytes once every object
 * is written out where it stands). A list under a key is its entries' lines one after the other, so the
 * pieces join into the same text.
 */
export function* yamlInPieces(value: unknown): Generator<string> {
  const fields = isRecord(value) ? Object.entries(value).filter(([, field]) => field !== undefined) : [];
  if (fields.length === 0) {
    yield renderYaml(value);
    return;
  }
  for (const [key, field] of fields) {
    if (!Array.isArray(field) || field.length === 0) {
      yield renderYaml({ [key]: field });
      continue;
    }
    for (const [i, entry] of field.entries()) {
      const text = renderYaml({ [key]: [entry] });
      // "key:\n" and then the entry's lines: the key line once, before the first entry.
      yield i === 0 ? text : text.slice(text.indexOf('\n') + 1);
    }
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
