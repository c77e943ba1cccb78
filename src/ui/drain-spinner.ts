import ora, { type Ora } from 'ora';
import type { DrainEvent } from '../drain/events.js';
import { initialDrainProgress, reduceDrainEvents, type DrainProgress, type WaveHints } from './drain-progress.js';
import { drainStatusLine } from './drain-status.js';
import { renderDrainSummaryText, summarizeDrain } from './drain-summary.js';
import { colorsEnabled } from './theme.js';

export interface DrainSpinnerOptions {
  /** Where the spinner draws; stderr by default, so stdout stays clean for `-o json`. */
  readonly stream?: NodeJS.WriteStream;
  readonly hints?: WaveHints;
  readonly now?: () => number;
  /** Default: on unless NO_COLOR is set (ora's spinner colour goes through chalk, which ignores it). */
  readonly colors?: boolean;
}

export interface DrainSpinner {
  onEvent(event: DrainEvent): void;
  /** Stops the spinner, leaving the summary (when the drain finished) in its place. */
  stop(): void;
}

/**
 * A one-line ora spinner on stderr for `kubectl maint drain -o json | …` run from a terminal: stdout
 * carries the JSON events, stderr still tells the person watching what is going on. Does nothing when
 * the stream is not a terminal (or in CI, which ora detects), so logs get no spinner frames.
 */
export function startDrainSpinner(options: DrainSpinnerOptions = {}): DrainSpinner {
  const stream = options.stream ?? process.stderr;
  const now = options.now ?? Date.now;
  let progress: DrainProgress = initialDrainProgress();
  // discardStdin would put stdin in raw mode and take Ctrl-C away from the CLI's SIGINT handler.
  const spinner: Ora | null = stream.isTTY
    ? ora({
        stream,
        discardStdin: false,
        color: (options.colors ?? colorsEnabled()) ? 'cyan' : false,
        text: drainStatusLine(progress, now()),
      }).start()
    : null;
  const ticker = spinner ? setInterval(() => (spinner.text = drainStatusLine(progress, now())), 1000) : null;
  ticker?.unref();
  return {
    onEvent(event) {
      progress = reduceDrainEvents(progress, event, options.hints ? { hints: options.hints } : {});
      if (spinner) spinner.text = drainStatusLine(progress, now());
    },
    stop() {
      if (ticker) clearInterval(ticker);
      if (!spinner) return;
      const finished = progress.finished;
      if (!finished) {
        spinner.stop();
        return;
      }
      const text = renderDrainSummaryText(summarizeDrain(progress, finished));
      if (finished.result === 'drained' || finished.result === 'dry-run') spinner.succeed(text);
      else spinner.fail(text);
    },
  };
}
