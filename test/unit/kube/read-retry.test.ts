import { describe, expect, it } from 'vitest';
import { classifyKubeError } from '../../../src/kube/errors.js';
import { ApiError } from '../../../src/kube/rest.js';
import {
  BROKEN_READ_WAITS_SECONDS,
  MAX_THROTTLED_RETRIES,
  ReadBrokeOff,
  brokenOff,
  brokenReadWait,
  readFailure,
  retryRead,
  throttledFor,
  type RetryWait,
} from '../../../src/kube/read-retry.js';

/** A 429 as APF answers it: a Status body and a Retry-After header. */
const throttled = (retryAfter?: string) =>
  new ApiError(
    429,
    JSON.stringify({ kind: 'Status', code: 429, reason: 'TooManyRequests', message: 'Too many requests' }),
    retryAfter === undefined ? {} : { 'retry-after': retryAfter },
  );

/** The API server's own timeout of a long list, as its timeout filter answers it. */
const timedOut = () =>
  new ApiError(
    504,
    JSON.stringify({
      kind: 'Status',
      code: 504,
      reason: 'Timeout',
      message: 'Timeout: request did not complete within requested timeout - context deadline exceeded',
    }),
    {},
  );

/** undici's fetch when the connection of a body being read closes: `TypeError: terminated`, the socket's error as cause. */
const terminated = () =>
  new TypeError('terminated', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) });
const reset = () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });

/** Answers with `failures` in turn, then `ok`; records the waits asked for instead of waiting. */
function scripted(failures: Error[], brokenOff = true) {
  const waits: number[] = [];
  const told: RetryWait[] = [];
  let calls = 0;
  const request = async () => {
    const failure = failures[calls++];
    if (failure) throw failure;
    return 'ok';
  };
  const options = {
    brokenOff,
    sleep: async (ms: number) => void waits.push(ms),
    onRetry: (wait: RetryWait) => void told.push(wait),
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

describe('brokenOff', () => {
  it.each([
    { name: 'a connection that closed while the body was read', err: terminated(), cause: 'the connection closed' },
    { name: 'a connection reset', err: reset(), cause: 'the connection was reset' },
    {
      name: "the API server's own timeout of a long list (504)",
      err: timedOut(),
      cause:
        'the server answered 504 (Timeout: request did not complete within requested timeout - context deadline exceeded)',
    },
    { name: 'a 503 without a Status', err: new ApiError(503, '', {}), cause: 'the server answered 503' },
    {
      name: 'an answer whose JSON ends early',
      err: new SyntaxError('Unexpected end of JSON input'),
      cause: 'the answer was cut short (Unexpected end of JSON input)',
    },
    {
      name: 'a gzip stream that ends early',
      err: Object.assign(new Error('unexpected end of file'), { code: 'Z_BUF_ERROR' }),
      cause: 'the answer was cut short',
    },
  ])('$name: broke off, as $cause', ({ err, cause }) => {
    expect(brokenOff(err)).toBe(cause);
  });

  it.each([
    { name: 'a 403 (an answer to act on)', err: new ApiError(403, '{}', {}) },
    { name: 'a 410 (the read starts over by its own rule)', err: new ApiError(410, '{}', {}) },
    { name: 'a 422 (the streaming list not served)', err: new ApiError(422, '{}', {}) },
    { name: 'a 501 (never served)', err: new ApiError(501, '{}', {}) },
    { name: 'a 429 (throttled, waited for apart)', err: throttled('1') },
    {
      name: 'a refused connection (no server to read from)',
      err: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }),
    },
    { name: "the user's --request-timeout", err: new DOMException('The operation timed out.', 'TimeoutError') },
    {
      name: 'a read already tried in vain',
      err: new ReadBrokeOff(4, 'the connection closed', { cause: terminated() }),
    },
  ])('$name: not broken off', ({ err }) => {
    expect(brokenOff(err)).toBeNull();
  });
});

describe('brokenReadWait', () => {
  it('waits longer before each new try, and gives up after the last', () => {
    const waits = BROKEN_READ_WAITS_SECONDS.map((_, retries) => brokenReadWait(terminated(), retries));
    expect(waits).toEqual([
      { seconds: 1, reason: 'broke off as the connection closed', retry: 1 },
      { seconds: 2, reason: 'broke off as the connection closed', retry: 2 },
      { seconds: 4, reason: 'broke off as the connection closed', retry: 3 },
    ]);
    expect(brokenReadWait(terminated(), BROKEN_READ_WAITS_SECONDS.length)).toBeNull();
    expect(brokenReadWait(new ApiError(403, '{}', {}), 0)).toBeNull();
  });
});

