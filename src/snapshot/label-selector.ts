import type { V1LabelSelector, V1LabelSelectorRequirement } from '@kubernetes/client-node';

export type Labels = Readonly<Record<string, string>> | undefined;

/**
 * The operators of a selector requirement. The structured form (`metav1.LabelSelector`, in budgets,
 * affinity terms and spread constraints) admits only the first four; the string form of `-l` also
 * `Gt`/`Lt` (labels.Parse's `>` and `<`), which compare the label as an integer.
 */
type Operator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';

/**
 * A label selector in the API's structured form. `null` (the field is absent) selects nothing in
 * most APIs; `{}` selects everything. Callers decide which of the two an absent selector means.
 */
export function matchesLabelSelector(labels: Labels, selector: V1LabelSelector): boolean {
  const have = labels ?? {};
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (have[key] !== value) return false;
  }
  return (selector.matchExpressions ?? []).every((req) => matchesRequirement(have, req));
}

/** labels.Requirement.Matches. */
function matchesRequirement(labels: Readonly<Record<string, string>>, req: V1LabelSelectorRequirement): boolean {
  const present = Object.prototype.hasOwnProperty.call(labels, req.key);
  const value = present ? labels[req.key]! : undefined;
  switch (req.operator as Operator) {
    case 'In':
      return present && (req.values ?? []).includes(value!);
    case 'NotIn':
      return !present || !(req.values ?? []).includes(value!);
    case 'Exists':
      return present;
    case 'DoesNotExist':
      return !present;
    case 'Gt':
    case 'Lt':
      return present && compareAsIntegers(value!, req.operator as 'Gt' | 'Lt', req.values?.[0] ?? '');
    default:
      // The API server rejects unknown operators; an unknown one selects nothing, as in apimachinery.
      return false;
  }
}

/** `Gt`/`Lt`: both sides parse as int64, or the requirement does not match (apimachinery's rule). */
function compareAsIntegers(label: string, operator: 'Gt' | 'Lt', bound: string): boolean {
  const [have, limit] = [asInt64(label), asInt64(bound)];
  if (have === undefined || limit === undefined) return false;
  return operator === 'Gt' ? have > limit : have < limit;
}

const INT64 = /^[+-]?\d+$/;
function asInt64(text: string): bigint | undefined {
  if (!INT64.test(text)) return undefined;
  const n = BigInt(text);
  return n >= -(2n ** 63n) && n < 2n ** 63n ? n : undefined;
}

// ---------------------------------------------------------------------------------------------------
// Validation, as the API server validates a selector (apimachinery validation of names and selectors)

const NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/**
 * Keys and values already found valid. A cluster repeats a few label keys and values on every object, so a
 * snapshot checks each distinct one once. Bounded: a file of unique values only ever refills the set.
 */
const validKeys = new Set<string>();
const validValues = new Set<string>();
const REMEMBERED = 16_384;

function remember(set: Set<string>, text: string): void {
  if (set.size >= REMEMBERED) set.clear();
  set.add(text);
}

/** Why a label key is not a qualified name (`[prefix/]name`), or null (validation.IsQualifiedName). */
export function labelKeyProblem(key: string): string | null {
  if (validKeys.has(key)) return null;
  const problem = keyProblem(key);
  if (problem === null) remember(validKeys, key);
  return problem;
}

function keyProblem(key: string): string | null {
  const parts = key.split('/');
  if (parts.length > 2) return `label key ${quoted(key)} has more than one "/"`;
  const name = parts.at(-1)!;
  if (parts.length === 2) {
    const prefix = parts[0]!;
    if (prefix === '') return `label key ${quoted(key)} has an empty prefix`;
    if (prefix.length > 253 || !DNS1123_SUBDOMAIN.test(prefix)) {
      return `label key ${quoted(key)} has a prefix that is not a DNS subdomain`;
    }
  }
  if (name === '') return `label key ${quoted(key)} has an empty name`;
  if (name.length > 63) return `label key ${quoted(key)} has a name longer than 63 characters`;
  if (!NAME_PART.test(name)) {
    return `label key ${quoted(key)} must be alphanumerics, '-', '_' or '.', starting and ending with an alphanumeric`;
  }
  return null;
}

