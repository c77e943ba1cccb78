import type { Clock } from './clock.js';

/** Why a drain stopped before every pod settled: its caller's signal (Ctrl-C, SIGTERM) or --timeout. */
export type StoppedBy = 'interrupted' | 'timeout';

/**
 * The drain's one stop signal: the caller's signal and --timeout both abort it, and the first of them is
 * the reason it stopped (a later one changes nothing).
 */
export class DrainStop {
  private readonly controller = new AbortController();
  private why: StoppedBy | null = null;

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** What stopped the drain, or null while it runs. */
  get stoppedBy(): StoppedBy | null {
    return this.why;
  }

  stopWith(why: StoppedBy): void {
    if (this.controller.signal.aborted) return;
    this.why = why;
    this.controller.abort();
  }

  /**
   * Wires the caller's `signal` (already aborted: stopped at once) and --timeout (`timeoutMs`, 0 = none) to
   * the stop; returns a controller whose abort disarms both, so that no timer outlives the drain.
   */
  arm(signal: AbortSignal | undefined, timeoutMs: number, clock: Clock): AbortController {
    const disarm = new AbortController();
    if (signal?.aborted) this.stopWith('interrupted');
    signal?.addEventListener('abort', () => this.stopWith('interrupted'), { once: true, signal: disarm.signal });
    if (timeoutMs > 0) {
      void clock.sleep(timeoutMs, AbortSignal.any([disarm.signal, this.signal])).then((elapsed) => {
        if (elapsed) this.stopWith('timeout');
      });
    }
    return disarm;
  }
}
