import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonListStream, JsonStreamError } from '../../src/json-list-stream.js';

/** Feeds `text` to a stream `chunkSize` bytes at a time. */
function parseInChunks(text: string, chunkSize: number, maxPieceBytes?: number): unknown {
  const bytes = Buffer.from(text);
  const stream = new JsonListStream(maxPieceBytes);
  for (let i = 0; i < bytes.length; i += chunkSize) stream.push(bytes.subarray(i, i + chunkSize));
  return stream.end();
}

function streamError(text: string, chunkSize = 5, maxPieceBytes?: number): JsonStreamError {
  try {
    parseInChunks(text, chunkSize, maxPieceBytes);
  } catch (err) {
    expect(err).toBeInstanceOf(JsonStreamError);
    return err as JsonStreamError;
  }
  throw new Error('the document unexpectedly parsed');
}

/** Strings that look like structure: braces, brackets, quotes, backslashes, escaped newlines, non-ASCII. */
const tricky = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'tricky', annotations: { a: '},\n    {"x": [', b: 'a\\"}]', c: '\\', d: 'é✓ 🚀' } },
  data: { nested: '{"items": [{"kind": "Pod"}]}' },
};
const pod = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels: { app: 'a' } },
  spec: { containers: [{ name: 'c', ports: [{ containerPort: 80 }] }] },
  status: {
    conditions: [
      { type: 'Ready', status: 'True' },
      { type: 'PodScheduled', status: 'True' },
    ],
  },
});
const list = (...items: unknown[]) => ({ apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '' } });

const DOCUMENTS: ReadonlyArray<readonly [string, string]> = [
  ['a kubectl List, indented with four spaces', JSON.stringify(list(pod('a'), tricky, pod('b'), pod('c')), null, 4)],
  ['the same List on one line', JSON.stringify(list(pod('a'), tricky, pod('b')))],
  ['a plain array, indented with two spaces', JSON.stringify([pod('a'), pod('b'), tricky], null, 2)],
  ['a List with Windows line breaks', JSON.stringify(list(pod('a'), pod('b')), null, 2).replaceAll('\n', '\r\n')],
  ['a List indented with tabs', JSON.stringify(list(pod('a'), pod('b')), null, '\t')],
  ['a List of Lists', JSON.stringify(list(list(pod('a')), pod('b'), list()), null, 4)],
  ['scalar elements', JSON.stringify({ kind: 'List', items: [1, 'x', true, null, -2.5e3, '"]'] }, null, 1)],
  ['an empty list', JSON.stringify(list(), null, 4)],
  ['an object without items', JSON.stringify(pod('alone'), null, 4)],
  ['items that is not an array', JSON.stringify({ kind: 'Weird', items: { a: [1] }, more: [2] }, null, 4)],
  ['keys after the list', '{"items": [{"a": 1}],\n "kind": "List", "metadata": {"labels": {"x": "}"}}}'],
  ['a byte order mark before the document', `\uFEFF${JSON.stringify(list(pod('a')), null, 4)}`],
  [
    // Inner objects at the elements' indentation: the shortcut cuts inside the first element, and the scan recovers.
    'misleading indentation',
    '{"items": [\n  {"a": [{"b": 1},\n  {"c": 2}]},\n  {"d": 3}\n]}',
  ],
];

describe('JsonListStream gives what JSON.parse gives, whatever the chunks', () => {
  for (const [name, text] of DOCUMENTS) {
    it(name, () => {
      const expected: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
      for (const size of [1, 2, 3, 7, 64, text.length]) expect(parseInChunks(text, size)).toEqual(expected);
    });
  }
});

describe('JsonListStream on any JSON list', () => {
  // Strings full of what the scan jumps through or stops at: quotes, backslashes, braces, brackets, commas.
  const tricky = fc.string({ unit: fc.constantFrom('"', '\\', '{', '}', '[', ']', ',', ':', 'a', 'é', '😀', '\n') });
  const value = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      tricky,
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(tricky, tie('value'), { maxKeys: 4 }),
    ),
  })).value;
  const document = fc.record({
    head: fc.dictionary(
      tricky.filter((k) => k !== 'items'),
      value,
      { maxKeys: 3 },
    ),
    items: fc.array(value, { maxLength: 8 }),
    indent: fc.constantFrom(undefined, 1, 2, 4, '\t'),
    chunk: fc.integer({ min: 1, max: 64 }),
  });

  it('gives what JSON.parse gives, kept or handed over, whatever the chunks', () => {
    fc.assert(
      fc.property(document, ({ head, items, indent, chunk }) => {
        const text = JSON.stringify({ ...head, items }, null, indent);
        const expected: unknown = JSON.parse(text);
        expect(parseInChunks(text, chunk)).toEqual(expected);
        const handed: unknown[] = [];
        const stream = new JsonListStream(undefined, (item) => handed.push(item));
        const bytes = Buffer.from(text);
        for (let i = 0; i < bytes.length; i += chunk) stream.push(bytes.subarray(i, i + chunk));
        expect(stream.end()).toEqual({ ...(expected as object), items: [] });
        expect(handed).toEqual(items.map((item) => JSON.parse(JSON.stringify(item)) as unknown));
      }),
      { numRuns: 300 },
    );
  });
});

describe('JsonListStream errors give the byte offset in the file', () => {
  it('a broken element is reported where JSON.parse reports it', () => {
    const text = '{\n  "kind": "List",\n  "items": [\n    {"kind": "Node"},\n    {"kind": "Node",}\n  ]\n}\n';
    const error = streamError(text);
    expect(error.offset).toBe(text.indexOf(',}') + 1);
    expect(error.message).not.toMatch(/position/);
  });

  it('a cut-off document ends unexpectedly at its last byte', () => {
    const text = JSON.stringify(list(pod('a'), pod('b')), null, 4).slice(0, -20);
    const error = streamError(text);
    expect([error.message, error.offset]).toEqual(['Unexpected end of JSON input', text.length]);
  });

  it('text after the document is reported where it starts', () => {
    const text = `${JSON.stringify(list(pod('a')), null, 4)}\nextra`;
    expect(streamError(text).offset).toBe(text.indexOf('extra'));
  });

  it('a document that is not JSON (YAML) is refused at its first character', () => {
    const error = streamError('kind: List\nitems: []\n');
    expect([error.message, error.offset]).toEqual(['a document this large must be a JSON object or array', 0]);
  });

  it('an element larger than the limit is refused rather than buffered', () => {
    const text = JSON.stringify(list({ kind: 'Pod', metadata: { name: 'x'.repeat(200) } }));
    expect(streamError(text, 16, 100).message).toBe('one element of the list takes more than 100 bytes');
  });
});
