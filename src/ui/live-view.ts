import { renderToString, type Instance } from 'ink';
import type { ReactElement } from 'react';
import { displayWidth } from './text-wrap.js';

/** A live Ink view fed by events: what the drain and run views share. */
export interface LiveView<E> {
  onEvent(event: E): void;
  /** Draws the final frame, leaves it on screen and unmounts. */
  done(): Promise<void>;
}

/** How a view is drawn: the live area's height limit, and whether finished lines go above it. */
export interface LiveFrame {
  /** Lines the live area may take: one less than the terminal's rows; none off a terminal. */
  readonly rows: number | undefined;
  /** The width to lay rows out to (ColumnsContext); undefined: Ink's stdout's. */
  readonly columns?: number | undefined;
  /** Print finished lines above the live area (<Static>); false: the live area alone. */
  readonly log: boolean;
}

/**
 * Redraws `app()` on every event (after `reduce` took it in) and every `tickMs` between events, so
 * elapsed times and countdowns move while nothing happens. The ticker is unref'd: the view never keeps
 * the process alive. The live area is kept below the terminal's height, and a terminal made narrower
 * gets no half frame (eraseReflowedFrame), whichever comes first, its SIGWINCH or a draw (takeWindowSize).
 */
export function liveView<E>(
  stdout: NodeJS.WriteStream,
  instance: Instance,
  app: (frame: LiveFrame) => ReactElement,
  reduce: (event: E) => void,
  tickMs = 1000,
): LiveView<E> {
  const draw = () => {
    takeWindowSize(stdout);
    instance.rerender(app(liveFrame(stdout)));
  };
  const ticker = setInterval(draw, tickMs);
  ticker.unref();
  let columns = stdout.columns;
  let rows = liveFrame(stdout).rows;
  // Before Ink's own resize handler (which erases the lines it drew, counted at the old width)…
  const beforeInk = () => {
    if (stdout.isTTY && stdout.columns < columns) {
      const frame = renderToString(app({ rows, columns, log: false }), { columns });
      stdout.write(eraseReflowedFrame(frame, stdout.columns));
    }
    columns = stdout.columns;
  };
  // …and after it: the live area laid out again for the new height.
  const afterInk = () => {
    rows = liveFrame(stdout).rows;
    draw();
  };
  stdout.prependListener('resize', beforeInk);
  stdout.on('resize', afterInk);
  return {
    onEvent(event) {
      // Before the event changes the frame: a resize erases the frame that is on the screen.
      takeWindowSize(stdout);
      reduce(event);
      draw();
    },
    async done() {
      clearInterval(ticker);
      stdout.off('resize', beforeInk);
      stdout.off('resize', afterInk);
      draw();
      instance.unmount();
      await instance.waitUntilExit();
    },
  };
}

/**
 * Reads the terminal's size now and, if it changed, does at once what Node does on SIGWINCH: sets
 * `columns` and `rows` and emits 'resize' (tty.WriteStream's _refreshSize, which Node's SIGWINCH
 * listener calls; a stream without it is left as it is). A terminal re-wraps its rows the moment it is
 * made narrower, while the signal waits its turn in the event loop behind a tick or an event that is
 * already due, as it often is on a loaded machine: a frame drawn then would be laid out for the old width
 * and erased by the old count, leaving the top of the last frame on the screen.
 */
export function takeWindowSize(stdout: NodeJS.WriteStream): void {
  if (stdout.isTTY) (stdout as { _refreshSize?: () => void })._refreshSize?.();
}

/** The frame for a stream now: its rows less one (a frame as tall as the screen cannot be redrawn in place). */
export function liveFrame(stdout: NodeJS.WriteStream): LiveFrame {
  return { rows: stdout.isTTY && stdout.rows > 0 ? Math.max(1, stdout.rows - 1) : undefined, log: true };
}

const ERASE_LINE = '\u001b[2K';
const CURSOR_UP = '\u001b[1A';
const CURSOR_LEFT = '\u001b[G';

/**
 * What to write when the terminal just became narrower, before Ink erases its last frame: the terminal
 * has re-wrapped each of the frame's lines wider than the new width onto several rows, while Ink erases
 * only as many rows as the frame had lines, which would leave the frame's top half on screen with words
 * cut where the terminal re-wrapped them. So the re-wrapped rows are erased here, up to the frame's first
 * row, and as many blank rows are written back as Ink then erases: the cursor ends where the frame
 * began, and nothing above the frame (the lines printed once, the shell's history) is touched.
 */
export function eraseReflowedFrame(frame: string, newColumns: number): string {
  const lines = frame.split('\n');
  const reflowed = lines.reduce((n, line) => n + Math.max(1, Math.ceil(displayWidth(line) / newColumns)), 0);
  // Ink's frame ends with a newline: the cursor is on the row under it, which is erased too.
  const erase = Array.from({ length: reflowed + 1 }, (_, i) => ERASE_LINE + (i < reflowed ? CURSOR_UP : '')).join('');
  return `${erase}${CURSOR_LEFT}${'\n'.repeat(lines.length)}`;
}
