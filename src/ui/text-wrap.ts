/**
 * Word wrapping for the plan's text and screen. Lines break between words only: a pod name, a budget
 * name or a flag is never cut in two, unless it alone is wider than the whole line (then it is cut, as
 * the terminal would, rather than lost).
 */

/** No wrapping at all: today's text for pipes and files. */
export const UNLIMITED_WIDTH = Number.POSITIVE_INFINITY;

/**
 * `text` as lines no wider than `width`: the first line starts with `firstIndent`, the others with
 * `restIndent` (a hanging indent, so a bullet's continuation lines sit under its text).
 */
export function wrapText(text: string, width: number, firstIndent = '', restIndent = firstIndent): string[] {
  if (!Number.isFinite(width) || firstIndent.length + text.length <= width) return [`${firstIndent}${text}`];
  const words = text.split(' ').filter((w) => w.length > 0);
  const lines: string[] = [];
  let line = firstIndent;
  let lineHasWord = false;
  const room = () => width - line.length;
  for (const word of words) {
    const needed = lineHasWord ? word.length + 1 : word.length;
    if (needed <= room()) {
      line += lineHasWord ? ` ${word}` : word;
      lineHasWord = true;
      continue;
    }
    if (lineHasWord) lines.push(line);
    line = lines.length === 0 && !lineHasWord ? firstIndent : restIndent;
    // A word wider than a whole line: cut it, each piece on its own line.
    let rest = word;
    while (rest.length > Math.max(1, room())) {
      const cut = Math.max(1, room());
      lines.push(`${line}${rest.slice(0, cut)}`);
      line = restIndent;
      rest = rest.slice(cut);
    }
    line += rest;
    lineHasWord = true;
  }
  lines.push(line);
  return lines;
}
