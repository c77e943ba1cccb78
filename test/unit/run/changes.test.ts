import { describe, expect, it } from 'vitest';
import { budgetChange, ChangeFeed, nodeChange } from '../../../src/run/changes.js';

describe('ChangeFeed', () => {
  it('wakes a wait with the change it wants and keeps the others waiting', async () => {
    const feed = new ChangeFeed();
    const signal = new AbortController().signal;
    const woke: string[] = [];
    const node1 = feed.next(signal, nodeChange('pool-1')).then(() => woke.push('pool-1'));
    const budget = feed.next(signal, budgetChange(new Set(['shop/web']))).then(() => woke.push('web'));
    feed.changed({ kind: 'node', name: 'pool-2' });
    feed.changed({ kind: 'pdb', namespace: 'shop', name: 'api' });
    feed.changed({ kind: 'node', name: 'pool-1' });
    await node1;
    expect(woke).toEqual(['pool-1']);
    feed.changed({ kind: 'pdb', namespace: 'shop', name: 'web' });
    await budget;
    expect(woke).toEqual(['pool-1', 'web']);
  });

  it('wakes a wait without a filter at any change, once', async () => {
    const feed = new ChangeFeed();
    const wait = feed.next(new AbortController().signal);
    feed.changed({ kind: 'node', name: 'pool-9' });
    await expect(wait).resolves.toBe(true);
  });

  it('answers false when the wait is aborted, and forgets it', async () => {
    const feed = new ChangeFeed();
    const abort = new AbortController();
    const wait = feed.next(abort.signal, nodeChange('pool-1'));
    abort.abort();
    await expect(wait).resolves.toBe(false);
    await expect(feed.next(abort.signal)).resolves.toBe(false);
    // The aborted wait is gone: a later change wakes only the new wait.
    const again = feed.next(new AbortController().signal, nodeChange('pool-1'));
    feed.changed({ kind: 'node', name: 'pool-1' });
    await expect(again).resolves.toBe(true);
  });

  it('matches budgets by namespace and name', () => {
    const wants = budgetChange(new Map([['shop/web', 1]]));
    expect(wants({ kind: 'pdb', namespace: 'shop', name: 'web' })).toBe(true);
    expect(wants({ kind: 'pdb', namespace: 'other', name: 'web' })).toBe(false);
    expect(wants({ kind: 'node', name: 'shop/web' })).toBe(false);
  });
});
