import { describe, expect, it } from 'vitest';
import { JsonListStream, readListItems } from '../../src/json-list-stream.js';

/** A pod as the API server lists it, with strings that hold what the scan must skip: quotes, escapes, brackets. */
function pod(i: number) {
  return {
    metadata: {
      name: `p-${i}`,
      namespace: 'bench-read',
      resourceVersion: String(1000 + i),
      labels: { app: `app-${i % 7}` },
      annotations: {
        note: `a "quoted" {brace} [bracket] \\ backslash, \\" escaped quote, é ✓ 😀 #${i}`,
        trailing: 'ends in a backslash \\',
        empty: '',
      },
      managedFields: [{ manager: 'kubectl', fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } } }],
    },
    spec: { nodeName: 'bench-node-1', containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.10', args: [] }] },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], podIP: null, ready: true, n: -1.5e3 },
  };
}

const envelope = {
  kind: 'PodList',
  apiVersion: 'v1',
  metadata: { resourceVersion: '4242', continue: 'eyJ2Ijoi[x]"', remainingItemCount: 7 },
};

/** The list's JSON as the API server writes it (compact), or indented as it writes it for curl. */
function listBody(count: number, indent?: number): Buffer {
  return Buffer.from(
    JSON.stringify({ ...envelope, items: Array.from({ length: count }, (_, i) => pod(i)) }, null, indent),
  );
}

/** `body` fed in pieces of `size` bytes (the last one shorter): what onItem got and what end() returned. */
function split(body: Buffer, size: number) {
  const items: unknown[] = [];
  const splitter = new JsonListStream(undefined, (item) => items.push(item));
  for (let at = 0; at < body.length; at += size) splitter.push(body.subarray(at, at + size));
  return { items, envelope: splitter.end() };
}

