import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeLines, safeText } from '../../src/safe-text.js';

describe('text from outside, made safe to show', () => {
  it.each([
    ['a window title (OSC 0, BEL)', 'a\u001b]0;pwned title\u0007b', 'ab'],
    ['a clipboard write (OSC 52, ST)', 'a\u001b]52;c;aGV+sb/G8=\u001b\\b', 'ab'],
    ['a screen clear and cursor moves (CSI)', '\u001b[2J\u001b[Hab\u001b[1;31mc\u001b[0m', 'abc'],
    ['a hyperlink (OSC 8), its text kept', '\u001b]8;;https://x.example\u001b\\link\u001b]8;;\u001b\\', 'link'],
    ['a DCS string', 'a\u001bPq#0;2;0;0;0\u001b\\b', 'ab'],
    ['C1 forms (CSI and OSC as one byte)', 'a\u009b2Jb\u009d0;t\u0007c', 'abc'],
    ['a carriage return, a backspace, a bell, DEL', 'a\rb\bc\u0007d\u007f', 'abcd'],
    ['a lone escape', 'a\u001bb', 'ab'],
  ])('strips %s', (_what, input, expected) => {
    expect(safeText(input)).toBe(expected);
  });

  it('keeps tabs and any printable text, UTF-8 included', () => {
    expect(safeText('E: dpkg\twas interrupted — réessayez ✓')).toBe('E: dpkg\twas interrupted — réessayez ✓');
  });

  it('never leaves an escape or control character, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        // eslint-disable-next-line no-control-regex -- what must not be left
        expect(safeText(text)).not.toMatch(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/);
      }),
    );
  });

  it('keeps the newlines of a text of several lines', () => {
    expect(safeLines('plan\u001b]0;x\u0007\n  reason\u001b[2J\n')).toBe('plan\n  reason\n');
  });
});
