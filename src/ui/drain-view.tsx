import { render, useInput, useStdin } from 'ink';
import type { DrainEvent } from '../drain/events.js';
import { ColorContext } from './color-context.js';
import { ColumnsContext } from './columns-context.js';
import { DrainView } from './components/DrainView.js';
import { initialDrainProgress, reduceDrainEvents, type DrainProgress, type WaveHints } from './drain-live-state.js';
import { liveFrame, liveView, type LiveFrame, type LiveView } from './live-view.js';
import { colorsEnabled } from './theme.js';

export interface DrainAppProps {
  progress: DrainProgress;
  nowMs: number;
  colors: boolean;
  maxRows?: number;
  /** The terminal's height, which the live area stays below. */
  rows?: number;
  /** Print finished lines above the live area (default); false: the live area alone. */
  log?: boolean;
  /** Called on Ctrl-C. The view never exits the process: the CLI stops the engine, which then finishes. */
  onInterrupt?: (() => void) | undefined;
}

/**
 * The drain view plus Ctrl-C. Listening to keys puts stdin in raw mode, where the terminal no longer
 * turns Ctrl-C into SIGINT; so keys are read only when someone handles the interrupt and raw mode
 * exists. Otherwise SIGINT reaches the process as usual.
 */
export function DrainApp({ progress, nowMs, colors, maxRows, rows, log, onInterrupt }: DrainAppProps) {
  const { isRawModeSupported } = useStdin();
  useInput(
    (input, key) => {
      if (key.ctrl && input === 'c') onInterrupt?.();
    },
    { isActive: Boolean(onInterrupt) && isRawModeSupported },
  );
  return (
    <ColorContext.Provider value={colors}>
      <DrainView
        progress={progress}
        nowMs={nowMs}
        {...(maxRows === undefined ? {} : { maxRows })}
        {...(rows === undefined ? {} : { rows })}
        {...(log === undefined ? {} : { log })}
      />
    </ColorContext.Provider>
  );
}

export interface DrainInkOptions {
  readonly stdout?: NodeJS.WriteStream;
  readonly stdin?: NodeJS.ReadStream;
  readonly colors?: boolean;
  readonly onInterrupt?: () => void;
  /** From waveHintsFromPlan(plan), for a better waves-left estimate. */
  readonly hints?: WaveHints;
  /** The clock for elapsed and "since" times; Date.now by default. */
  readonly now?: () => number;
  /** How often the elapsed time and countdowns refresh between events. */
  readonly tickMs?: number;
  readonly maxRows?: number;
  /** Ink's own choice by default: redraw in place on a terminal, final frame only elsewhere or in CI. */
  readonly interactive?: boolean;
}

/** done() draws the final frame: the summary, once `finished` was seen. */
export interface DrainInk extends LiveView<DrainEvent> {
  /** The progress so far, e.g. for the exit code or a summary elsewhere. */
  progress(): DrainProgress;
}

/**
 * Starts the live drain view. Feed it every engine event through `onEvent`, then await `done()`.
 * Rendered with exitOnCtrlC off: Ctrl-C goes to `onInterrupt`, never to process.exit.
 */
export function startDrainInk(options: DrainInkOptions = {}): DrainInk {
  const now = options.now ?? Date.now;
  const colors = options.colors ?? colorsEnabled();
  let progress = initialDrainProgress();
  const stdout = options.stdout ?? process.stdout;
  const app = (frame: LiveFrame) => (
    <ColumnsContext.Provider value={frame.columns}>
      <DrainApp
        progress={progress}
        nowMs={now()}
        colors={colors}
        onInterrupt={options.onInterrupt}
        log={frame.log}
        {...(options.maxRows === undefined ? {} : { maxRows: options.maxRows })}
        {...(frame.rows === undefined ? {} : { rows: frame.rows })}
      />
    </ColumnsContext.Provider>
  );
  const instance = render(app(liveFrame(stdout)), {
    stdout,
    stdin: options.stdin ?? process.stdin,
    exitOnCtrlC: false,
    patchConsole: false,
    ...(options.interactive === undefined ? {} : { interactive: options.interactive }),
  });
  const view = liveView<DrainEvent>(
    stdout,
    instance,
    app,
    (event) => {
      progress = reduceDrainEvents(progress, event, options.hints ? { hints: options.hints } : {});
    },
    options.tickMs,
  );
  return {
    ...view,
    progress: () => progress,
  };
}
