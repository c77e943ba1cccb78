/**
 * Word wrapping for the plan's text and screen. Lines break between words only: a pod name, a budget
 * name or a flag is never cut in two, unless it alone is wider than the whole line (then it is cut, as
 * the terminal would, rather than lost). Widths are the terminal's columns, not UTF-16 units: a CJK
 * character or an emoji takes two, a combining mark none (string-width, through widest-line).
 */
import widestLine from 'widest-line';
import wrapAnsi from 'wrap-ansi';

/** No wrapping at all: today's text for pipes and files. */
export const UNLIMITED_WIDTH = Number.POSITIVE_INFINITY;

/** The columns `text` (one line) takes on a terminal. */
export function displayWidth(text: string): number {
  return widestLine(text);
}

/**
 * `text` as lines no wider than `width`: the first line starts with `firstIndent`, the others with
 * `restIndent` (a hanging indent, so a bullet's continuation lines sit under its text).
 */
export function wrapText(text: string, width: number, firstIndent = '', restIndent = firstIndent): string[] {
  if (!Number.isFinite(width) || displayWidth(firstIndent) + displayWidth(text) <= width) {
    return [`${firstIndent}${text}`];
  }
  // wrap-ansi wraps every line to one width, and the hanging indent gives the first line another: the
  // first line is wrapped at its own width, the rest of the text at the indented lines' width.
  const firstRoom = Math.max(1, width - displayWidth(firstIndent));
  const restRoom = Math.max(1, width - displayWidth(restIndent));
  const words = text.trim();
  const first = wrapWords(words, firstRoom)[0] ?? '';
  const rest = words.slice(first.length).trimStart();
  return [`${firstIndent}${first}`, ...(rest === '' ? [] : wrapWords(rest, restRoom).map((l) => `${restIndent}${l}`))];
}

/** `text` as lines of at most `width` columns, broken between words; a word wider than a line is cut. */
function wrapWords(text: string, width: number): string[] {
  return wrapAnsi(text, width, { hard: true, trim: true }).split('\n');
}

/** A word cut into pieces of at most `width` columns, never inside a wide character. */
function cutToWidth(word: string, width: number): string[] {
  return wrapAnsi(word, width, { hard: true, trim: false, wordWrap: false }).split('\n');
}

/** `text` (one line) within `width` columns: cut, with an ellipsis in its last column, when wider. */
export function truncateToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 1) return '…'.slice(0, Math.max(0, width));
  return `${cutToWidth(text, width - 1)[0] ?? ''}…`;
}
