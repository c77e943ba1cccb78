import { setLongTimeout } from '../timers.js';

/** Time, passed in so that the engine's waits can be driven by a fake clock in tests. */
export interface Clock {
  now(): number;
  /** Resolves true after `ms`, or false as soon as `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<boolean>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<boolean>((resolve) => {
      if (signal?.aborted) return resolve(false);
      const onAbort = () => {
        timer.clear();
        resolve(false);
      };
      // Chained timers: a --timeout above 24.8 days must not fire at once (Node's timer limit).
      const timer = setLongTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve(true);
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};
