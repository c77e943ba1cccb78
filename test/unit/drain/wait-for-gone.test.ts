import { ApiException } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { KubeError } from '../../../src/kube/errors.js';
import type { PodRef } from '../../../src/drain/events.js';
import { GoneTracker, isGoneBy, skipWaitDue, type GoneWakeup } from '../../../src/drain/wait-for-gone.js';
import { makePod } from '../builders.js';
import { FakeClock, flush } from './fake-clock.js';

describe('isGoneBy', () => {
  it.each([
    { name: 'A pod that no longer exists is gone', current: null, expected: true },
    {
      name: 'A pod whose name now has another UID is gone (recreated under the same name)',
      current: { uid: 'new' },
      expected: true,
    },
    { name: 'A pod with the same UID is still there', current: { uid: 'old' }, expected: false },
  ])('$name', ({ current, expected }) => {
    expect(isGoneBy('old', current)).toBe(expected);
  });
});

describe('skipWaitDue', () => {
  const deletion = 1_000_000;
  it.each([
    { name: 'Off when the flag is 0', seconds: 0, nowMs: deletion + 600_000, expected: false },
    {
      name: 'Not due while the DeletionTimestamp is exactly N seconds old',
      seconds: 20,
      nowMs: deletion + 20_999,
      expected: false,
    },
    {
      name: 'Due once the DeletionTimestamp is more than N whole seconds old',
      seconds: 20,
      nowMs: deletion + 21_000,
      expected: true,
    },
  ])('$name', ({ seconds, nowMs, expected }) => {
    expect(skipWaitDue(deletion, nowMs, seconds)).toBe(expected);
  });
  it('Never due for a pod without a DeletionTimestamp', () => {
    expect(skipWaitDue(null, 10 ** 12, 1)).toBe(false);
  });
});

describe('GoneTracker', () => {
  const live = makePod().name('hello-1').ns('demo').uid('old').node('k8s-node-1').obj();
  const ref: PodRef = { namespace: 'demo', name: 'hello-1', uid: 'old', node: 'k8s-node-1' };
  /** The API cannot be reached (fetch's error, as undici throws it): the tracker must learn from the watch alone. */
  const unreachable = () =>
    Promise.reject(
      new TypeError('fetch failed', {
        cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6443'), { code: 'ECONNREFUSED' }),
      }),
    );

  function waitFor(tracker: GoneTracker, stop: AbortSignal, skipSeconds = 0) {
    const result: { how?: GoneWakeup } = {};
    void tracker.waitForGone(ref, stop, skipSeconds).then((how) => (result.how = how));
    return result;
  }

  it('A deletion seen by the watch ends the wait at once', async () => {
    const tracker = new GoneTracker(new FakeClock(), unreachable);
    tracker.observe(live);
    const result = waitFor(tracker, new AbortController().signal);
    await flush();
    expect(result.how).toBeUndefined();
    tracker.observeDeleted(live);
    await flush();
    expect(result.how).toBe('gone');
    expect(tracker.isGone('old')).toBe(true);
  });

  it('The same name with a new UID on the node ends the wait', async () => {
    const tracker = new GoneTracker(new FakeClock(), unreachable);
    tracker.observe(live);
    const result = waitFor(tracker, new AbortController().signal);
    tracker.observe(makePod().name('hello-1').ns('demo').uid('new').node('k8s-node-1').obj());
    await flush();
    expect(result.how).toBe('gone');
  });

  it('A pod terminating for longer than --skip-wait-for-delete-timeout is skipped at the next look', async () => {
    const clock = new FakeClock(1_000_000);
    const tracker = new GoneTracker(clock, unreachable);
    // deletionTimestamp (grace period's end) at t = 1 000 s; the flag is 2 s.
    tracker.observe(makePod().name('hello-1').ns('demo').uid('old').deleting(1000, 5).obj());
    const result = waitFor(tracker, new AbortController().signal, 2);
    await clock.advance(2000);
    expect(result.how).toBeUndefined();
    await clock.advance(4000);
    expect(result.how).toBe('skip-wait');
  });

  it('Stopping the drain ends the wait', async () => {
    const tracker = new GoneTracker(new FakeClock(), unreachable);
    const stop = new AbortController();
    const result = waitFor(tracker, stop.signal);
    stop.abort();
    await flush();
    expect(result.how).toBe('stopped');
  });

  it('A GET that finds no pod ends the wait (the watch missed the deletion)', async () => {
    const clock = new FakeClock();
    const tracker = new GoneTracker(clock, () => Promise.resolve(null));
    const result = waitFor(tracker, new AbortController().signal);
    await clock.advance(1000);
    expect(result.how).toBe('gone');
  });

  it("While the node's watch says it is up, the pod is read again every 10 s, not every second", async () => {
    const clock = new FakeClock();
    const gets: number[] = [];
    let watchUp = true;
    const read = () => {
      gets.push(clock.now() - 1_000_000);
      return Promise.resolve(live);
    };
    const tracker = new GoneTracker(clock, read, undefined, () => watchUp);
    const result = waitFor(tracker, new AbortController().signal);
    await clock.advance(20_000);
    expect(gets).toEqual([10_000, 20_000]);
    // The watch down: back to the GETs of its fallback, from the next look on.
    watchUp = false;
    await clock.advance(30_000);
    expect(gets).toEqual([10_000, 20_000, 30_000, 35_000, 40_000, 45_000, 50_000]);
    expect(result.how).toBeUndefined();
  });

  it('rides out an unreachable API server silently, and reports a GET the server refuses instead of swallowing it', async () => {
    const clock = new FakeClock();
    const failures: KubeError[] = [];
    const quiet = new GoneTracker(clock, unreachable, (_ref, error) => failures.push(error));
    const quietWait = waitFor(quiet, new AbortController().signal);
    await clock.advance(1000);
    expect(failures).toEqual([]);

    const body = JSON.stringify({
      kind: 'Status',
      code: 403,
      message:
        'pods "hello-1" is forbidden: User "ro" cannot get resource "pods" in API group "" in the namespace "demo"',
    });
    const refused = new GoneTracker(
      clock,
      () => Promise.reject(new ApiException(403, 'Forbidden', body, {})),
      (_ref, error) => failures.push(error),
    );
    const refusedWait = waitFor(refused, new AbortController().signal);
    await clock.advance(1000);
    expect(failures.map((e) => [e.kind, e.message])).toEqual([
      ['forbidden', 'forbidden: user "ro" cannot get pods in namespace "demo"'],
    ]);
    // Neither ends the wait: the watch may still tell.
    expect(quietWait.how).toBeUndefined();
    expect(refusedWait.how).toBeUndefined();
  });
});
