/**
 * Timers for durations the user chooses (`--timeout 600h`, `--request-timeout 600h`). Node's timers
 * hold at most 2^31-1 ms (about 24.8 days): a longer delay prints TimeoutOverflowWarning and fires
 * after 1 ms, which would time a drain out at once. kubectl takes any Go duration, so longer delays
 * are waited for in steps.
 */

/** The longest delay setTimeout honours. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export interface LongTimeout {
  clear(): void;
}

/** setTimeout for any delay; `unref` lets the process exit while it is pending. */
export function setLongTimeout(callback: () => void, ms: number, options: { unref?: boolean } = {}): LongTimeout {
  let timer: NodeJS.Timeout | undefined;
  let cleared = false;
  const arm = (remaining: number) => {
    const step = Math.min(Math.max(remaining, 0), MAX_TIMER_MS);
    timer = setTimeout(() => {
      if (cleared) return;
      if (remaining > MAX_TIMER_MS) arm(remaining - MAX_TIMER_MS);
      else callback();
    }, step);
    if (options.unref) timer.unref();
  };
  arm(ms);
  return {
    clear() {
      cleared = true;
      clearTimeout(timer);
    },
  };
}

/**
 * AbortSignal.timeout for any delay: aborts with the same TimeoutError DOMException, and like it does
 * not keep the process alive.
 */
export function timeoutSignal(ms: number): AbortSignal {
  if (ms <= MAX_TIMER_MS) return AbortSignal.timeout(ms);
  const controller = new AbortController();
  setLongTimeout(
    () => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
    ms,
    { unref: true },
  );
  return controller.signal;
}
