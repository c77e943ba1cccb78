import { describe, expect, it } from 'vitest';
import { ContentMemo } from '../../../../src/plan/scheduling/content-memo.js';

describe('ContentMemo: work keyed by a namespace and the content of a value', () => {
  it('computes once for equal content, even from different objects, and apart per namespace', () => {
    const memo = new ContentMemo<string>();
    let computed = 0;
    const work = (labels: Record<string, string>) => () => `${++computed}:${JSON.stringify(labels)}`;
    const first = memo.get('web', { app: 'web' }, work({ app: 'web' }));
    expect(memo.get('web', { app: 'web' }, work({ app: 'web' }))).toBe(first);
    expect(computed).toBe(1);
    expect(memo.get('db', { app: 'web' }, work({ app: 'web' }))).not.toBe(first);
    expect(memo.get('web', { app: 'api' }, work({ app: 'api' }))).toBe('3:{"app":"api"}');
    expect(computed).toBe(3);
  });

  it('keeps a computed null or undefined rather than computing it again', () => {
    const memo = new ContentMemo<string | null | undefined>();
    let computed = 0;
    for (let i = 0; i < 3; i++) memo.get('ns', { a: '1' }, () => (computed++, null));
    for (let i = 0; i < 3; i++) memo.get('ns', { a: '2' }, () => (computed++, undefined));
    expect(computed).toBe(2);
  });
});