describe('JsonListStream hands over each item of a LIST answer as its bytes arrive', () => {
  const expected = JSON.parse(listBody(25).toString()) as { items: unknown[] };

  it.each([1, 2, 3, 7, 64, 1000, 1 << 20])('parses each item of a list fed in pieces of %i bytes', (size) => {
    const { items, envelope: rest } = split(listBody(25), size);
    expect(items).toEqual(expected.items);
    expect(rest).toEqual({ ...envelope, items: [] });
  });

  it('cuts at every byte: a piece may end inside a string, an escape, a multi-byte character or between items', () => {
    const body = listBody(3);
    const whole = JSON.parse(body.toString()) as { items: unknown[] };
    for (let cut = 1; cut < body.length; cut += 1) {
      const items: unknown[] = [];
      const splitter = new JsonListStream(undefined, (item) => items.push(item));
      splitter.push(body.subarray(0, cut));
      splitter.push(body.subarray(cut));
      expect(items, `cut at ${cut}`).toEqual(whole.items);
      expect(splitter.end(), `cut at ${cut}`).toEqual({ ...envelope, items: [] });
    }
  });

  it('reads an indented list, with the envelope after the items too', () => {
    const { items, envelope: rest } = split(listBody(4, 2), 5);
    expect(items).toHaveLength(4);
    const after = Buffer.from(
      '{"items" : [ {"a":{"items":[1]}} , {"b":"]"} ],"metadata":{"resourceVersion":"9"},"kind":"PodList"}',
    );
    const read: unknown[] = [];
    const splitter = new JsonListStream(undefined, (item) => read.push(item));
    splitter.push(after);
    expect(read).toEqual([{ a: { items: [1] } }, { b: ']' }]);
    expect(splitter.end()).toEqual({ items: [], metadata: { resourceVersion: '9' }, kind: 'PodList' });
    expect(rest).toMatchObject({ metadata: { resourceVersion: '4242' } });
  });

  it('an empty list, and one whose items are null, hand over nothing', () => {
    for (const text of ['{"kind":"PodList","items":[]}', '{"kind":"PodList","items":null}']) {
      const read: unknown[] = [];
      const splitter = new JsonListStream(undefined, (item) => read.push(item));
      splitter.push(Buffer.from(text));
      expect(read).toEqual([]);
      expect(splitter.end()).toEqual(JSON.parse(text));
    }
  });

  it('an array at the top level under another name is part of the envelope', () => {
    const splitter = new JsonListStream(undefined, () => {
      throw new Error('not an item');
    });
    splitter.push(Buffer.from('{"other":[{"a":1}],"itemsNot":[2]}'));
    expect(splitter.end()).toEqual({ other: [{ a: 1 }], itemsNot: [2] });
  });

  it('a body that ends before its JSON does throws a SyntaxError, as JSON.parse would', () => {
    const body = listBody(3);
    for (const cut of [1, 60, Math.floor(body.length / 2), body.length - 2, body.length - 1]) {
      const splitter = new JsonListStream(undefined, () => {});
      splitter.push(body.subarray(0, cut));
      expect(() => splitter.end(), `cut at ${cut}`).toThrow(SyntaxError);
    }
  });

  it('readListItems reads a stream of chunks to its end', async () => {
    const body = listBody(10);
    async function* chunks() {
      for (let at = 0; at < body.length; at += 100) yield new Uint8Array(body.subarray(at, at + 100));
    }
    const items: unknown[] = [];
    expect(await readListItems(chunks(), (item) => items.push(item))).toEqual({ ...envelope, items: [] });
    expect(items).toEqual((JSON.parse(body.toString()) as { items: unknown[] }).items);
  });

  describe('dropManagedFields: each item parsed without its metadata.managedFields', () => {
    /** The items as JSON.parse gives them, less metadata.managedFields. */
    const without = (body: Buffer) =>
      (JSON.parse(body.toString()) as { items: Array<{ metadata: Record<string, unknown> }> }).items.map((item) => {
        const { managedFields: _m, ...metadata } = item.metadata;
        return { ...item, metadata };
      });
    const read = (body: Buffer, cut: number) => {
      const items: unknown[] = [];
      const splitter = new JsonListStream(undefined, (item) => items.push(item), true);
      splitter.push(body.subarray(0, cut));
      splitter.push(body.subarray(cut));
      return { items, rest: splitter.end() };
    };

    it('cuts at every byte: the same items, without managedFields, whatever the pieces', () => {
      const body = listBody(3);
      const expected = without(body);
      expect(JSON.stringify(expected)).not.toContain('managedFields');
      for (let cut = 1; cut < body.length; cut += 1) {
        const { items, rest } = read(body, cut);
        expect(items, `cut at ${cut}`).toEqual(expected);
        expect(rest, `cut at ${cut}`).toEqual({ ...envelope, items: [] });
      }
    });

    it('managedFields first or last in metadata, and the same words inside a string, which stay', () => {
      const tricky = {
        kind: 'PodList',
        items: [
          { metadata: { managedFields: [{ a: ['],[', { b: '"]' }] }], name: 'first' }, spec: { x: 1 } },
          { metadata: { name: 'last', managedFields: [] }, status: { managedFields: 'not metadata' } },
          { metadata: { name: 'only', annotations: { note: ',"managedFields":[1]' }, managedFields: [{}] } },
          { metadata: { name: 'none' } },
        ],
      };
      const body = Buffer.from(JSON.stringify(tricky));
      const expected = [
        { metadata: { name: 'first' }, spec: { x: 1 } },
        { metadata: { name: 'last' }, status: { managedFields: 'not metadata' } },
        { metadata: { name: 'only', annotations: { note: ',"managedFields":[1]' } } },
        { metadata: { name: 'none' } },
      ];
      for (let cut = 1; cut < body.length; cut += 1) expect(read(body, cut).items, `cut at ${cut}`).toEqual(expected);
    });

    it('readListItems passes it on; without it the items keep their managedFields', async () => {
      const body = listBody(5);
      async function* chunks() {
        for (let at = 0; at < body.length; at += 333) yield new Uint8Array(body.subarray(at, at + 333));
      }
      const dropped: unknown[] = [];
      await readListItems(chunks(), (item) => dropped.push(item), { dropManagedFields: true });
      expect(dropped).toEqual(without(body));
      const kept: unknown[] = [];
      await readListItems(chunks(), (item) => kept.push(item));
      expect(kept).toEqual((JSON.parse(body.toString()) as { items: unknown[] }).items);
    });
  });
});
