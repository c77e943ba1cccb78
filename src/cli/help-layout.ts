import { Help, type Command } from 'commander';

/** Indent of a description printed under its flag, as kubectl's help does. */
const UNDER_INDENT = 6;
/** Narrower than this, a description column beside the flags is unreadable. */
const MIN_DESCRIPTION_COLUMN = 40;
/** The narrowest a description under its flag is wrapped to. */
const MIN_UNDER_WIDTH = 20;

/**
 * Help wrapped to the terminal (80 columns off a terminal). commander puts each description in a column
 * beside the longest flag and gives up wrapping when that column is narrower than 40: with flags as long
 * as `--skip-wait-for-delete-timeout <seconds>` that is every terminal under 86 columns, and the terminal
 * then breaks words at its edge. Then each description goes under its flag instead, wrapped by commander's
 * own `boxWrap` (help loads commander alone: no second wrapping library at start-up).
 */
export function useTerminalWideHelp(program: Command): void {
  program.configureHelp({
    // boxWrap leaves text narrower than this unwrapped; a description under its flag wraps down to 20.
    minWidthToWrap: MIN_UNDER_WIDTH,
    formatItem(this: Help, term: string, termWidth: number, description: string, helper: Help): string {
      const width = this.helpWidth ?? 80;
      if (!description || width - termWidth - 4 >= MIN_DESCRIPTION_COLUMN) {
        return Help.prototype.formatItem.call(this, term, termWidth, description, helper);
      }
      const wrapped = helper.boxWrap(description, Math.max(MIN_UNDER_WIDTH, width - UNDER_INDENT)).split('\n');
      return `  ${term}\n${wrapped.map((line) => `${' '.repeat(UNDER_INDENT)}${line}`).join('\n')}`;
    },
  });
}
