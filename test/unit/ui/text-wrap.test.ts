import { describe, expect, it } from 'vitest';
import { UNLIMITED_WIDTH, wrapText } from '../../../src/ui/text-wrap.js';

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
