import { describe, expect, it } from 'vitest';
import { colorsEnabled, toneColor } from '../../../src/ui/theme.js';

describe('colorsEnabled', () => {
  it.each([
    { env: {}, enabled: true, name: 'colours are on when NO_COLOR is absent' },
    { env: { NO_COLOR: '' }, enabled: true, name: 'an empty NO_COLOR does not count (no-color.org)' },
    { env: { NO_COLOR: '1' }, enabled: false, name: 'NO_COLOR=1 turns colours off' },
    { env: { NO_COLOR: 'yes', FORCE_COLOR: '1' }, enabled: false, name: 'NO_COLOR wins over FORCE_COLOR' },
  ])('$name', ({ env, enabled }) => {
    expect(colorsEnabled(env)).toBe(enabled);
  });
});

describe('toneColor', () => {
  it('maps meanings to colours: green ok, yellow warn, red bad', () => {
    expect([toneColor('ok', true), toneColor('warn', true), toneColor('bad', true)]).toEqual([
      'green',
      'yellow',
      'red',
    ]);
  });
  it('gives no colour at all when colours are off', () => {
    expect(['ok', 'warn', 'bad', 'accent', 'muted'].map((t) => toneColor(t as never, false))).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
  it('leaves muted text uncoloured (it is dimmed instead)', () => {
    expect(toneColor('muted', true)).toBeUndefined();
  });
});
