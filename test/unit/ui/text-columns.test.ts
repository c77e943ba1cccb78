import { describe, expect, it } from 'vitest';
import { columnWidths, formatColumns } from '../../../src/ui/text-columns.js';

describe('formatColumns', () => {
  it('aligns columns three spaces apart, like kubectl, with no trailing spaces', () => {
    expect(
      formatColumns([
        ['NAME', 'ALLOWED', 'WAVES'],
        ['demo/hello', '1', '2 waves of 1'],
        ['x', '', ''],
      ]),
    ).toEqual(['NAME         ALLOWED   WAVES', 'demo/hello   1         2 waves of 1', 'x']);
  });
  it('indents every row', () => {
    expect(formatColumns([['a', 'b']], '  ')).toEqual(['  a   b']);
  });
  it('leaves the last column out of the widths, so a long reason does not widen the table', () => {
    expect(
      columnWidths([
        ['ab', 'a very long reason'],
        ['abcd', 'x'],
      ]),
    ).toEqual([4]);
  });
});
