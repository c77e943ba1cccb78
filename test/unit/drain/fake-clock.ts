import type { Clock } from '../../../src/drain/clock.js';

interface Timer {
  readonly at: number;
  readonly resolve: (elapsed: boolean) => void;
}

/**
 * A clock that only moves when the test says so: `advance(ms)` fires the sleeps that fall due, in order,
 * letting promise callbacks run between them.
 */
export class FakeClock implements Clock {
  private nowMs: number;
  private timers: Timer[] = [];

  constructor(startMs = 1_000_000) {
    this.nowMs = startMs;
  }

  now(): number {
    return this.nowMs;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer: Timer = { at: this.nowMs + ms, resolve };
      this.timers.push(timer);
      signal?.addEventListener(
        'abort',
        () => {
          this.timers = this.timers.filter((t) => t !== timer);
          resolve(false);
        },
        { once: true },
      );
    });
  }

  /** Pending sleeps, soonest first, as delays from now. */
  pending(): number[] {
    return this.timers.map((t) => t.at - this.nowMs).sort((a, b) => a - b);
  }

  async advance(ms: number): Promise<void> {
    const until = this.nowMs + ms;
    for (;;) {
      await flush();
      const due = this.timers.filter((t) => t.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.nowMs = due.at;
      due.resolve(true);
    }
    this.nowMs = until;
    await flush();
  }
}

/** Lets pending promise callbacks run. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
}
