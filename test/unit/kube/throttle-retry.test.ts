import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/kube/rest.js';
import { MAX_THROTTLED_RETRIES, retryThrottled, throttledFor } from '../../../src/kube/throttle-retry.js';

/** A 429 as APF answers it: a Status body and a Retry-After header. */
const throttled = (retryAfter?: string) =>
  new ApiError(
    429,
    JSON.stringify({ kind: 'Status', code: 429, reason: 'TooManyRequests', message: 'Too many requests' }),
    retryAfter === undefined ? {} : { 'retry-after': retryAfter },
  );

/** Answers with `failures` in turn, then `ok`; records the waits asked for instead of waiting. */
function scripted(failures: Error[]) {
  const waits: number[] = [];
  const told: Array<[number, number]> = [];
  let calls = 0;
  const request = async () => {
    const failure = failures[calls++];
    if (failure) throw failure;
    return 'ok';
  };
  const options = {
    sleep: async (ms: number) => void waits.push(ms),
    onThrottled: (seconds: number, retry: number) => void told.push([seconds, retry]),
  };
  return { request, options, waits, told, calls: () => calls };
}

describe('throttledFor', () => {
  it('reads the seconds of Retry-After from a 429, 1 when it is missing, and null for any other answer', () => {
    expect(throttledFor(throttled('7'))).toBe(7);
    expect(throttledFor(throttled())).toBe(1);
    expect(throttledFor(new ApiError(500, '', { 'retry-after': '7' }))).toBeNull();
    expect(throttledFor(new Error('socket hang up'))).toBeNull();
  });

  it('waits at most a minute whatever the server asks', () => {
    expect(throttledFor(throttled('3600'))).toBe(60);
  });
});

describe('retryThrottled', () => {
  it('sends the request again after each Retry-After and says so each time', async () => {
    const s = scripted([throttled('2'), throttled('5')]);
    await expect(retryThrottled(s.request, s.options)).resolves.toBe('ok');
    expect(s.waits).toEqual([2000, 5000]);
    expect(s.told).toEqual([
      [2, 1],
      [5, 2],
    ]);
  });

  it("gives up after client-go's ten retries with the last 429", async () => {
    const s = scripted(Array.from({ length: MAX_THROTTLED_RETRIES + 1 }, () => throttled('1')));
    await expect(retryThrottled(s.request, s.options)).rejects.toMatchObject({ code: 429 });
    expect(s.calls()).toBe(MAX_THROTTLED_RETRIES + 1);
  });

  it('does not retry an answer that is not a 429', async () => {
    const s = scripted([new ApiError(403, '{}', {})]);
    await expect(retryThrottled(s.request, s.options)).rejects.toMatchObject({ code: 403 });
    expect(s.calls()).toBe(1);
  });

  it('stops waiting when aborted', async () => {
    const abort = new AbortController();
    const s = scripted([throttled('30'), throttled('30')]);
    const sleep = async () => void abort.abort();
    await expect(retryThrottled(s.request, { ...s.options, sleep, signal: abort.signal })).rejects.toMatchObject({
      code: 429,
    });
    expect(s.calls()).toBe(1);
  });
});
