import type { V1Node } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { cachedRunApi } from '../../../src/kube/cached-apis.js';
import type { ClusterCache } from '../../../src/kube/cluster-cache.js';
import type { WatchHandlers } from '../../../src/kube/list-watch.js';
import type { RunApi } from '../../../src/kube/run-api.js';

const node = (rv: string): V1Node => ({ metadata: { name: 'n1', resourceVersion: rv } });

/** A cluster cache that follows nodes, whose watch the test feeds and marks down. */
function fakeCache() {
  const state = { nodeWatchDown: false, handlers: [] as Array<WatchHandlers<V1Node>> };
  const cache = {
    follows: () => true,
    watch: (_kind: string, _filter: unknown, handlers: WatchHandlers<V1Node>) => {
      state.handlers.push(handlers);
      return { ready: Promise.resolve(), current: () => !state.nodeWatchDown, stop: () => {} };
    },
  } as unknown as ClusterCache;
  return { cache, state };
}

describe('cachedRunApi readNode', () => {
  it('A node is read from the API server once, then from its copy for as long as the watch of nodes is up', async () => {
    const { cache, state } = fakeCache();
    let now = 0;
    const gets: string[] = [];
    const direct = {
      readNode: (name: string) => {
        gets.push(name);
        return Promise.resolve(node(String(100 + 100 * gets.length)));
      },
    } as unknown as RunApi;
    const api = cachedRunApi(direct, cache, () => now);
    expect((await api.readNode('n1')).metadata?.resourceVersion).toBe('200');
    now = 60_000;
    expect((await api.readNode('n1')).metadata?.resourceVersion).toBe('200');
    // What the watch shows replaces the copy.
    for (const h of state.handlers) h.onUpsert(node('250'));
    expect((await api.readNode('n1')).metadata?.resourceVersion).toBe('250');
    expect(gets).toEqual(['n1']);
    // The watch down: a copy older than 5 s is read again.
    state.nodeWatchDown = true;
    now = 120_000;
    expect((await api.readNode('n1')).metadata?.resourceVersion).toBe('300');
    now = 121_000;
    expect((await api.readNode('n1')).metadata?.resourceVersion).toBe('300');
    expect(gets).toEqual(['n1', 'n1']);
  });
});

describe("cachedRunApi's writes of a node", () => {
  /** A cache that takes the writes it is given (or refuses them), and records the waits for its watch. */
  function writableCache(takes: boolean) {
    const { cache, state } = fakeCache();
    const owned: string[] = [];
    const waits: string[] = [];
    Object.assign(cache, {
      own: (_kind: string, n: V1Node) => {
        owned.push(n.metadata?.resourceVersion ?? '');
        return takes;
      },
      waitFor: (_kind: string, key: string) => {
        waits.push(key);
        return Promise.resolve(true);
      },
    });
    return { cache, state, owned, waits };
  }
  const direct = {
    annotateNodeIfUnchanged: () => Promise.resolve(node('500')),
    setNodeConditions: () => Promise.resolve(node('600')),
  } as unknown as RunApi;

  it('the uncordon as the API server answered goes into the cache, and returns without waiting for the watch', async () => {
    const { cache, owned, waits } = writableCache(true);
    const api = cachedRunApi(direct, cache);
    await api.annotateNodeIfUnchanged('n1', { phase: 'done' }, '400', { uncordon: true });
    await api.setNodeConditions('n1', []);
    expect(owned).toEqual(['500', '600']);
    expect(waits).toEqual([]);
    // The copy the run's next guarded write reads is the one written, not read again.
    expect((await api.readNode('n1')).metadata?.resourceVersion).toBe('600');
  });

  it('an uncordon the cache cannot take waits for the watch to show it', async () => {
    const { cache, waits } = writableCache(false);
    const api = cachedRunApi(direct, cache);
    await api.annotateNodeIfUnchanged('n1', { phase: 'returning' }, '400');
    expect(waits).toEqual([]);
    await api.annotateNodeIfUnchanged('n1', { phase: 'done' }, '400', { uncordon: true });
    expect(waits).toEqual(['n1']);
  });
});
