import type { V1Deployment } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { isSurgeReady, raisedTo, restoredReplicas, returnedTo, type Bounds } from '../../../src/drain/surge-bounds.js';
import type { AutoscalerBounds, SurgeRecord } from '../../../src/kube/surge-record.js';

// A Deployment of 2 surged to 3, under an autoscaler of minReplicas 2, maxReplicas 3 raised to 3 and 3.
const bounds: AutoscalerBounds = { name: 'web', minReplicas: 2, maxReplicas: 3, surgedMin: 3, surgedMax: 3 };
const plain: SurgeRecord = { replicas: 2, surgedTo: 3, nodes: ['n1'] };
const scaled: SurgeRecord = { ...plain, autoscaler: bounds };

const deployment = (o: { generation?: number; observed?: number; ready?: number }): V1Deployment => ({
  metadata: { generation: o.generation ?? 2 },
  status: { observedGeneration: o.observed ?? 2, readyReplicas: o.ready ?? 0 },
});

describe('isSurgeReady', () => {
  it.each([
    { name: 'every replica the surge asks for is Ready', d: deployment({ ready: 3 }), expected: true },
    { name: 'more Ready than asked for is ready too', d: deployment({ ready: 4 }), expected: true },
    { name: 'one replica short is not ready', d: deployment({ ready: 2 }), expected: false },
    {
      name: 'Ready replicas counted before the controller saw the new count do not count',
      d: deployment({ generation: 3, observed: 2, ready: 3 }),
      expected: false,
    },
    { name: 'a Deployment with no status yet is not ready', d: { metadata: { generation: 1 } }, expected: false },
  ])('$name', ({ d, expected }) => {
    expect(isSurgeReady(d, plain)).toBe(expected);
  });
});

describe('restoredReplicas', () => {
  it.each([
    { name: 'without an autoscaler, back to its own count whatever it is now', record: plain, now: 7, expected: 2 },
    { name: 'under an autoscaler still at the surged count, back to its own', record: scaled, now: 3, expected: 2 },
    { name: 'under an autoscaler already back at its own, its own', record: scaled, now: 2, expected: 2 },
    { name: 'an autoscaler that moved the count chose it: left as it is', record: scaled, now: 5, expected: null },
    {
      name: 'a count not read (unset) under an autoscaler is left to it',
      record: scaled,
      now: undefined,
      expected: null,
    },
  ])('$name', ({ record, now, expected }) => {
    expect(restoredReplicas(record, now)).toBe(expected);
  });
});

/** minReplicas, maxReplicas. */
const b = (minReplicas: number, maxReplicas: number): Bounds => ({ minReplicas, maxReplicas });

describe('raisedTo', () => {
  it.each<[string, Bounds, Bounds | null]>([
    ['raises minReplicas to the surged count', b(2, 3), b(3, 3)],
    ['raises maxReplicas too when it is below', b(1, 2), b(3, 3)],
    ['never lowers a bound set higher', b(2, 10), b(3, 10)],
    ['bounds already raised (a resumed surge): nothing to write', b(3, 3), null],
  ])('%s', (_name, current, expected) => {
    expect(raisedTo(bounds, current)).toEqual(expected);
  });
});

describe('returnedTo', () => {
  const wide: AutoscalerBounds = { name: 'api', minReplicas: 1, maxReplicas: 2, surgedMin: 3, surgedMax: 3 };
  it.each<[string, AutoscalerBounds, Bounds, Bounds]>([
    ['bounds still the surge’s go back to the autoscaler’s own', bounds, b(3, 3), b(2, 3)],
    ['a minReplicas someone changed meanwhile is theirs and stays', bounds, b(4, 3), b(4, 4)],
    ['a maxReplicas someone changed meanwhile is theirs and stays', bounds, b(3, 8), b(2, 8)],
    ['maxReplicas is never returned below minReplicas', wide, b(5, 3), b(5, 5)],
  ])('%s', (_name, record, current, expected) => {
    expect(returnedTo(record, current)).toEqual(expected);
  });
});
