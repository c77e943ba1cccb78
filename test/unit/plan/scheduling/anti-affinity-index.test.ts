/**
 * The index of assigned pods' affinity terms: a placement asks it for the terms that may select its pod,
 * by the pod's labels. It skips the labels under whose keys it files no term; what it files later (a
 * simulation's placed replacements, a copy's, a derived state's) must still be found.
 */
import { describe, expect, it } from 'vitest';
import type { AffinityTerm } from '../../../../src/plan/scheduling/affinity-term.js';
import { AntiAffinityIndex } from '../../../../src/plan/scheduling/anti-affinity-index.js';
import { NodeInfo } from '../../../../src/plan/scheduling/node-info.js';
import { makeNode } from '../../builders.js';

const node = new NodeInfo(makeNode().name('n1').obj());
/** A term of a pod of namespace shop selecting the pods with this label. */
const selecting = (key: string, value: string): AffinityTerm => ({
  topologyKey: 'kubernetes.io/hostname',
  selector: { matchLabels: { [key]: value } },
  namespaces: new Set(['shop']),
  allNamespaces: false,
  approximated: false,
});
const uids = (index: AntiAffinityIndex, labels: Record<string, string>) =>
  index.candidates('shop', labels).map((c) => c.uid);

describe('the affinity terms index', () => {
  it('finds a term by any of the pod labels, whatever their order', () => {
    const index = new AntiAffinityIndex();
    index.add([selecting('app', 'web')], node, 'web-0');
    expect(uids(index, { tier: 'front', app: 'web' })).toEqual(['web-0']);
    expect(uids(index, { tier: 'front', app: 'db' })).toEqual([]);
  });

  it('finds what is added after a copy in the copy alone, under a label key new to both', () => {
    const index = new AntiAffinityIndex();
    index.add([selecting('app', 'web')], node, 'web-0');
    const copy = index.copy();
    copy.add([selecting('tier', 'db')], node, 'db-0');
    expect(uids(copy, { tier: 'db' })).toEqual(['db-0']);
    expect(uids(index, { tier: 'db' })).toEqual([]);
    index.add([selecting('role', 'cache')], node, 'cache-0');
    expect(uids(index, { role: 'cache' })).toEqual(['cache-0']);
    expect(uids(copy, { role: 'cache' })).toEqual([]);
  });

  it('finds in a derived index the terms it adds, under a label key new to it, and not those it removes', () => {
    const index = new AntiAffinityIndex();
    index.add([selecting('app', 'web')], node, 'web-0');
    const derived = index.derive(
      [{ terms: [selecting('app', 'web')], node, uid: 'web-0' }],
      [{ terms: [selecting('tier', 'db')], node, uid: 'db-0' }],
    );
    expect(uids(derived, { tier: 'db', app: 'web' })).toEqual(['db-0']);
    expect(uids(index, { tier: 'db', app: 'web' })).toEqual(['web-0']);
  });
});
