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

export function renderYaml(value: unknown): string {
  // lineWidth 0: never fold long reasons (scheduler messages) across lines.
  return stringify(value, { indent: 2, lineWidth: 0 });
}
