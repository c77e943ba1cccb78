import { describe, expect, it } from 'vitest';
import { Slots } from '../../../src/drain/concurrency.js';
import { flush } from './fake-clock.js';

describe('Slots', () => {
  it('grants at most the limit, then first come first served as slots come back', async () => {
    const slots = new Slots(2);
    const signal = new AbortController().signal;
    const granted: string[] = [];
    for (const name of ['a', 'b', 'c', 'd']) void slots.acquire(signal).then(() => granted.push(name));
    await flush();
    expect(granted).toEqual(['a', 'b']);
    slots.release();
    await flush();
    expect(granted).toEqual(['a', 'b', 'c']);
    expect(slots.held).toBe(2);
  });

  it('0 means no limit, as kubectl drain', async () => {
    const slots = new Slots(0);
    const signal = new AbortController().signal;
    const results = await Promise.all([1, 2, 3, 4, 5].map(() => slots.acquire(signal)));
    expect(results).toEqual([true, true, true, true, true]);
  });

  it('a pod that stops waiting for a slot takes none', async () => {
    const slots = new Slots(1);
    const stop = new AbortController();
    await slots.acquire(new AbortController().signal);
    const waiting = slots.acquire(stop.signal);
    stop.abort();
    expect(await waiting).toBe(false);
    slots.release();
    expect(slots.held).toBe(0);
  });
});
