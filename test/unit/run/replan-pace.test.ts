import { describe, expect, it } from 'vitest';
import { ChangeFeed } from '../../../src/run/changes.js';
import { RunWaits, type RunDeps } from '../../../src/run/step-context.js';
import { FakeClock, flush } from '../drain/fake-clock.js';

/** The run's waits on a clock the test moves; nothing else of the run is used by them. */
function waitsOn(clock: FakeClock): RunWaits {
  const deps = { clock, heldUntil: () => Infinity } as unknown as RunDeps;
  return new RunWaits(deps, new AbortController().signal, new ChangeFeed(), () => {});
}

/** How long `notSooner` keeps its caller waiting, on the fake clock: its sleep, or none. */
async function waited(clock: FakeClock, wait: Promise<void>): Promise<number> {
  await flush();
  const sleep = clock.pending()[0] ?? 0;
  await clock.advance(sleep);
  await wait;
  return sleep;
}

describe('the pace of fresh plans woken by changes', () => {
  it('a plan of a few milliseconds is read again at most every 200 ms', async () => {
    const clock = new FakeClock();
    const waits = waitsOn(clock);
    const read = clock.now();
    await clock.advance(5);
    waits.planned(read);
    expect(await waited(clock, waits.notSooner(read))).toBe(200 - 5);
  });

  it('after a plan that took a second, the next waits two seconds from its end, unless a node of the window came back', async () => {
    const clock = new FakeClock();
    const waits = waitsOn(clock);
    const read = clock.now();
    await clock.advance(1000);
    waits.planned(read);
    await clock.advance(300);
    expect(await waited(clock, waits.notSooner(read))).toBe(2000 - 300);
    // A node back: planned at once, but still not sooner than 200 ms after the read.
    const next = clock.now();
    await clock.advance(1000);
    waits.planned(next);
    expect(await waited(clock, waits.notSooner(next, false))).toBe(0);
  });
});
