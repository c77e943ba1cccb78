import { describe, expect, it } from 'vitest';
import { DrainStop } from '../../../src/drain/drain-stop.js';
import { FakeClock } from './fake-clock.js';

describe('DrainStop', () => {
  it('runs until something stops it', async () => {
    const clock = new FakeClock();
    const stop = new DrainStop();
    stop.arm(new AbortController().signal, 0, clock);
    await clock.advance(3_600_000);
    expect(stop.signal.aborted).toBe(false);
    expect(stop.stoppedBy).toBeNull();
    expect(clock.pending()).toEqual([]);
  });

  it('--timeout stops it when it falls due, not before', async () => {
    const clock = new FakeClock();
    const stop = new DrainStop();
    stop.arm(undefined, 60_000, clock);
    await clock.advance(59_999);
    expect(stop.stoppedBy).toBeNull();
    await clock.advance(1);
    expect(stop.stoppedBy).toBe('timeout');
    expect(stop.signal.aborted).toBe(true);
  });

  it('the caller’s signal stops it as interrupted, and the timeout coming later changes nothing', async () => {
    const clock = new FakeClock();
    const stop = new DrainStop();
    const caller = new AbortController();
    stop.arm(caller.signal, 60_000, clock);
    caller.abort('SIGTERM');
    expect(stop.stoppedBy).toBe('interrupted');
    await clock.advance(60_000);
    expect(stop.stoppedBy).toBe('interrupted');
    expect(clock.pending()).toEqual([]);
  });

  it('a signal already aborted stops it at once', () => {
    const stop = new DrainStop();
    stop.arm(AbortSignal.abort(), 60_000, new FakeClock());
    expect(stop.stoppedBy).toBe('interrupted');
  });

  it('the timeout first: a later interruption keeps the timeout as the reason', async () => {
    const clock = new FakeClock();
    const stop = new DrainStop();
    const caller = new AbortController();
    stop.arm(caller.signal, 1_000, clock);
    await clock.advance(1_000);
    caller.abort();
    expect(stop.stoppedBy).toBe('timeout');
  });

  it('disarmed (the drain returned), neither the timer nor the signal stops it', async () => {
    const clock = new FakeClock();
    const stop = new DrainStop();
    const caller = new AbortController();
    stop.arm(caller.signal, 1_000, clock).abort();
    expect(clock.pending()).toEqual([]);
    caller.abort();
    await clock.advance(1_000);
    expect(stop.stoppedBy).toBeNull();
  });
});