describe('readFailure', () => {
  it('a read that broke off on every try fails with how many tries and the last cause', () => {
    const failure = readFailure(reset(), 3);
    expect(failure).toBeInstanceOf(ReadBrokeOff);
    expect((failure as Error).message).toBe('broke off 4 times (the last: the connection was reset)');
  });

  it('any other failure is itself, retried or not', () => {
    const forbidden = new ApiError(403, '{}', {});
    expect(readFailure(forbidden, 2)).toBe(forbidden);
    const once = terminated();
    expect(readFailure(once, 0)).toBe(once);
  });

  it("says the kind read and the server in one line, its kind the last try's", () => {
    const target = { context: 'lab', user: 'admin', server: 'https://127.0.0.1:6443', requestTimeoutMs: 0 };
    const call = { verb: 'list', resource: 'pods' };
    const closed = classifyKubeError(readFailure(terminated(), 3), target, call);
    expect([closed.kind, closed.message]).toEqual([
      'unreachable',
      'list pods from https://127.0.0.1:6443 broke off 4 times (the last: the connection closed)',
    ]);
    expect(classifyKubeError(readFailure(new ApiError(503, '', {}), 3), target, call)).toMatchObject({
      kind: 'server',
      status: 503,
    });
  });
});

describe('retryRead', () => {
  it('sends the request again after each Retry-After and says so each time', async () => {
    const s = scripted([throttled('2'), throttled('5')]);
    await expect(retryRead(s.request, s.options)).resolves.toBe('ok');
    expect(s.waits).toEqual([2000, 5000]);
    expect(s.told).toEqual([
      { seconds: 2, reason: 'throttled by the API server', retry: 1 },
      { seconds: 5, reason: 'throttled by the API server', retry: 2 },
    ]);
  });

  it("gives up after client-go's ten retries with the last 429", async () => {
    const s = scripted(Array.from({ length: MAX_THROTTLED_RETRIES + 1 }, () => throttled('1')));
    await expect(retryRead(s.request, s.options)).rejects.toMatchObject({ code: 429 });
    expect(s.calls()).toBe(MAX_THROTTLED_RETRIES + 1);
  });

  it('does not retry an answer that is neither a 429 nor a break', async () => {
    const s = scripted([new ApiError(403, '{}', {})]);
    await expect(retryRead(s.request, s.options)).rejects.toMatchObject({ code: 403 });
    expect(s.calls()).toBe(1);
  });

  it('sends a request that broke off again after a growing wait, and says why', async () => {
    const s = scripted([terminated(), timedOut(), throttled('3')]);
    await expect(retryRead(s.request, s.options)).resolves.toBe('ok');
    expect(s.waits).toEqual([1000, 2000, 3000]);
    expect(s.told.map((wait) => wait.reason)).toEqual([
      'broke off as the connection closed',
      expect.stringMatching(/^broke off as the server answered 504 \(Timeout: /),
      'throttled by the API server',
    ]);
  });

  it('fails after the last try with ReadBrokeOff, the last break its cause', async () => {
    const s = scripted(Array.from({ length: BROKEN_READ_WAITS_SECONDS.length + 1 }, () => terminated()));
    const failure = await retryRead(s.request, s.options).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(ReadBrokeOff);
    expect((failure as ReadBrokeOff).tries).toBe(BROKEN_READ_WAITS_SECONDS.length + 1);
    expect(s.calls()).toBe(BROKEN_READ_WAITS_SECONDS.length + 1);
  });

  it("without brokenOff, a break is the caller's (a streaming read starts over instead)", async () => {
    const s = scripted([terminated()], false);
    await expect(retryRead(s.request, s.options)).rejects.toThrow('terminated');
    expect(s.calls()).toBe(1);
  });

  it('stops waiting when aborted', async () => {
    const abort = new AbortController();
    const s = scripted([throttled('30'), throttled('30')]);
    const sleep = async () => void abort.abort();
    await expect(retryRead(s.request, { ...s.options, sleep, signal: abort.signal })).rejects.toMatchObject({
      code: 429,
    });
    expect(s.calls()).toBe(1);
  });
});
