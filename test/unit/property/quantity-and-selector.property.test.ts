import type { V1LabelSelectorRequirement } from '@kubernetes/client-node';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchesLabelSelector, parseLabelSelector } from '../../../src/snapshot/label-selector.js';
import { quantityProblem, scaledQuantity } from '../../../src/snapshot/quantity.js';

/** Seeded and bounded, as every property test here: the same runs everywhere, well under a second each. */
const RUN = { seed: 8, numRuns: 500 } as const;

describe('quantities', () => {
  const digits = fc.stringMatching(/^[0-9]{1,6}$/);
  const suffix = fc.constantFrom('', 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'Ki', 'Mi', 'Gi', 'Ti', 'e3', 'E2', 'e-2');
  const valid = fc
    .tuple(fc.constantFrom('', '+'), digits, fc.option(fc.stringMatching(/^[0-9]{0,3}$/), { nil: undefined }), suffix)
    .map(([sign, whole, fraction, s]) => `${sign}${whole}${fraction === undefined ? '' : `.${fraction}`}${s}`);

  it('every quantity of ParseQuantity syntax is accepted and has a value', () => {
    fc.assert(
      fc.property(valid, (text) => {
        expect(quantityProblem(text)).toBeNull();
        expect(scaledQuantity(text, 0)).not.toBeNull();
        expect(scaledQuantity(text, 3)).toBeGreaterThanOrEqual(0);
      }),
      RUN,
    );
  });

  it('the check and the parser agree on any text: accepted means a value >= 0, refused means a reason', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[-+0-9.eEkKMGTPimnu ]{0,8}$/), (text) => {
        const problem = quantityProblem(text);
        const value = scaledQuantity(text, 0);
        if (problem === null) expect(value).toBeGreaterThanOrEqual(0);
        if (value === null) expect(problem).not.toBeNull();
        if (problem !== null) expect(problem).not.toContain('\n');
      }),
      RUN,
    );
  });

  it('scales exactly: n, n·1024 for Ki, n millicores for nm, whole units rounded up', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (n) => {
        expect(scaledQuantity(String(n), 0)).toBe(n);
        expect(scaledQuantity(`${n}Ki`, 0)).toBe(n * 1024);
        expect(scaledQuantity(`${n}m`, 3)).toBe(n);
        expect(scaledQuantity(String(n), 3)).toBe(n * 1000);
        expect(scaledQuantity(`${n}m`, 0)).toBe(Math.ceil(n / 1000));
      }),
      RUN,
    );
  });

  it('no non-finite, negative or non-string value is a quantity', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ max: -1 }), fc.constantFrom(NaN, Infinity, null, true, [], {})), (value) => {
        expect(quantityProblem(value)).not.toBeNull();
      }),
      RUN,
    );
  });
});