/** Why a label value is invalid, or null (validation.IsValidLabelValue). */
export function labelValueProblem(value: string): string | null {
  if (validValues.has(value)) return null;
  const problem = valueProblem(value);
  if (problem === null) remember(validValues, value);
  return problem;
}

function valueProblem(value: string): string | null {
  if (value.length > 63) return `label value ${quoted(value)} is longer than 63 characters`;
  if (!LABEL_VALUE.test(value)) {
    return `label value ${quoted(value)} must be empty or alphanumerics, '-', '_' or '.', starting and ending with an alphanumeric`;
  }
  return null;
}

/** A problem with a structured selector, and the field (below the selector) it is in. */
export interface SelectorProblem {
  readonly field: string;
  readonly problem: string;
}

/**
 * What the API server's ValidateLabelSelector would reject in a structured selector, or null: keys and
 * values of matchLabels; each expression's key, operator (In, NotIn, Exists, DoesNotExist) and values
 * (In and NotIn need at least one, Exists and DoesNotExist none).
 */
export function labelSelectorProblem(selector: unknown): SelectorProblem | null {
  if (selector === null || selector === undefined) return null;
  if (!isRecord(selector)) return { field: '', problem: 'is not an object' };
  const { matchLabels, matchExpressions } = selector;
  if (matchLabels !== undefined && matchLabels !== null) {
    if (!isRecord(matchLabels)) return { field: '.matchLabels', problem: 'is not a map of strings' };
    for (const key in matchLabels) {
      const value = matchLabels[key];
      // The field is named only for a problem: a valid selector builds no strings.
      if (typeof value !== 'string') return { field: `.matchLabels[${quoted(key)}]`, problem: 'is not a string' };
      const problem = labelKeyProblem(key) ?? labelValueProblem(value);
      if (problem) return { field: `.matchLabels[${quoted(key)}]`, problem };
    }
  }
  if (matchExpressions === undefined || matchExpressions === null) return null;
  if (!Array.isArray(matchExpressions)) return { field: '.matchExpressions', problem: 'is not a list' };
  for (let i = 0; i < matchExpressions.length; i++) {
    const problem = requirementProblem(matchExpressions[i]);
    if (problem) return { field: `.matchExpressions[${i}]${problem.field}`, problem: problem.problem };
  }
  return null;
}

function requirementProblem(req: unknown): SelectorProblem | null {
  if (!isRecord(req)) return { field: '', problem: 'is not an object' };
  const { key, operator, values } = req;
  if (typeof key !== 'string') return { field: '.key', problem: 'is missing or not a string' };
  const keyProblem = labelKeyProblem(key);
  if (keyProblem) return { field: '.key', problem: keyProblem };
  if (values !== undefined && values !== null) {
    if (!Array.isArray(values)) return { field: '.values', problem: 'is not a list of strings' };
    for (let i = 0; i < values.length; i++) {
      const value: unknown = values[i];
      if (typeof value !== 'string') return { field: `.values[${i}]`, problem: 'is not a string' };
      const problem = labelValueProblem(value);
      if (problem) return { field: `.values[${i}]`, problem };
    }
  }
  const count = Array.isArray(values) ? values.length : 0;
  switch (operator) {
    case 'In':
    case 'NotIn':
      return count === 0 ? { field: '.values', problem: `must be non-empty when operator is ${operator}` } : null;
    case 'Exists':
    case 'DoesNotExist':
      return count > 0 ? { field: '.values', problem: `must be empty when operator is ${operator}` } : null;
    default:
      return {
        field: '.operator',
        problem: `${typeof operator === 'string' ? quoted(operator) : String(operator)} is not a valid selector operator (In, NotIn, Exists, DoesNotExist)`,
      };
  }
}

