import type { Instance } from 'ink';
import type { ReactElement } from 'react';

/** A live Ink view fed by events: what the drain and run views share. */
export interface LiveView<E> {
  onEvent(event: E): void;
  /** Draws the final frame, leaves it on screen and unmounts. */
  done(): Promise<void>;
}

/**
 * Redraws `app()` on every event (after `reduce` took it in) and every `tickMs` between events, so
 * elapsed times and countdowns move while nothing happens. The ticker is unref'd: the view never keeps
 * the process alive.
 */
export function liveView<E>(
  instance: Instance,
  app: () => ReactElement,
  reduce: (event: E) => void,
  tickMs = 1000,
): LiveView<E> {
  const ticker = setInterval(() => instance.rerender(app()), tickMs);
  ticker.unref();
  return {
    onEvent(event) {
      reduce(event);
      instance.rerender(app());
    },
    async done() {
      clearInterval(ticker);
      instance.rerender(app());
      instance.unmount();
      await instance.waitUntilExit();
    },
  };
}
