import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SnapshotLoadError, snapshotFromDocuments } from '../../../src/snapshot/load-file.js';

/**
 * A malformed snapshot never gives a verdict silently. Each case mutates one field of
 * examples/hello.json; the load must fail with one line naming the file, the object
 * and the field, or skip with a warning that says so.
 */
const HELLO = JSON.parse(readFileSync(path.resolve('examples/hello.json'), 'utf8')) as {
  items: Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
};
const LABEL = 'snapshot "hello.json"';
const POD = 4; // demo/hello-6f688f4ff7-hrxx8 on k8s-node-1
const BUDGET = 13; // demo/hello
const NODE = 1; // k8s-node-1

type Doc = typeof HELLO;
function load(mutate: (doc: Doc) => void) {
  const doc = structuredClone(HELLO);
  mutate(doc);
  return snapshotFromDocuments([doc], { type: 'file', path: 'hello.json' }, LABEL);
}
function loadError(mutate: (doc: Doc) => void): string {
  try {
    load(mutate);
  } catch (err) {
    expect(err).toBeInstanceOf(SnapshotLoadError);
    const message = (err as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error('the snapshot loaded');
}
const pod = `cannot read ${LABEL}: items[${POD}]: Pod demo/hello-6f688f4ff7-hrxx8`;
const budget = `cannot read ${LABEL}: items[${BUDGET}]: PodDisruptionBudget demo/hello`;

describe("a budget's selector is checked as the API server checks it", () => {
  it.each([
    [
      'an unknown operator',
      { key: 'app', operator: 'Sometimes', values: ['hello'] },
      'spec.selector.matchExpressions[0].operator: "Sometimes" is not a valid selector operator (In, NotIn, Exists, DoesNotExist)',
    ],
    [
      'a bad key',
      { key: 'bad key', operator: 'Exists' },
      `spec.selector.matchExpressions[0].key: label key "bad key" must be alphanumerics, '-', '_' or '.', starting and ending with an alphanumeric`,
    ],
    [
      'In with no values',
      { key: 'app', operator: 'In', values: [] },
      'spec.selector.matchExpressions[0].values: must be non-empty when operator is In',
    ],
    [
      'Exists with values',
      { key: 'app', operator: 'Exists', values: ['x'] },
      'spec.selector.matchExpressions[0].values: must be empty when operator is Exists',
    ],
  ])('%s is an error naming the budget and the field', (_, expression, problem) => {
    expect(loadError((d) => (d.items[BUDGET]!.spec.selector = { matchExpressions: [expression] }))).toBe(
      `${budget}: ${problem}`,
    );
  });

  it('both minAvailable and maxUnavailable is an error', () => {
    expect(loadError((d) => (d.items[BUDGET]!.spec.minAvailable = 1))).toBe(
      `${budget}: spec: minAvailable and maxUnavailable cannot both be set`,
    );
  });

  it.each([
    [-1, 'spec.maxUnavailable: -1 must be greater than or equal to 0'],
    ['half', 'spec.maxUnavailable: "half" is not an integer or a percentage ("50%")'],
    ['150%', 'spec.maxUnavailable: "150%" must not be greater than 100%'],
  ])('maxUnavailable %j is an error', (value, problem) => {
    expect(loadError((d) => (d.items[BUDGET]!.spec.maxUnavailable = value))).toBe(`${budget}: ${problem}`);
  });
});

describe('a pod is checked as the API server checks it', () => {
  it('spec: null is an error, not a pod that disappears', () => {
    expect(loadError((d) => (d.items[POD]!.spec = null))).toBe(`${pod}: spec: is required`);
  });

  it.each([
    ['abc', 'spec.containers[0].resources.requests["cpu"]: "abc" is not a quantity'],
    ['-5', 'spec.containers[0].resources.requests["cpu"]: "-5" must be greater than or equal to 0'],
    ['', 'spec.containers[0].resources.requests["cpu"]: is empty, not a quantity'],
  ])('the cpu request %j is an error, not 0', (quantity, problem) => {
    expect(loadError((d) => (d.items[POD]!.spec.containers[0].resources = { requests: { cpu: quantity } }))).toBe(
      `${pod}: ${problem}`,
    );
  });

  it("a node's allocatable that is not a quantity is an error", () => {
    expect(loadError((d) => (d.items[NODE]!.status.allocatable.memory = 'lots'))).toBe(
      `cannot read ${LABEL}: items[${NODE}]: Node k8s-node-1: status.allocatable["memory"]: "lots" is not a quantity`,
    );
  });

  it.each([
    // The mutations that printed a raw TypeError ("number 0 is not iterable") before.
    [(d: Doc) => (d.items[POD]!.spec.containers[0].ports = 0), 'spec.containers[0].ports: number 0, not a list'],
    [(d: Doc) => (d.items[POD]!.spec.containers = {}), 'spec.containers: an object, not a list'],
    [(d: Doc) => (d.items[POD]!.spec.containers[0] = null), 'spec.containers[0]: is null'],
    [(d: Doc) => (d.items[POD]!.metadata.labels = true), 'metadata.labels: boolean true, not a map of labels'],
    [(d: Doc) => (d.items[POD]!.status.conditions = -5), 'status.conditions: number -5, not a list'],
    [(d: Doc) => (d.items[POD]!.spec.volumes = [null]), 'spec.volumes[0]: is null'],
    [(d: Doc) => (d.items[POD]!.spec.tolerations = 'x'), 'spec.tolerations: the string "x", not a list'],
    [(d: Doc) => (d.items[POD]!.metadata.ownerReferences = [null]), 'metadata.ownerReferences[0]: is null'],
    [
      (d: Doc) => (d.items[POD]!.metadata.name = 'Web_1'),
      `metadata.name: "Web_1" is not a valid name (lowercase alphanumerics, '-' and '.', at most 253)`,
    ],
  ])('%# names the pod and the field', (mutate, problem) => {
    const message = loadError(mutate);
    expect(message.startsWith(`cannot read ${LABEL}: items[${POD}]: Pod demo/`)).toBe(true);
    expect(message.endsWith(`: ${problem}`)).toBe(true);
  });

  it("a node's taints that are not a list is an error", () => {
    expect(loadError((d) => (d.items[NODE]!.spec.taints = '-5'))).toBe(
      `cannot read ${LABEL}: items[${NODE}]: Node k8s-node-1: spec.taints: the string "-5", not a list`,
    );
  });
});

describe('the same object twice', () => {
  it('a pod listed twice with other contents is an error naming both places', () => {
    const message = loadError((d) => {
      const copy = structuredClone(d.items[POD]!);
      copy.status.phase = 'Failed';
      d.items.push(copy);
    });
    expect(message).toBe(
      `cannot read ${LABEL}: items[20]: Pod demo/hello-6f688f4ff7-hrxx8 is also items[${POD}], with other contents`,
    );
  });

  it('an identical copy is skipped with a warning, and counted once', () => {
    const snapshot = load((d) => d.items.push(structuredClone(d.items[POD]!)));
    expect(snapshot.pods).toHaveLength(10);
    expect(snapshot.warnings).toEqual([`${LABEL}: skipped identical second copies of Pod demo/hello-6f688f4ff7-hrxx8`]);
  });

  it('the same name in two namespaces or of two kinds is not a duplicate', () => {
    const snapshot = load((d) => {
      const copy = structuredClone(d.items[POD]!);
      copy.metadata.namespace = 'other';
      d.items.push(copy);
    });
    expect(snapshot.pods).toHaveLength(11);
  });
});
