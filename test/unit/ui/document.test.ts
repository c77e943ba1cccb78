import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { createHash } from 'node:crypto';
import {
  jsonDocument,
  jsonInPieces,
  renderJson as renderPlanJson,
  renderYaml as renderPlanYaml,
  yamlInPieces,
} from '../../../src/ui/document.js';
import { labPoolPlan } from './lab-pool-plan.js';
import { blockedPlan, slowPlan } from './plan-fixture.js';

/** The fields scripts rely on (the -o json contract). */
function contractFields(plan: ReturnType<typeof slowPlan>) {
  return {
    kind: plan.kind,
    nodes: plan.nodes,
    verdict: plan.verdict,
    pods: plan.pods.map((p) => ({
      namespace: p.namespace,
      name: p.name,
      node: p.node,
      action: p.action,
      outcome: p.outcome,
      pdbs: p.pdbs.map((b) => ({ namespace: b.namespace, name: b.name, disruptionsAllowed: b.disruptionsAllowed })),
      replacement:
        p.replacement === null ? null : { schedulable: p.replacement.schedulable, nodes: p.replacement.nodes },
      noExecute: { afterSeconds: p.noExecute.afterSeconds },
      nodeFailure: { afterSeconds: p.nodeFailure.afterSeconds },
    })),
  };
}

describe('renderPlanJson', () => {
  it('prints exactly one object, 2-space indented, ending in a newline', () => {
    const text = renderPlanJson(slowPlan());
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.split('\n')[1]).toBe('  "kind": "DrainPlan",');
    expect(() => JSON.parse(text)).not.toThrow();
  });
  it.each([
    { name: 'slow', plan: slowPlan() },
    { name: 'blocked', plan: blockedPlan() },
  ])('round-trips the contract fields of a $name plan unchanged', ({ plan }) => {
    const parsed = JSON.parse(renderPlanJson(plan));
    expect(contractFields(parsed)).toEqual(contractFields(plan));
    expect(parsed).toEqual(plan);
  });
  it('keeps a pod without replacement as null, not as a missing field', () => {
    const parsed = JSON.parse(renderPlanJson(slowPlan()));
    const daemon = parsed.pods.find((p: { name: string }) => p.name === 'kube-proxy-x1');
    expect(daemon).toHaveProperty('replacement', null);
    expect(daemon.noExecute).toEqual({ afterSeconds: null, reason: 'tolerates every taint' });
  });
});

async function joined(pieces: AsyncIterable<string>): Promise<string> {
  const all: string[] = [];
  for await (const piece of pieces) all.push(piece);
  return all.join('');
}

describe('jsonDocument', () => {
  it.each([
    { name: 'a slow plan', value: slowPlan() },
    { name: 'a blocked plan', value: blockedPlan() },
    {
      name: 'what JSON.stringify drops or rewrites',
      value: {
        gone: undefined,
        fn: () => 1,
        list: [undefined, Number.NaN, -0, 1e21],
        empty: { o: {}, a: [] },
        s: 'é\u2028"\\',
      },
    },
  ])('in pieces, writes the same text as renderJson for $name', async ({ value }) => {
    expect(await joined(jsonInPieces(value))).toBe(renderPlanJson(value));
  });

  it('writes a document longer than a string may be, whole, in pieces', async () => {
    // 600 entries of 1 MiB: past V8's cap on a string's length (2^29 - 24 characters), where
    // JSON.stringify throws RangeError.
    const mebibyte = 'x'.repeat(2 ** 20);
    const value = { items: Array.from({ length: 600 }, () => mebibyte) };
    const document = jsonDocument(value);
    expect(typeof document).not.toBe('string');

    const expected = createHash('sha256').update('{\n  "items": [\n');
    value.items.forEach((item, i) => expected.update(`    "${item}"${i < value.items.length - 1 ? ',' : ''}\n`));
    expected.update('  ]\n}\n');
    const written = createHash('sha256');
    let length = 0;
    for await (const piece of document as AsyncIterable<string>) {
      written.update(piece);
      length += piece.length;
    }
    expect(length).toBeGreaterThan(2 ** 29);
    expect(written.digest('hex')).toBe(expected.digest('hex'));
  });

  it('returns a document a string can hold as one string', () => {
    expect(jsonDocument(slowPlan())).toBe(renderPlanJson(slowPlan()));
  });
});

describe('renderPlanYaml', () => {
  it('prints one YAML document equal to the plan', () => {
    const text = renderPlanYaml(blockedPlan());
    expect(parseAllDocuments(text)).toHaveLength(1);
    expect(parse(text)).toEqual(blockedPlan());
    expect(text.startsWith('kind: DrainPlan\n')).toBe(true);
  });
  it('never folds a long scheduler message across lines', () => {
    const text = renderPlanYaml(blockedPlan());
    expect(text).toContain(
      "0/3 nodes are available: 1 node(s) didn't match pod topology spread constraints, 1 node(s)",
    );
  });
});

describe('renderPlanYaml without anchors', () => {
  it('writes an object shared by two fields out in both, as kubectl does, never as an anchor and an alias', () => {
    const reasons = ['node(s) had untolerated taint(s)'];
    const text = renderPlanYaml({
      kind: 'DrainPlan',
      rejected: [
        { node: 'a', reasons },
        { node: 'b', reasons },
      ],
    });
    expect(text).not.toMatch(/[&*]a\d/);
    expect(text.match(/untolerated/g)).toHaveLength(2);
  });

  it('writes a pool plan, whose batches share objects, with no anchor or alias and equal to the plan', async () => {
    const plan = await labPoolPlan();
    const text = renderPlanYaml(plan);
    expect(text).not.toMatch(/(^|[\s:-])[&*]a\d+\b/m);
    expect(parse(text)).toEqual(JSON.parse(JSON.stringify(plan)));
  });
});

describe('yamlInPieces', () => {
  it.each([
    { name: 'a slow plan', value: async () => slowPlan() },
    { name: 'a blocked plan', value: async () => blockedPlan() },
    { name: 'a pool plan', value: () => labPoolPlan() },
    {
      name: 'fields left out, empty lists and lists of lists',
      value: async () => ({ a: undefined, b: [], c: [[1], []], d: {}, e: null }),
    },
    { name: 'an empty object', value: async () => ({}) },
    { name: 'a list', value: async () => [{ a: 1 }, 'b'] },
  ])("joins into renderYaml's text for $name", async ({ value }) => {
    const document = await value();
    expect([...yamlInPieces(document)].join('')).toBe(renderPlanYaml(document));
  });

  it('writes a top-level list an entry at a time', async () => {
    const plan = await labPoolPlan();
    const pieces = [...yamlInPieces(plan)];
    expect(pieces.filter((p) => /^ {2}- number: /.test(p) || /^batches:\n {2}- number: /.test(p))).toHaveLength(
      plan.batches.length,
    );
  });
});
