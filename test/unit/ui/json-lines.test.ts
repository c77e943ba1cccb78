import { describe, expect, it } from 'vitest';
import { jsonLine as drainEventJsonLine } from '../../../src/ui/json-lines.js';
import { helloDrain } from './drain-fixture.js';

describe('drainEventJsonLine', () => {
  it('writes one JSON object per line that reads back as the same event', () => {
    const text = helloDrain().map(drainEventJsonLine).join('');
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(helloDrain().length);
    expect(lines.map((l) => JSON.parse(l))).toEqual(helloDrain());
  });
  it('keeps the type first so `jq select(.type=="pod")` reads naturally', () => {
    expect(drainEventJsonLine(helloDrain()[0]!).startsWith('{"type":"started"')).toBe(true);
  });
});
