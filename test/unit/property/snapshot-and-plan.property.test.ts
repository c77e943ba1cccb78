import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../../src/plan/build-plan.js';
import { ClusterIndex } from '../../../src/snapshot/cluster-index.js';
import { SnapshotLoadError, snapshotFromDocuments } from '../../../src/snapshot/load-file.js';
import { options } from '../plan/rules-fixture.js';
import { applyMutations, mutations } from './mutation.js';

/**
 * Any mutation of a valid snapshot (the bundled examples) gives a plan or a one-line error that
 * says where, never an internal error (a TypeError…), never a line longer than ERROR_LINE_BOUND. Seeded and
 * bounded: the same runs on every machine, a few seconds each.
 */
const ERROR_LINE_BOUND = 600;
const RUNS = 400;
/** A few seconds on an idle machine; generous, so a loaded CI machine does not fail it on time alone. */
const TIMEOUT_MS = 60_000;
const EXAMPLES = ['hello.json', 'hello-blocked.json'];

/** What a user sees: the plan, or the one error line. */
function planOrError(doc: unknown, file: string): { plan: boolean } | { error: string } {
  let index: ClusterIndex;
  try {
    index = new ClusterIndex(snapshotFromDocuments([doc], { type: 'file', path: file }, `snapshot "${file}"`));
  } catch (err) {
    if (!(err instanceof SnapshotLoadError)) throw err;
    return { error: err.message };
  }
  const nodes = index.nodes.map((n) => n.metadata!.name!).filter((n) => index.podsOnNode(n).length > 0);
  for (const node of nodes.length > 0 ? nodes : index.nodes.slice(0, 1).map((n) => n.metadata!.name!)) {
    buildPlan(index, options({ nodes: [node] }));
  }
  return { plan: true };
}

describe.each(EXAMPLES)('mutations of examples/%s', (name) => {
  const doc: unknown = JSON.parse(readFileSync(path.resolve('examples', name), 'utf8'));

  it(
    `give a plan or one short line naming the file, object and field (${RUNS} seeded runs)`,
    () => {
      fc.assert(
        fc.property(mutations(doc), (list) => {
          const result = planOrError(applyMutations(doc, list), name);
          if ('error' in result) {
            expect(result.error).not.toContain('\n');
            expect(result.error.length).toBeLessThanOrEqual(ERROR_LINE_BOUND);
            expect(result.error).toMatch(new RegExp(`^cannot read snapshot "${name}": `));
          }
        }),
        { seed: 8, numRuns: RUNS },
      );
    },
    TIMEOUT_MS,
  );

  it('a mutation of a field the API server checks names the object and the field', () => {
    fc.assert(
      fc.property(fc.constantFrom('abc', -5, ''), (quantity) => {
        const copy = structuredClone(doc) as { items: Array<Record<string, any>> }; // eslint-disable-line @typescript-eslint/no-explicit-any
        const i = copy.items.findIndex((o) => o.kind === 'Pod');
        copy.items[i]!.spec.containers[0].resources = { requests: { memory: quantity } };
        const result = planOrError(copy, name);
        expect(result).toEqual({
          error: expect.stringMatching(
            new RegExp(
              `^cannot read snapshot "${name}": items\\[${i}\\]: Pod [^:]+: spec\\.containers\\[0\\]\\.resources\\.requests\\["memory"\\]: `,
            ),
          ),
        });
      }),
      { seed: 8, numRuns: 3 },
    );
  });
});
