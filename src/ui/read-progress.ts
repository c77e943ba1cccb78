import ora, { type Ora } from 'ora';
import type { ListProgress } from '../snapshot/load-live.js';
import type { FileProgress } from '../snapshot/load-file.js';
import { safeText } from '../safe-text.js';
import { colorsEnabled } from './theme.js';
import { truncateToWidth } from './text-wrap.js';

/**
 * The spinner on stderr while `plan` reads the cluster or a large snapshot: what is being read and how
 * far ("pods 12,400 / 15,000"). The readers only report progress through callbacks; this module turns
 * the reports into one line. Nothing is drawn unless stderr is a terminal outside CI (ora's own rule),
 * so logs, pipes and `-o json` never see a frame.
 */

/** Smaller snapshot files load in a blink: no spinner for them. */
export const LARGE_SNAPSHOT_BYTES = 16 * 1024 * 1024;
/** In-progress kinds named on the line; the rest are only counted. */
const SHOWN_KINDS = 3;

const count = (n: number) => n.toLocaleString('en-US');

/** "pods 12,400 / 15,000 · replicasets 1,000 · nodes 500 (3 of 10 kinds read)". */
export function listProgressText(progress: ReadonlyMap<string, ListProgress>): string {
  const all = [...progress.values()];
  const reading = all
    .filter((p) => !p.done)
    .sort((a, b) => b.read - a.read)
    .slice(0, SHOWN_KINDS)
    .map(
      (p) =>
        `${p.resource} ${count(p.read)}${p.total !== null && p.total > p.read ? ` / ${count(p.total)}` : ''}` +
        (p.retry === undefined
          ? ''
          : ` (${p.retry.reason}${p.retry.seconds > 0 ? `: again in ${p.retry.seconds}s` : ''})`),
    );
  const done = all.filter((p) => p.done).length;
  const head = reading.length > 0 ? `Reading the cluster: ${reading.join(' · ')}` : 'Reading the cluster';
  return all.length > 0 ? `${head} (${done} of ${all.length} kinds read)` : head;
}

/**
 * "Reading snapshot big.json: 120 MB / 1.6 GB", then "Parsing snapshot big.json (1.6 GB)". The file's name
 * is shown without control sequences: ora draws the line as it is given.
 */
export function fileProgressText(p: FileProgress): string {
  const name = safeText(p.path.split('/').at(-1) ?? p.path);
  return p.phase === 'parsing'
    ? `Parsing snapshot ${name} (${formatBytes(p.totalBytes)})`
    : `Reading snapshot ${name}: ${formatBytes(p.bytesRead)} / ${formatBytes(p.totalBytes)}`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} kB`;
  if (bytes < 1024 * 1024 * 1024) return `${Math.round(bytes / (1024 * 1024))} MB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(1)} GB`;
}

export interface ReadProgressReporter {
  readonly onList: (progress: ListProgress) => void;
  readonly onFile: (progress: FileProgress) => void;
  /** A step after reading ("Planning k8s-node-1"): shown only when the spinner is already up. */
  readonly step: (text: string) => void;
  /** Clears the spinner's line; call before anything else is written to the terminal. */
  readonly stop: () => void;
}

export interface ReadProgressOptions {
  readonly stream?: NodeJS.WriteStream;
  readonly colors?: boolean;
  /** Draw even where ora would not (tests); by default ora decides: a terminal, outside CI. */
  readonly enabled?: boolean;
}

export function startReadProgress(options: ReadProgressOptions = {}): ReadProgressReporter {
  const stream = options.stream ?? process.stderr;
  const lists = new Map<string, ListProgress>();
  let spinner: Ora | null = null;
  let disabled = false;
  const show = (text: string) => {
    if (disabled) return;
    const width = stream.columns ?? 80;
    // The spinner and a space take the first columns.
    const fitted = truncateToWidth(text, width - 3);
    if (spinner) {
      spinner.text = fitted;
      // Draw now: the step that follows (parsing, planning) may hold the event loop, and with it the timer.
      spinner.render();
      return;
    }
    // discardStdin would put stdin in raw mode and take Ctrl-C away from the CLI's SIGINT handler.
    spinner = ora({
      stream,
      discardStdin: false,
      color: (options.colors ?? colorsEnabled()) ? 'cyan' : false,
      text: fitted,
      // Without it ora decides (a terminal, outside CI): a test that asks for drawing must get it under CI too.
      ...(options.enabled !== undefined ? { isEnabled: options.enabled } : {}),
    });
    // ora draws nothing when the stream is not a terminal or in CI; then there is nothing to keep.
    if (spinner.isEnabled) spinner.start();
    else {
      spinner = null;
      disabled = true;
    }
  };
  return {
    onList(progress) {
      lists.set(progress.kind, progress);
      show(listProgressText(lists));
    },
    onFile(progress) {
      if (progress.totalBytes >= LARGE_SNAPSHOT_BYTES) show(fileProgressText(progress));
    },
    step(text) {
      if (spinner) show(text);
    },
    stop() {
      spinner?.stop();
      spinner = null;
    },
  };
}