describe('label selectors', () => {
  const KEYS = ['a', 'app', 'tier', 'example.com/team'];
  const VALUES = ['', 'web', 'db', '1', '7'];
  type Op = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Equals' | 'NotEquals' | 'Gt' | 'Lt';
  interface Term {
    key: string;
    op: Op;
    values: readonly string[];
  }
  const term: fc.Arbitrary<Term> = fc.oneof(
    fc.record({
      key: fc.constantFrom(...KEYS),
      op: fc.constantFrom<Op>('In', 'NotIn'),
      values: fc.uniqueArray(fc.constantFrom(...VALUES), { minLength: 1, maxLength: 3 }),
    }),
    fc.record({
      key: fc.constantFrom(...KEYS),
      op: fc.constantFrom<Op>('Exists', 'DoesNotExist'),
      values: fc.constant([]),
    }),
    fc.record({
      key: fc.constantFrom(...KEYS),
      op: fc.constantFrom<Op>('Equals', 'NotEquals'),
      values: fc.constantFrom(...VALUES).map((v) => [v]),
    }),
    fc.record({
      key: fc.constantFrom(...KEYS),
      op: fc.constantFrom<Op>('Gt', 'Lt'),
      values: fc.integer({ min: 0, max: 10 }).map((n) => [String(n)]), // "-1" is not a label value: labels.Parse refuses it
    }),
  );
  const labels = fc.dictionary(fc.constantFrom(...KEYS), fc.constantFrom(...VALUES, '3', 'x'), { maxKeys: 4 });
  const space = fc.constantFrom('', ' ', '  ', '\t');

  /** The selector's string form, with optional whitespace wherever labels.Parse skips it. */
  function render(terms: readonly Term[], s: () => string): string {
    const one = (t: Term) => {
      switch (t.op) {
        case 'In':
        case 'NotIn':
          return `${t.key} ${t.op.toLowerCase()}${s()}(${t.values.map((v) => `${s()}${v}${s()}`).join(',')})`;
        case 'Exists':
          return t.key;
        case 'DoesNotExist':
          return `!${s()}${t.key}`;
        case 'Equals':
          return `${t.key}${s()}=${s()}${t.values[0]}`;
        case 'NotEquals':
          return `${t.key}${s()}!=${s()}${t.values[0]}`;
        case 'Gt':
          return `${t.key}${s()}>${s()}${t.values[0]}`;
        case 'Lt':
          return `${t.key}${s()}<${s()}${t.values[0]}`;
      }
    };
    return terms.map((t) => `${s()}${one(t)}${s()}`).join(',');
  }

  /** labels.Requirement.Matches, written out again independently: every term must hold. */
  function holds(t: Term, have: Record<string, string>): boolean {
    const present = t.key in have;
    const v = have[t.key];
    switch (t.op) {
      case 'In':
      case 'Equals':
        return present && t.values.includes(v!);
      case 'NotIn':
      case 'NotEquals':
        return !present || !t.values.includes(v!);
      case 'Exists':
        return present;
      case 'DoesNotExist':
        return !present;
      case 'Gt':
      case 'Lt':
        if (!present || !/^-?\d+$/.test(v!)) return false;
        return t.op === 'Gt' ? Number(v) > Number(t.values[0]) : Number(v) < Number(t.values[0]);
    }
  }

  it('the parsed string selects exactly what its terms select, whatever the whitespace', () => {
    fc.assert(
      fc.property(
        fc.array(term, { maxLength: 4 }),
        fc.array(space, { minLength: 40, maxLength: 40 }),
        labels,
        (terms, spaces, have) => {
          let i = 0;
          const text = render(terms, () => spaces[i++ % spaces.length]!);
          const selector = parseLabelSelector(text);
          expect(matchesLabelSelector(have, selector)).toBe(terms.every((t) => holds(t, have)));
        },
      ),
      RUN,
    );
  });

  it('any text parses, or fails with one line naming the selector', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a!=(),<> \tinot1./-]{0,14}$/), (text) => {
        try {
          parseLabelSelector(text);
        } catch (err) {
          expect(err).toBeInstanceOf(Error);
          expect((err as Error).message).toMatch(/^invalid label selector ".*": [^\n]+$/s);
          expect((err as Error).message).not.toContain('\n');
        }
      }),
      RUN,
    );
  });

  it("apimachinery's valid selectors, parsed, printed in structured form and parsed back, select the same", () => {
    const cases = [
      'x=a,y=b,z=c',
      'x!=a,y=b',
      'x=,z= ',
      '!x',
      'x>1,z<5',
      'x in (abc,)',
      'x notin (abc,,def),bar,z in (),w',
      'a in (x,y,notin, z,in)',
      'x notin (, a)',
      'notin=in',
    ];
    const anyLabels = fc.dictionary(
      fc.constantFrom('x', 'y', 'z', 'a', 'w', 'bar', 'notin'),
      fc.constantFrom('', 'a', 'b', 'c', 'abc', 'in', '0', '9'),
      { maxKeys: 5 },
    );
    const form: Record<string, (key: string, values: readonly string[]) => string> = {
      In: (key, values) => `${key} in (${values.join(',')})`,
      NotIn: (key, values) => `${key} notin (${values.join(',')})`,
      Exists: (key) => key,
      DoesNotExist: (key) => `!${key}`,
      Gt: (key, values) => `${key}>${values[0]}`,
      Lt: (key, values) => `${key}<${values[0]}`,
    };
    const back = (reqs: readonly V1LabelSelectorRequirement[]) =>
      reqs.map((r) => form[r.operator]!(r.key, r.values ?? [])).join(',');
    fc.assert(
      fc.property(fc.constantFrom(...cases), anyLabels, (text, have) => {
        const first = parseLabelSelector(text);
        const again = parseLabelSelector(back(first.matchExpressions ?? []));
        expect(matchesLabelSelector(have, again)).toBe(matchesLabelSelector(have, first));
      }),
      RUN,
    );
  });
});
