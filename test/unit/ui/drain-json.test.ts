import { describe, expect, it } from 'vitest';
import { drainEventJsonLine } from '../../../src/ui/drain-json.js';
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