/** A value quoted for an error line, cut to keep the line short whatever a file holds. */
export function quoted(text: string): string {
  return JSON.stringify(text.length > 63 ? `${text.slice(0, 63)}…` : text);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

// ---------------------------------------------------------------------------------------------------
// The string form, as labels.Parse reads it

/**
 * Parses the string form used by `-l` and `--pod-selector` (`a=b,c!=d,e in (x,y),f notin (z),g,!h,n>1`)
 * with the grammar of apimachinery's labels.Parse, into requirements that must all hold. Every term
 * becomes its own expression: `app=web,app=db` is two requirements and selects nothing, as in
 * Kubernetes. `a in ()` is `a in ("")`, as labels.Parse reads it. Throws an Error with a one-line message
 * on bad syntax or an invalid key or value.
 */
export function parseLabelSelector(text: string): V1LabelSelector {
  const matchExpressions = new SelectorParser(text).parse();
  return { matchExpressions };
}

type TokenKind = 'end' | 'identifier' | 'in' | 'notin' | '=' | '==' | '!=' | '!' | '>' | '<' | '(' | ')' | ',';

interface Token {
  readonly kind: TokenKind;
  readonly text: string;
}

const SPECIAL = new Set(['=', '!', '(', ')', ',', '>', '<']);
const WHITESPACE = new Set([' ', '\t', '\r', '\n']);
const OPERATOR_TOKENS: readonly string[] = ['!=', '==', '=', '!', '>', '<', '(', ')', ','];

/** labels' Lexer: identifiers run to whitespace or a special character; the longest operator wins. */
function lex(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (WHITESPACE.has(c)) {
      i++;
      continue;
    }
    if (SPECIAL.has(c)) {
      const op = OPERATOR_TOKENS.find((o) => text.startsWith(o, i))!;
      tokens.push({ kind: op as TokenKind, text: op });
      i += op.length;
      continue;
    }
    let j = i;
    while (j < text.length && !WHITESPACE.has(text[j]!) && !SPECIAL.has(text[j]!)) j++;
    tokens.push({ kind: 'identifier', text: text.slice(i, j) });
    i = j;
  }
  tokens.push({ kind: 'end', text: 'end of string' });
  return tokens;
}

const OPERATOR_OF: Partial<Record<TokenKind, Operator | 'Equals' | 'NotEquals'>> = {
  in: 'In',
  notin: 'NotIn',
  '=': 'Equals',
  '==': 'Equals',
  '!=': 'NotEquals',
  '>': 'Gt',
  '<': 'Lt',
};

class SelectorParser {
  private readonly tokens: Token[];
  private position = 0;

  constructor(private readonly text: string) {
    this.tokens = lex(text);
  }

  parse(): V1LabelSelectorRequirement[] {
    const requirements: V1LabelSelectorRequirement[] = [];
    for (;;) {
      const next = this.peek();
      if (next.kind === 'end') return requirements;
      if (next.kind !== 'identifier' && next.kind !== '!') {
        this.fail(`found ${quoted(next.text)}, expected: !, identifier, or 'end of string'`);
      }
      requirements.push(this.requirement());
      const after = this.peek();
      if (after.kind === 'end') return requirements;
      if (after.kind !== ',') this.fail(`found ${quoted(after.text)}, expected: ',' or 'end of string'`);
      this.position++;
      const term = this.peek();
      if (term.kind !== 'identifier' && term.kind !== '!') {
        this.fail(`found ${quoted(term.text)}, expected: identifier after ','`);
      }
    }
  }

  /** Values context: `in` and `notin` are plain identifiers there (labels' `Values` parser context). */
  private peek(): Token {
    return this.tokens[this.position]!;
  }

  private next(): Token {
    return this.tokens[this.position++]!;
  }

  /** KeyAndOperator context: `in` and `notin` are the set operators. */
  private nextOperator(): Token {
    const token = this.next();
    if (token.kind === 'identifier' && (token.text === 'in' || token.text === 'notin')) {
      return { kind: token.text, text: token.text };
    }
    return token;
  }

