import { describe, expect, it } from 'vitest';
import { formatClock, formatSeconds, listNames, qualifiedPdb } from '../../../src/ui/format.js';
import { plural } from '../../../src/wording.js';

describe('formatSeconds', () => {
  it.each([
    { seconds: 0, text: '0s' },
    { seconds: 45.9, text: '45s' },
    { seconds: 60, text: '1m' },
    { seconds: 90, text: '1m30s' },
    { seconds: 300, text: '5m' },
    { seconds: 3720, text: '1h2m' },
    { seconds: 7200, text: '2h' },
    { seconds: -5, text: '0s' },
  ])('$seconds seconds read as $text, the way kubectl prints ages', ({ seconds, text }) => {
    expect(formatSeconds(seconds)).toBe(text);
  });
});

describe('formatClock', () => {
  it.each([
    { ms: 0, text: '0:00' },
    { ms: 42_000, text: '0:42' },
    { ms: 725_000, text: '12:05' },
    { ms: 3_723_000, text: '1:02:03' },
  ])('$ms ms shows as $text on the elapsed counter', ({ ms, text }) => {
    expect(formatClock(ms)).toBe(text);
  });
});

describe('listNames', () => {
  it('lists every name when there are few', () => {
    expect(listNames(['a', 'b', 'c'])).toBe('a, b, c');
  });
  it('cuts a long list and says how many more, so one line stays one line', () => {
    expect(listNames(['a', 'b', 'c', 'd', 'e'])).toBe('a, b, c and 2 more');
  });
});

describe('plural and qualifiedPdb', () => {
  it('counts in words', () => {
    expect([plural(1, 'pod'), plural(2, 'pod'), plural(0, 'wave')]).toEqual(['1 pod', '2 pods', '0 waves']);
  });
  it("qualifies a budget with its pod's namespace unless it already is", () => {
    expect(qualifiedPdb('demo', 'hello')).toBe('demo/hello');
    expect(qualifiedPdb('demo', 'other/hello')).toBe('other/hello');
  });
});
