import { once } from 'node:events';
import type { ClusterAudit } from '../plan/audit-types.js';
import type { PoolPlan } from '../plan/pool-types.js';
import type { DrainPlan } from '../plan/types.js';
import { safeLines } from '../safe-text.js';
import { canOpenFullScreen, terminalWidth } from './terminal.js';

/**
 * Where every command's results go, chosen by `-o` and the terminal: one document (plan, pool plan, demo,
 * version) or a stream of events (drain, run), and the lines a command says besides (notes, warnings,
 * errors, tables). Text for a person is made terminal-safe here (safe-text.ts), so no command prints the
 * cluster's words with their control sequences. The renderers are ui/'s, loaded only on the branch that
 * needs them (start-up: a plain `version` loads none).
 */

/** Text for a person on stdout (a result), without control sequences: it may carry the cluster's words. */
export function writeOut(text: string): void {
  process.stdout.write(safeLines(text));
}

/** Text for a person on stderr (a note, a warning, an error, a question's preface), without control sequences. */
export function writeErr(text: string): void {
  process.stderr.write(safeLines(text));
}

/**
 * A document in a format that escapes what it carries (-o json|yaml), on stdout as it is: the contract is
 * the value itself, nothing removed.
 */
export function writeDocument(text: string): void {
  process.stdout.write(text);
}

/** A document in pieces (one too long for one string), written as stdout takes them. */
async function writeDocumentPieces(pieces: Iterable<string> | AsyncIterable<string>): Promise<void> {
  for await (const piece of pieces) if (!process.stdout.write(piece)) await once(process.stdout, 'drain');
}

export type OutputFormat = 'text' | 'json' | 'yaml';

/** One line of an event stream's output, and the stream it goes to. */
export interface OutputLine {
  readonly stream: 'stdout' | 'stderr';
  readonly text: string;
}

/** How a document is shown without -o json|yaml. */
export interface DocumentViews {
  /** Text for a pipe, a file or `-o text`, wrapped to `width` when stdout is a terminal. */
  readonly text: (width: number | undefined) => Promise<string>;
  /** The full-screen view, for a person at a terminal without -o. */
  readonly screen?: (() => Promise<void>) | undefined;
}

/**
 * Results go to stdout. -o json|yaml: the value itself, one document (the contract: nothing added or
 * reordered). Without -o, on a terminal (stdin and stdout, outside CI), the full-screen view when there is
 * one (--no-tui: never). Otherwise the text, without control sequences (it carries the cluster's words).
 */
export async function showDocument(
  value: unknown,
  format: OutputFormat | undefined,
  views: DocumentViews,
  options: { readonly noTui?: boolean | undefined } = {},
): Promise<void> {
  if (format === 'json' || format === 'yaml') {
    const { jsonDocument, yamlInPieces } = await import('../ui/document.js');
    const document = format === 'json' ? jsonDocument(value) : yamlInPieces(value);
    return typeof document === 'string' ? writeDocument(document) : writeDocumentPieces(document);
  }
  if (format === undefined && !options.noTui && views.screen && canOpenFullScreen()) return views.screen();
  writeOut(await views.text(terminalWidth(process.stdout)));
}

/** A plan, a pool plan or an audit: its text, its full-screen view (which suggests `nextCommand`), or the document. */
export function showPlan(
  plan: DrainPlan | PoolPlan | ClusterAudit,
  format: OutputFormat | undefined,
  options: {
    readonly noTui?: boolean | undefined;
    /** What the plan suggests running next, on the full-screen view and in the text alike. */
    readonly nextCommand?: string | undefined;
    /** The full-screen view's line above the headline, and what q does there (the demo's examples). */
    readonly title?: string | undefined;
    readonly quitHint?: string | undefined;
  } = {},
): Promise<void> {
  return showDocument(
    plan,
    format,
    {
      text: async (width) => {
        if (plan.kind === 'ClusterAudit') {
          const { renderAuditText } = await import('../ui/audit-text.js');
          return renderAuditText(plan, { width });
        }
        if (plan.kind === 'PoolPlan') {
          const { renderPoolPlanText } = await import('../ui/pool-plan-text.js');
          return renderPoolPlanText(plan, { width });
        }
        const { renderPlanText } = await import('../ui/plan-text.js');
        return renderPlanText(plan, { width, nextCommand: options.nextCommand });
      },
      screen: async () => {
        const { renderPlanScreen } = await import('../ui/plan-view.js');
        return renderPlanScreen(plan, {
          nextCommand: options.nextCommand,
          title: options.title,
          quitHint: options.quitHint,
        });
      },
    },
    options,
  );
}

export interface EventSink<E> {
  readonly emit: (event: E) => void;
  readonly done: () => Promise<void>;
}

/** How an event stream is shown in each format. */
export interface EventViews<E> {
  /** -o json: what is said besides each event's JSON line (on stderr: a drain that did not finish says why). */
  readonly json?: (() => (event: E) => readonly OutputLine[]) | undefined;
  /** A terminal without -o: the live view. */
  readonly live: () => Promise<EventSink<E>>;
  /** Otherwise: lines for a log. */
  readonly lines: () => (event: E) => readonly OutputLine[];
}

/** -o json: one event per line (JSON Lines); a terminal without -o: the live view; otherwise lines for a log. */
export async function openEventSink<E>(
  format: 'text' | 'json' | undefined,
  views: EventViews<E>,
): Promise<EventSink<E>> {
  if (format === 'json') {
    const { jsonLine } = await import('../ui/json-lines.js');
    const also = views.json?.();
    return {
      emit: (event) => {
        writeDocument(jsonLine(event));
        for (const line of also?.(event) ?? []) write(line, line.text);
      },
      done: async () => {},
    };
  }
  if (format === undefined && process.stdout.isTTY) return views.live();
  const linesOf = views.lines();
  return {
    // Messages from the cluster (the scheduler's, the API's) reach the reader without control sequences.
    emit: (event) => {
      for (const line of linesOf(event)) write(line, line.text);
    },
    done: async () => {},
  };
}

function write(line: OutputLine, text: string): void {
  (line.stream === 'stdout' ? writeOut : writeErr)(`${text}\n`);
}
