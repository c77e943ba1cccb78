import { describe, expect, it } from 'vitest';
import { comparableVersions, olderVersion } from '../../../src/kube/resource-version.js';

describe('resourceVersions ordered as Kubernetes 1.35 allows clients to (KEP-5504)', () => {
  it('orders decimal integers by length, then digit by digit, past what a double holds', () => {
    expect(olderVersion('99', '100')).toBe(true);
    expect(olderVersion('100', '99')).toBe(false);
    expect(olderVersion('123', '124')).toBe(true);
    expect(olderVersion('124', '124')).toBe(false);
    expect(olderVersion('18446744073709551615', '18446744073709551616')).toBe(true);
  });

  it('does not order what is not of that form: neither is older', () => {
    for (const [a, b] of [
      ['', '5'],
      ['007', '8'],
      ['abc', '5'],
      ['5', undefined],
      ['-1', '5'],
    ] as const) {
      expect(comparableVersions(a, b)).toBe(false);
      expect(olderVersion(a, b)).toBe(false);
      expect(olderVersion(b, a)).toBe(false);
    }
  });
});
