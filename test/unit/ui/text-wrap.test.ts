import { describe, expect, it } from 'vitest';
import { displayWidth, UNLIMITED_WIDTH, wrapText } from '../../../src/ui/text-wrap.js';

describe('wrapText', () => {
  it('breaks between words with a hanging indent, never inside a name', () => {
    const text = 'cannot evict demo/hello-7d4b9c8f6d-2xkqp: budget demo/hello will not free up';
    const lines = wrapText(text, 40, '  - ', '    ');
    expect(lines).toEqual([
      '  - cannot evict',
      '    demo/hello-7d4b9c8f6d-2xkqp: budget',
      '    demo/hello will not free up',
    ]);
  });

  it('leaves text that fits, or with no width, as it is', () => {
    expect(wrapText('a  b', 80)).toEqual(['a  b']);
    expect(wrapText('x '.repeat(100).trim(), UNLIMITED_WIDTH)).toHaveLength(1);
  });

  it('cuts a word only when it alone is wider than the line', () => {
    expect(wrapText('ab abcdefghij', 6)).toEqual(['ab', 'abcdef', 'ghij']);
  });
});

describe('wrapText with wide characters', () => {
  it('counts the columns a CJK character or an emoji takes, not its UTF-16 length', () => {
    expect(displayWidth('日本語')).toBe(6);
    expect(displayWidth('🚀 ok')).toBe(5);
    expect(displayWidth('é')).toBe(1);
    // Six columns of text in a line of 8: "日本語 ok" is 9 columns wide, so "ok" goes to the next line.
    expect(wrapText('日本語 ok', 8)).toEqual(['日本語', 'ok']);
    expect(wrapText('🚀🚀 go 🚀🚀', 6)).toEqual(['🚀🚀', 'go', '🚀🚀']);
  });

  it('cuts a wide word between characters, never inside one', () => {
    const lines = wrapText('日本語日本語', 5);
    expect(lines).toEqual(['日本', '語日', '本語']);
    expect(lines.every((l) => displayWidth(l) <= 5)).toBe(true);
  });
});
