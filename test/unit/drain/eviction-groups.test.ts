import { describe, expect, it } from 'vitest';
import type { PodRef } from '../../../src/drain/events.js';
import { evictionGroups, groupHoldsBack } from '../../../src/drain/eviction-groups.js';
import type { DrainTarget } from '../../../src/drain/targets.js';

const ref = (name: string): PodRef => ({ namespace: 'shop', name, uid: `uid-${name}`, node: 'node-1' });
const entry = (name: string, group?: number): { target: DrainTarget } => ({
  target: { ref: ref(name), method: 'evict', pdbs: [], ownGraceSeconds: 30, ...(group ? { group } : {}) },
});
const names = (groups: ReturnType<typeof evictionGroups<{ target: DrainTarget }>>) =>
  groups.map((g) => [g.index, g.entries.map((e) => e.target.ref.name)]);

describe('evictionGroups', () => {
  interface Case {
    readonly name: string;
    readonly entries: ReadonlyArray<{ target: DrainTarget }>;
    readonly expected: ReadonlyArray<[number, string[]]>;
  }
  const cases: Case[] = [
    { name: 'no pods: no group', entries: [], expected: [] },
    {
      name: 'pods without a group are one group, 1: every pod at once',
      entries: [entry('a'), entry('b')],
      expected: [[1, ['a', 'b']]],
    },
    {
      name: 'a pod without a group goes with group 1, before group 2',
      entries: [entry('late', 2), entry('plain'), entry('first', 1)],
      expected: [
        [1, ['plain', 'first']],
        [2, ['late']],
      ],
    },
    {
      name: 'groups go by number, not as text: 2 before 10',
      entries: [entry('ten', 10), entry('two', 2), entry('three', 3)],
      expected: [
        [2, ['two']],
        [3, ['three']],
        [10, ['ten']],
      ],
    },
    {
      name: 'a group keeps its pods in the order given',
      entries: [entry('c', 2), entry('a', 2), entry('b', 2), entry('x', 5)],
      expected: [
        [2, ['c', 'a', 'b']],
        [5, ['x']],
      ],
    },
  ];
  it.each(cases)('$name', ({ entries, expected }) => {
    expect(names(evictionGroups(entries))).toEqual(expected);
  });

  it('hands back the entries themselves, so the engine reads their state after the group', () => {
    const a = entry('a', 2);
    expect(evictionGroups([a])[0]?.entries[0]).toBe(a);
  });
});

describe('groupHoldsBack', () => {
  interface Case {
    readonly name: string;
    readonly position: number;
    readonly of: number;
    readonly failed: readonly PodRef[];
    readonly expected: string | null;
  }
  const cases: Case[] = [
    { name: 'a group with no failed pod lets the next start', position: 1, of: 3, failed: [], expected: null },
    {
      name: 'a failed pod holds the later groups back, named',
      position: 1,
      of: 2,
      failed: [ref('db-0')],
      expected: 'drain-order group 1 did not finish (shop/db-0 failed): the later groups are not started',
    },
    {
      name: 'every failed pod of the group is named, in order',
      position: 2,
      of: 3,
      failed: [ref('db-1'), ref('db-0')],
      expected: 'drain-order group 2 did not finish (shop/db-1, shop/db-0 failed): the later groups are not started',
    },
    {
      name: 'a failure in the last group holds nothing back: no group is left',
      position: 3,
      of: 3,
      failed: [ref('web')],
      expected: null,
    },
  ];
  it.each(cases)('$name', ({ position, of, failed, expected }) => {
    expect(groupHoldsBack(position, of, failed)).toBe(expected);
  });
});
