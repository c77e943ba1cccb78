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
  const words = text.split(' ').filter((w) => w.length > 0);
  const lines: string[] = [];
  let line = firstIndent;
  let lineHasWord = false;
  const room = () => width - displayWidth(line);
  for (const word of words) {
    const wordWidth = displayWidth(word);
    const needed = lineHasWord ? wordWidth + 1 : wordWidth;
    if (needed <= room()) {
      line += lineHasWord ? ` ${word}` : word;
      lineHasWord = true;
      continue;
    }
    if (lineHasWord) lines.push(line);
    line = lines.length === 0 && !lineHasWord ? firstIndent : restIndent;
    // A word wider than a whole line: cut it, each piece on its own line.
    const pieces = wordWidth > Math.max(1, room()) ? cutToWidth(word, Math.max(1, room())) : [word];
    for (const piece of pieces.slice(0, -1)) {
      lines.push(`${line}${piece}`);
      line = restIndent;
    }
    line += pieces.at(-1) ?? '';
    lineHasWord = true;
  }
  lines.push(line);
  return lines;
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
