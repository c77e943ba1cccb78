import { describe, expect, it } from 'vitest';
import { KubeError } from '../../../src/kube/errors.js';
import { ApiAway, durably, passingFailure } from '../../../src/run/durable.js';
import { FakeClock, flush } from '../drain/fake-clock.js';

const refused = () => new KubeError('unreachable', 'the connection to the server 127.0.0.1:6443 was refused');

/** An attempt that fails with `failures` in turn, then answers 'written'; counts its calls. */
function attempts(failures: readonly Error[]) {
  let calls = 0;
  return {
    calls: () => calls,
    attempt: async () => {
      calls += 1;
      const failure = failures[calls - 1];
      if (failure) throw failure;
      return 'written';
    },
  };
}

describe('durably: a write outlasts an API server that is away while the Lease holds', () => {
  it.each([
    { kind: 'unreachable' as const, passing: true },
    { kind: 'timeout' as const, passing: true },
    { kind: 'server' as const, passing: true },
    { kind: 'too-many-requests' as const, passing: true },
    { kind: 'forbidden' as const, passing: false },
    { kind: 'conflict' as const, passing: false },
    { kind: 'not-found' as const, passing: false },
  ])('a $kind failure is passing: $passing', ({ kind, passing }) => {
    expect(passingFailure(new KubeError(kind, 'x'))).toBe(passing);
    expect(passingFailure(new Error('a bug'))).toBe(false);
  });

  it('tries again with growing waits until the server answers, and says once what waits', async () => {
    const clock = new FakeClock();
    const told: Array<[string, number]> = [];
    const a = attempts([refused(), refused(), refused()]);
    const result = durably(a.attempt, {
      clock,
      heldUntil: () => clock.now() + 20_000,
      onAway: (reason, seconds) => told.push([reason, seconds]),
    });
    await flush();
    expect(clock.pending()).toEqual([250]);
    await clock.advance(250);
    expect(clock.pending()).toEqual([500]);
    await clock.advance(500);
    expect(clock.pending()).toEqual([1000]);
    await clock.advance(1000);
    expect(await result).toBe('written');
    expect(a.calls()).toBe(4);
    expect(told).toEqual([['the connection to the server 127.0.0.1:6443 was refused', 20]]);
  });

  it('gives up with ApiAway once the Lease has expired, its cause the last failure', async () => {
    const clock = new FakeClock();
    const until = clock.now() + 3_000;
    const a = attempts(Array.from({ length: 100 }, refused));
    const result = durably(a.attempt, { clock, heldUntil: () => until, onAway: () => undefined });
    const settled = result.catch((err: unknown) => err);
    await clock.advance(10_000);
    const err = await settled;
    expect(err).toBeInstanceOf(ApiAway);
    expect((err as ApiAway).message).toBe(
      "the API server did not answer before the run's Lease expired: the connection to the server 127.0.0.1:6443 was refused",
    );
    expect((err as ApiAway).cause).toBeInstanceOf(KubeError);
    // 250 + 500 + 1000 + 1250 (what was left): the last try at the Lease's end.
    expect(a.calls()).toBe(5);
  });

  it('a Lease renewed meanwhile lets it try for longer', async () => {
    const clock = new FakeClock();
    let until = clock.now() + 1_000;
    const a = attempts([refused(), refused(), refused()]);
    const result = durably(a.attempt, { clock, heldUntil: () => until, onAway: () => undefined });
    await clock.advance(250);
    until = clock.now() + 30_000;
    await clock.advance(2_000);
    expect(await result).toBe('written');
  });

  it('an answer that is a refusal is thrown at once, not tried again', async () => {
    const clock = new FakeClock();
    const forbidden = new KubeError('forbidden', 'forbidden: user "x" cannot patch nodes');
    const a = attempts([forbidden]);
    await expect(
      durably(a.attempt, { clock, heldUntil: () => clock.now() + 30_000, onAway: () => undefined }),
    ).rejects.toBe(forbidden);
    expect(a.calls()).toBe(1);
  });
});
