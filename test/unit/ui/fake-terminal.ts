import { EventEmitter } from 'node:events';
import { stripVTControlCharacters } from 'node:util';

/**
 * Streams for the render functions that own their Ink instance (renderPlanInk, startDrainInk), shaped like
 * ink-testing-library's: stdout collects what Ink writes, stdin feeds keys through 'readable'.
 */
export class FakeStdout extends EventEmitter {
  columns = 100;
  rows = 40;
  constructor(readonly isTTY = false) {
    super();
  }
  readonly writes: string[] = [];
  /** The terminal's size once resized: re-wrapped at once, taken into columns and rows on SIGWINCH. */
  private window: { columns: number; rows: number } | undefined;
  /** The terminal takes a new size; the process learns it when its SIGWINCH is handled (_refreshSize). */
  resizeTerminal(columns: number, rows: number): void {
    this.window = { columns, rows };
  }
  /** What Node's SIGWINCH listener calls: reads the terminal's size and emits 'resize' if it changed. */
  _refreshSize = (): void => {
    if (!this.window || (this.window.columns === this.columns && this.window.rows === this.rows)) return;
    ({ columns: this.columns, rows: this.rows } = this.window);
    this.emit('resize');
  };
  /** Calls the write callback, as a real stream does: Ink waits for it before it reports the unmount. */
  write = (chunk: string, encodingOrCallback?: unknown, callback?: unknown): boolean => {
    this.writes.push(chunk);
    const done = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
    if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
    return true;
  };
  // The tty.WriteStream cursor calls ora makes; the frames are only collected, so they do nothing.
  cursorTo(): boolean {
    return true;
  }
  moveCursor(): boolean {
    return true;
  }
  clearLine(): boolean {
    return true;
  }
  /** Everything written, with ANSI escape sequences removed. */
  text(): string {
    return stripVTControlCharacters(this.writes.join(''));
  }
  asStream(): NodeJS.WriteStream {
    return this as unknown as NodeJS.WriteStream;
  }
}

export class FakeStdin extends EventEmitter {
  private pending: string | null = null;
  rawMode = false;
  /** Every setRawMode call, in order. */
  readonly rawModeCalls: boolean[] = [];
  constructor(readonly isTTY = true) {
    super();
  }
  press(data: string): void {
    this.pending = data;
    this.emit('readable');
    this.emit('data', data);
  }
  read = (): string | null => {
    const data = this.pending;
    this.pending = null;
    return data;
  };
  setRawMode = (on: boolean): void => {
    this.rawModeCalls.push(on);
    this.rawMode = on;
  };
  setEncoding(): void {}
  resume(): void {}
  pause(): void {}
  ref(): void {}
  unref(): void {}
  asStream(): NodeJS.ReadStream {
    return this as unknown as NodeJS.ReadStream;
  }
}
