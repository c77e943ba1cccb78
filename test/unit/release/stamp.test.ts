import { describe, expect, it } from 'vitest';
import { buildDate, checkReleaseVersion } from '../../../scripts/release/stamp.js';

describe('checkReleaseVersion', () => {
  it.each([
    ['v0.1.0', '0.1.0'],
    ['v1.20.3', '1.20.3'],
    ['v2.0.0-rc.1', '2.0.0-rc.1'],
  ])('accepts %s for package.json %s: semver with a leading v, as krew wants', (version, pkg) => {
    expect(() => checkReleaseVersion(version, pkg)).not.toThrow();
  });

  it.each([
    ['0.1.0', '0.1.0', /leading v/],
    ['v0.1', '0.1.0', /semantic version/],
    ['v01.1.0', '1.1.0', /semantic version/],
    ['v0.1.0+build', '0.1.0', /semantic version/],
    ['v0.2.0', '0.1.0', /does not match package.json \(0.1.0\)/],
  ])('refuses %s for package.json %s', (version, pkg, message) => {
    expect(() => checkReleaseVersion(version, pkg)).toThrow(message);
  });
});

describe('buildDate', () => {
  const now = new Date('2026-11-29T19:45:12.345Z');

  it('is now, in UTC to the second, when SOURCE_DATE_EPOCH is not set', () => {
    expect(buildDate(undefined, now)).toBe('2026-11-29T19:45:12Z');
  });

  it('is SOURCE_DATE_EPOCH when set, so a rebuild of the same commit is stamped alike', () => {
    expect(buildDate('1767225600', now)).toBe('2026-01-01T00:00:00Z');
  });

  it('refuses a SOURCE_DATE_EPOCH that is not a number', () => {
    expect(() => buildDate('yesterday', now)).toThrow(/SOURCE_DATE_EPOCH=yesterday/);
  });
});
