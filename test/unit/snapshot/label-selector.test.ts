import type { V1LabelSelectorRequirement } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import {
  LabelIndex,
  labelSelectorProblem,
  matchesLabelSelector,
  parseLabelSelector,
} from '../../../src/snapshot/label-selector.js';

/**
 * apimachinery's own selector tests (k8s.io/apimachinery/pkg/labels/selector_test.go, kubernetes
 * 86b3ca48), case by case: what labels.Parse accepts and rejects, what it parses each string into, and
 * what the result selects. Our parser returns the structured form: `=`/`==` become `In [v]`, `!=`
 * becomes `NotIn [v]`, `>`/`<` become `Gt`/`Lt`.
 */
type Set = Record<string, string>;
const matches = (selector: string, labels: Set) => matchesLabelSelector(labels, parseLabelSelector(selector));
const parseError = (selector: string) => {
  try {
    parseLabelSelector(selector);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
};

describe('TestSelectorParse', () => {
  it.each(['x=a,y=b,z=c', '', 'x!=a,y=b', 'x=', 'x= ', 'x=,z= ', 'x= ,z= ', '!x', 'x>1', 'x>1,z<5'])(
    'accepts %j',
    (text) => expect(parseError(text)).toBeNull(),
  );
  it.each(['x=a||y=b', 'x==a==b', '!x=a', 'x<a'])('rejects %j', (text) => {
    expect(parseError(text)).toMatch(new RegExp(`^invalid label selector ".*": .+$`));
  });
});

describe('TestSelectorMatches', () => {
  const labelset = { foo: 'bar', baz: 'blah' };
  it.each<[string, Set]>([
    ['', { x: 'y' }],
    ['x=y', { x: 'y' }],
    ['x=y,z=w', { x: 'y', z: 'w' }],
    ['x!=y,z!=w', { x: 'z', z: 'a' }],
    ['notin=in', { notin: 'in' }],
    ['x', { x: 'z' }],
    ['!x', { y: 'z' }],
    ['x>1', { x: '2' }],
    ['x<1', { x: '0' }],
    ['foo=bar', labelset],
    ['baz=blah', labelset],
    ['foo=bar,baz=blah', labelset],
  ])('%j matches %j', (selector, labels) => expect(matches(selector, labels)).toBe(true));
  it.each<[string, Set]>([
    ['x=z', {}],
    ['x=y', { x: 'z' }],
    ['x=y,z=w', { x: 'w', z: 'w' }],
    ['x!=y,z!=w', { x: 'z', z: 'w' }],
    ['x', { y: 'z' }],
    ['!x', { x: 'z' }],
    ['x>1', { x: '0' }],
    ['x<1', { x: '2' }],
    ['foo=blah', labelset],
    ['baz=bar', labelset],
    ['foo=bar,foobar=bar,baz=blah', labelset],
  ])('%j does not match %j', (selector, labels) => expect(matches(selector, labels)).toBe(false));
});

describe('TestSetSelectorParser', () => {
  const req = (key: string, operator: string, values?: string[]): V1LabelSelectorRequirement =>
    values ? { key, operator, values: [...values].sort() } : { key, operator };
  const sorted = (reqs: readonly V1LabelSelectorRequirement[]) =>
    [...reqs]
      .map((r) => (r.values ? { ...r, values: [...r.values].sort() } : r))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

  it.each<[string, V1LabelSelectorRequirement[]]>([
    ['', []],
    ['\rx', [req('x', 'Exists')]],
    ['this-is-a-dns.domain.com/key-with-dash', [req('this-is-a-dns.domain.com/key-with-dash', 'Exists')]],
    [
      'this-is-another-dns.domain.com/key-with-dash in (so,what)',
      [req('this-is-another-dns.domain.com/key-with-dash', 'In', ['so', 'what'])],
    ],
    [
      '0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)',
      [req('0.1.2.domain/99', 'NotIn', ['10.10.100.1', 'tick.tack.clock'])],
    ],
    ['foo  in\t (abc)', [req('foo', 'In', ['abc'])]],
    ['x notin\n (abc)', [req('x', 'NotIn', ['abc'])]],
    ['x  notin\t\t\t(abc,def)', [req('x', 'NotIn', ['abc', 'def'])]],
    ['x in (abc,def)', [req('x', 'In', ['abc', 'def'])]],
    ['x in (abc,)', [req('x', 'In', ['abc', ''])]],
    ['x in ()', [req('x', 'In', [''])]],
    [
      'x notin (abc,,def),bar,z in (),w',
      [req('bar', 'Exists'), req('w', 'Exists'), req('x', 'NotIn', ['abc', '', 'def']), req('z', 'In', [''])],
    ],
    ['x,y in (a)', [req('y', 'In', ['a']), req('x', 'Exists')]],
    ['x=a', [req('x', 'In', ['a'])]],
    ['x>1', [req('x', 'Gt', ['1'])]],
    ['x<7', [req('x', 'Lt', ['7'])]],
    ['x=a,y!=b', [req('x', 'In', ['a']), req('y', 'NotIn', ['b'])]],
    ['x=a,y!=b,z in (h,i,j)', [req('x', 'In', ['a']), req('y', 'NotIn', ['b']), req('z', 'In', ['h', 'i', 'j'])]],
    ['x notin ( )', [req('x', 'NotIn', [''])]],
    ['x notin (, a)', [req('x', 'NotIn', ['', 'a'])]],
    ['a ', [req('a', 'Exists')]],
    ['a in (x,y,notin, z,in)', [req('a', 'In', ['in', 'notin', 'x', 'y', 'z'])]],
  ])('parses %j', (text, expected) => {
    expect(sorted(parseLabelSelector(text).matchExpressions ?? [])).toEqual(sorted(expected));
  });

  it.each([
    'x=a||y=b',
    'x,,y',
    ',x,y',
    'x nott in (y)',
    'a in (xyz),',
    'a in (xyz)b notin ()',
    'a in (xyz abc)',
    'a notin(',
    'a (',
    '(',
  ])('rejects %j with one line naming the selector', (text) => {
    const message = parseError(text);
    expect(message).toContain(`invalid label selector ${JSON.stringify(text)}`);
    expect(message).not.toContain('\n');
  });
});

describe('TestRequirementConstructor (through the string and the structured forms)', () => {
  it.each<[string, boolean]>([
    ['1foo in (bar)', true],
    ['1234 in (bar)', true],
    ['y>1', true],
    ['z<6', true],
    ['foo>bar', false],
    ['barz<blah', false],
    [`${'a'.repeat(254)}`, false], // a key longer than DNS allows
  ])('%j valid: %s', (text, valid) => expect(parseError(text) === null).toBe(valid));

  it.each<[V1LabelSelectorRequirement, boolean]>([
    [{ key: 'x', operator: 'In' }, false],
    [{ key: 'x', operator: 'NotIn', values: [] }, false],
    [{ key: 'x', operator: 'In', values: ['foo'] }, true],
    [{ key: 'x', operator: 'NotIn', values: ['foo'] }, true],
    [{ key: 'x', operator: 'Exists' }, true],
    [{ key: 'x', operator: 'DoesNotExist' }, true],
    [{ key: 'x', operator: 'Exists', values: ['a'] }, false],
    [{ key: 'x', operator: 'Sometimes', values: ['a'] }, false],
    [{ key: 'x', operator: 'Gt', values: ['1'] }, false], // not in metav1.LabelSelector
    [{ key: 'bad key!', operator: 'Exists' }, false],
    [{ key: 'a'.repeat(254), operator: 'Exists' }, false],
  ])('structured %j valid: %s', (requirement, valid) => {
    expect(labelSelectorProblem({ matchExpressions: [requirement] }) === null).toBe(valid);
  });
});

describe('TestRequirementSelectorMatching', () => {
  const sel = (...matchExpressions: V1LabelSelectorRequirement[]) => ({ matchExpressions });
  it.each<[Set, ReturnType<typeof sel>, boolean]>([
    [
      { x: 'foo', y: 'baz' },
      sel({ key: 'x', operator: 'In', values: ['foo'] }, { key: 'y', operator: 'NotIn', values: ['alpha'] }),
      true,
    ],
    [
      { x: 'foo', y: 'baz' },
      sel({ key: 'x', operator: 'In', values: ['foo'] }, { key: 'y', operator: 'In', values: ['alpha'] }),
      false,
    ],
    [{ y: '' }, sel({ key: 'x', operator: 'NotIn', values: [''] }, { key: 'y', operator: 'Exists' }), true],
    [{ y: '' }, sel({ key: 'x', operator: 'DoesNotExist' }, { key: 'y', operator: 'Exists' }), true],
    [{ y: '' }, sel({ key: 'x', operator: 'NotIn', values: [''] }, { key: 'y', operator: 'DoesNotExist' }), false],
    [{ y: 'baz' }, sel({ key: 'x', operator: 'In', values: [''] }), false],
    [{ z: '2' }, sel({ key: 'z', operator: 'Gt', values: ['1'] }), true],
    [{ z: 'v2' }, sel({ key: 'z', operator: 'Gt', values: ['1'] }), false],
  ])('%j against %j: %s', (labels, selector, expected) => {
    expect(matchesLabelSelector(labels, selector)).toBe(expected);
  });
});

describe('a selector repeating a key', () => {
  it('app=web,app=db selects nothing: both requirements must hold', () => {
    expect(matches('app=web,app=db', { app: 'db' })).toBe(false);
    expect(matches('app=web,app=db', { app: 'web' })).toBe(false);
  });

  it('a in () selects the empty value, as labels.Parse reads it', () => {
    expect(matches('a in ()', { a: '' })).toBe(true);
    expect(matches('a in ()', { a: 'x' })).toBe(false);
    expect(matches('a in ()', {})).toBe(false);
  });

  it('rejects invalid keys and values as the API server would', () => {
    expect(parseError('app=web!')).toMatch(/invalid label selector "app=web!": found "!"/);
    expect(parseError('app=-web')).toMatch(/label value "-web" must be empty or alphanumerics/);
    expect(parseError('a/b/c=d')).toMatch(/label key "a\/b\/c" has more than one "\/"/);
    expect(parseError(`v=${'x'.repeat(64)}`)).toMatch(/longer than 63 characters/);
  });
});

describe('LabelIndex: the objects that may select a pod', () => {
  const selectors: Array<{ name: string; matchLabels: Set }> = [
    { name: 'web', matchLabels: { app: 'web' } },
    { name: 'any', matchLabels: {} },
    { name: 'front', matchLabels: { tier: 'front', app: 'web' } },
    { name: 'api', matchLabels: { app: 'api' } },
    { name: 'web-again', matchLabels: { app: 'web', track: 'canary' } },
  ];
  const index = new LabelIndex(selectors, (s) => s.matchLabels);
  const names = (labels: Set | undefined) => index.mayMatch(labels).map((s) => s.name);

  it('gives every object whose first needed label the pod has, and those needing none, in their own order', () => {
    expect(names({ app: 'web', tier: 'front' })).toEqual(['web', 'any', 'front', 'web-again']);
    expect(names({ tier: 'front' })).toEqual(['any', 'front']);
    expect(names({ app: 'api' })).toEqual(['any', 'api']);
  });

  it('gives only those needing no label to a pod without labels', () => {
    expect(names(undefined)).toEqual(['any']);
    expect(names({})).toEqual(['any']);
  });
});
