import { describe, expect, it } from 'vitest';
import { columnWidths, fitColumns, formatColumns } from '../../../src/ui/text-columns.js';

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
  it('pads by terminal columns, so a wide character takes two', () => {
    expect(
      formatColumns([
        ['名前', 'OK'],
        ['web', 'OK'],
      ]),
    ).toEqual(['名前   OK', 'web    OK']);
  });
});

describe('fitColumns', () => {
  const rows = [
    ['NAME', 'NOTE', 'CMD'],
    ['a-long-name', 'a long note', 'a long command'],
  ];
  it('cuts the shrinkable columns in the order given, down to their header, until the rows fit', () => {
    // 11 + 11 + 14 + 2 gaps of 3 = 42 columns.
    expect(fitColumns(rows, 42, [2, 1])).toEqual(rows);
    expect(fitColumns(rows, 35, [2, 1])).toEqual([rows[0], ['a-long-name', 'a long note', 'a long…']]);
    expect(formatColumns(fitColumns(rows, 30, [2, 1]))).toEqual([
      'NAME          NOTE         CMD',
      'a-long-name   a long no…   a …',
    ]);
  });
  it('a column named twice keeps the width given at its first step until the later columns are cut', () => {
    // CMD keeps 8 columns while NOTE gives up what it can, then goes down to its header.
    expect(fitColumns(rows, 30, [[2, 8], 1, 2])).toEqual([rows[0], ['a-long-name', 'a lo…', 'a long …']]);
    expect(fitColumns(rows, 26, [[2, 8], 1, 2])).toEqual([rows[0], ['a-long-name', 'a l…', 'a lo…']]);
    // A column narrower than the width it keeps stays whole.
    expect(fitColumns(rows, 38, [[2, 20], 1])).toEqual([rows[0], ['a-long-name', 'a long…', 'a long command']]);
  });
  it('never cuts the other columns, nor a column below its header', () => {
    expect(fitColumns(rows, 10, [2, 1])).toEqual([rows[0], ['a-long-name', 'a l…', 'a …']]);
  });
  it('counts the columns a wide character takes', () => {
    expect(
      fitColumns(
        [
          ['N', 'CMD'],
          ['x', '再起動する'],
        ],
        9,
        [1],
      ),
    ).toEqual([
      ['N', 'CMD'],
      ['x', '再起…'],
    ]);
  });
});
