import { describe, expect, it } from 'vitest';
import { OutputLines, SPLIT_MARKER } from '../../../src/run/output-lines.js';

const feed = (lines: OutputLines, ...chunks: string[]) => [
  ...chunks.flatMap((c) => lines.push(Buffer.from(c))),
  ...lines.end(),
];

describe("a command's output cut into lines", () => {
  it('splits on newlines across chunks, drops a CR before the newline, keeps a last line without one', () => {
    expect(feed(new OutputLines(), 'one\r\ntw', 'o\nthr', 'ee')).toEqual(['one', 'two', 'three']);
    expect(feed(new OutputLines(), 'a\n\nb\n')).toEqual(['a', '', 'b']);
  });

  it('splits a line longer than the bound into marked pieces, however it arrives', () => {
    const expected = [`abcd${SPLIT_MARKER}`, `efgh${SPLIT_MARKER}`, 'ij', 'k'];
    expect(feed(new OutputLines(4), 'abcdefghij\nk')).toEqual(expected);
    expect(feed(new OutputLines(4), 'ab', 'cde', 'fghij\n', 'k')).toEqual(expected);
    expect(feed(new OutputLines(4), 'abcd\n')).toEqual(['abcd']);
  });

  it('never cuts inside a UTF-8 character, even one split across chunks', () => {
    // "é" is two bytes, "€" three: a 5-byte bound falls inside the second "€".
    expect(feed(new OutputLines(5), 'é€€x\n')).toEqual([`é€${SPLIT_MARKER}`, '€x']);
    const euro = Buffer.from('€');
    const lines = new OutputLines(4);
    const out = [
      ...lines.push(Buffer.from('ab')),
      ...lines.push(euro.subarray(0, 1)),
      ...lines.push(Buffer.concat([euro.subarray(1), Buffer.from('\n')])),
      ...lines.end(),
    ];
    expect(out).toEqual([`ab${SPLIT_MARKER}`, '€']);
  });

  it('holds at most the bound whatever the line: 10 MB without a newline is 2560 lines of 4096 bytes', () => {
    const lines = new OutputLines();
    const chunk = Buffer.alloc(65536, 'x');
    let pieces = 0;
    for (let i = 0; i < 160; i++) {
      for (const line of lines.push(chunk)) {
        expect(Buffer.byteLength(line)).toBe(4096 + Buffer.byteLength(SPLIT_MARKER));
        pieces += 1;
      }
    }
    // The last piece is handed on at the end: nothing follows it, so it is not marked.
    expect(pieces).toBe(2559);
    expect(lines.end().map((line) => Buffer.byteLength(line))).toEqual([4096]);
  });
});
