import { render } from 'ink';
import type { RunEvent } from '../run/events.js';
import { ColorContext } from './color-context.js';
import { RunView } from './components/RunView.js';
import { initialRunProgress, reduceRunEvents } from './run-progress.js';
import { colorsEnabled } from './theme.js';

export interface RunInk {
  onEvent(event: RunEvent): void;
  /** Draws the final frame (the summary), leaves it on screen and unmounts. */
  done(): Promise<void>;
}

/**
 * Starts the live pool view. Keys are not read: Ctrl-C reaches the process as SIGINT, which the run
 * turns into an orderly stop (every node left in a recorded phase).
 */
export function startRunInk(
  options: { stdout?: NodeJS.WriteStream; now?: () => number; tickMs?: number } = {},
): RunInk {
  const now = options.now ?? Date.now;
  const colors = colorsEnabled();
  let progress = initialRunProgress();
  const app = () => (
    <ColorContext.Provider value={colors}>
      <RunView progress={progress} nowMs={now()} />
    </ColorContext.Provider>
  );
  const instance = render(app(), {
    stdout: options.stdout ?? process.stdout,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  const ticker = setInterval(() => instance.rerender(app()), options.tickMs ?? 1000);
  ticker.unref();
  return {
    onEvent(event) {
      progress = reduceRunEvents(progress, event);
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
