import { Help, type Command } from 'commander';

/** Indent of a description printed under its flag, as kubectl's help does. */
const UNDER_INDENT = 6;
/** Narrower than this, a description column beside the flags is unreadable. */
const MIN_DESCRIPTION_COLUMN = 40;

/**
 * Help wrapped to the terminal (80 columns off a terminal). commander puts each description in a column
 * beside the longest flag and gives up wrapping when that column is narrower than 40: with flags as long
 * as `--skip-wait-for-delete-timeout <seconds>` that is every terminal under 86 columns, and the terminal
 * then breaks words at its edge. Then each description goes under its flag instead, wrapped.
 */
export function useTerminalWideHelp(program: Command): void {
  program.configureHelp({
    formatItem(this: Help, term: string, termWidth: number, description: string, helper: Help): string {
      const width = this.helpWidth ?? 80;
      if (!description || width - termWidth - 4 >= MIN_DESCRIPTION_COLUMN) {
        return Help.prototype.formatItem.call(this, term, termWidth, description, helper);
      }
      const wrapped = wrap(description, Math.max(20, width - UNDER_INDENT));
      return `  ${term}\n${wrapped.map((line) => `${' '.repeat(UNDER_INDENT)}${line}`).join('\n')}`;
    },
  });
}

/** Greedy word wrap; a word longer than the width stays whole on its own line. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line && line.length + 1 + word.length > width) {
        lines.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    lines.push(line);
  }
  return lines;
}
