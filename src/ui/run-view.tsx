import { render } from 'ink';
import type { RunEvent } from '../run/events.js';
import { ColorContext } from './color-context.js';
import { ColumnsContext } from './columns-context.js';
import { RunView } from './components/RunView.js';
import { initialRunProgress, reduceRunEvents } from './run-live-state.js';
import { liveFrame, liveView, type LiveFrame, type LiveView } from './live-view.js';
import { colorsEnabled } from './theme.js';

/** done() draws the final frame: the summary. */
export type RunInk = LiveView<RunEvent>;

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
  const stdout = options.stdout ?? process.stdout;
  const app = (frame: LiveFrame) => (
    <ColorContext.Provider value={colors}>
      <ColumnsContext.Provider value={frame.columns}>
        <RunView
          progress={progress}
          nowMs={now()}
          log={frame.log}
          {...(frame.rows === undefined ? {} : { rows: frame.rows })}
        />
      </ColumnsContext.Provider>
    </ColorContext.Provider>
  );
  const instance = render(app(liveFrame(stdout)), {
    stdout,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  return liveView<RunEvent>(
    stdout,
    instance,
    app,
    (event) => {
      progress = reduceRunEvents(progress, event);
    },
    options.tickMs,
  );
}
