import { describe, expect, it } from 'vitest';
import { BUDGET_FALLBACK, GONE_POLL, backoffDelayMs } from '../../../src/drain/backoff.js';

describe('backoffDelayMs', () => {
  it('waits for a budget 1 s, 2 s, 4 s, 8 s, then every 10 s', () => {
    expect([0, 1, 2, 3, 4, 5, 40].map((n) => backoffDelayMs(BUDGET_FALLBACK, n))).toEqual([
      1000, 2000, 4000, 8000, 10000, 10000, 10000,
    ]);
  });
  it('re-reads a pod that should be gone after 1 s, 2 s, 4 s, then every 5 s', () => {
    expect([0, 1, 2, 3, 9].map((n) => backoffDelayMs(GONE_POLL, n))).toEqual([1000, 2000, 4000, 5000, 5000]);
  });
  it('never overflows, however long the wait', () => {
    expect(backoffDelayMs(BUDGET_FALLBACK, 10_000)).toBe(10_000);
  });
});
