import { describe, expect, it } from 'vitest';
import { leastSquaresSlope, theilSenSlope } from '../../../scripts/bench/stats.js';

/**
 * The fleet bench judges whether the run's memory grows from the RSS at each batch's end: a slope that one
 * batch's spike (memory the allocator keeps a while) turns into "growth" would fail a run that keeps nothing,
 * and one that a steady climb does not move would pass a leak.
 */
describe('growth per step', () => {
  it('both slopes read a steady climb as its step', () => {
    const climb = [500, 510, 520, 530, 540, 550];
    expect(theilSenSlope(climb)).toBeCloseTo(10);
    expect(leastSquaresSlope(climb)).toBeCloseTo(10);
  });

  it('Theil–Sen reads a flat series with a late spike as flat, least squares as growth', () => {
    const spiked = [521, 504, 468, 470, 470, 480, 492, 992, 722, 454];
    expect(Math.abs(theilSenSlope(spiked))).toBeLessThanOrEqual(1);
    expect(leastSquaresSlope(spiked)).toBeGreaterThan(20);
  });

  it('Theil–Sen still reads a climb under a spike as a climb', () => {
    const climb = Array.from({ length: 10 }, (_, i) => 400 + 8 * i);
    climb[7] = 1000;
    expect(theilSenSlope(climb)).toBeCloseTo(8);
  });

  it('Theil–Sen leaves out a step that was not measured', () => {
    expect(theilSenSlope([100, Number.NaN, 120, 130])).toBeCloseTo(10);
    expect(theilSenSlope([Number.NaN])).toBe(0);
  });
});