  private requirement(): V1LabelSelectorRequirement {
    let token = this.next();
    const negated = token.kind === '!';
    if (negated) token = this.next();
    if (token.kind !== 'identifier') this.fail(`found ${quoted(token.text)}, expected: identifier`);
    const key = token.text;
    this.check(labelKeyProblem(key));
    const after = this.peek().kind;
    if (negated) return { key, operator: 'DoesNotExist' };
    if (after === 'end' || after === ',') return { key, operator: 'Exists' };

    const op = this.nextOperator();
    const operator = OPERATOR_OF[op.kind];
    if (!operator) this.fail(`found ${quoted(op.text)}, expected: in, notin, =, ==, !=, gt, lt`);
    const values = operator === 'In' || operator === 'NotIn' ? this.valueSet() : [this.exactValue()];
    for (const value of values) this.check(labelValueProblem(value));
    if ((operator === 'Gt' || operator === 'Lt') && asInt64(values[0]!) === undefined) {
      this.fail(`for 'Gt', 'Lt' operators, the value must be an integer, not ${quoted(values[0]!)}`);
    }
    if (operator === 'Equals') return { key, operator: 'In', values };
    if (operator === 'NotEquals') return { key, operator: 'NotIn', values };
    return { key, operator, values };
  }

  /** `( v1, v2 )`: an empty list or an empty element is the empty value, as labels.Parse reads it. */
  private valueSet(): string[] {
    const open = this.next();
    if (open.kind !== '(') this.fail(`found ${quoted(open.text)}, expected: '('`);
    const values = new Set<string>();
    const first = this.peek();
    if (first.kind === ')') {
      this.position++;
      return [''];
    }
    if (first.kind !== 'identifier' && first.kind !== ',') {
      this.fail(`found ${quoted(first.text)}, expected: ',', ')' or identifier`);
    }
    for (;;) {
      const token = this.next();
      if (token.kind === 'identifier') {
        values.add(token.text);
        const after = this.peek();
        if (after.kind === ')') break;
        if (after.kind !== ',') this.fail(`found ${quoted(after.text)}, expected: ',' or ')'`);
      } else if (token.kind === ',') {
        if (values.size === 0) values.add(''); // "(, a)"
        const after = this.peek().kind;
        if (after === ')') {
          values.add(''); // "(a,)"
          break;
        }
        if (after === ',') {
          this.position++; // "(a,,b)": the second comma is taken with the first
          values.add('');
        }
      } else {
        this.fail(`found ${quoted(token.text)}, expected: ',', or identifier`);
      }
    }
    const close = this.next();
    if (close.kind !== ')') this.fail(`found ${quoted(close.text)}, expected: ')'`);
    return [...values].sort();
  }

  /** The value after `=`, `==`, `!=`, `>` or `<`; nothing before a `,` or the end is the empty value. */
  private exactValue(): string {
    const next = this.peek().kind;
    if (next === 'end' || next === ',') return '';
    const token = this.next();
    if (token.kind !== 'identifier') this.fail(`found ${quoted(token.text)}, expected: identifier`);
    return token.text;
  }

  private check(problem: string | null): void {
    if (problem) this.fail(problem);
  }

  private fail(problem: string): never {
    throw new Error(`invalid label selector ${quoted(this.text)}: ${problem}`);
  }
}

/**
 * Objects that select pods by labels (budgets, Services, controllers), indexed by one label each needs, so
 * that a pod is tested against those that may select it only: a namespace can hold hundreds of them,
 * and every pod of a plan asks. `needs` gives the labels an object requires (a Service's selector, a
 * selector's matchLabels); one that requires none may select any pod. `mayMatch` answers in the objects'
 * own order; callers still test each one.
 */
export class LabelIndex<T> {
  private readonly items: readonly T[];
  private readonly byLabel = new Map<string, number[]>();
  private readonly unlabelled: number[] = [];

  constructor(items: readonly T[], needs: (item: T) => Readonly<Record<string, string>>) {
    this.items = items;
    items.forEach((item, at) => {
      const needed = needs(item);
      for (const key in needed) {
        const label = `${key}\u0000${needed[key]}`;
        const positions = this.byLabel.get(label);
        if (positions) positions.push(at);
        else this.byLabel.set(label, [at]);
        return;
      }
      this.unlabelled.push(at);
    });
  }

  /** The objects that may select a pod with these labels, in their order. */
  mayMatch(labels: Labels): T[] {
    const positions = [...this.unlabelled];
    for (const key in labels) {
      const found = this.byLabel.get(`${key}\u0000${labels[key]}`);
      if (found) positions.push(...found);
    }
    return positions.sort((a, b) => a - b).map((at) => this.items[at]!);
  }
}
