/** Summaries the drain and live-read benchmarks share. */

/** The lower median: with an even count, the lower of the two middle values (a time that was measured). */
export const median = (xs: readonly number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

/** A ratio with two decimals, three below 0.1 (kubectl drain --dry-run=client is a hundredth of a full read). */
export const ratio = (x: number): string => x.toFixed(x < 0.1 ? 3 : 2);

/** The least-squares slope of ys over their positions 0, 1, 2…: the mean growth per step. */
export function leastSquaresSlope(ys: readonly number[]): number {
  const n = ys.length;
  if (n < 2) return 0;
  const meanX = (n - 1) / 2;
  const meanY = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  ys.forEach((y, x) => {
    num += (x - meanX) * (y - meanY);
    den += (x - meanX) ** 2;
  });
  return num / den;
}

/**
 * The Theil–Sen slope of ys over their positions: the median of the slopes between every two of them (the
 * mean of the two middle ones with an even count). A step or two far off the rest (the RSS a batch left
 * before the allocator handed it back) moves it little, where it moves a least-squares slope a lot: it
 * tells growth from a spike.
 */
export function theilSenSlope(ys: readonly number[]): number {
  const slopes: number[] = [];
  for (let i = 0; i < ys.length; i++) {
    for (let j = i + 1; j < ys.length; j++) {
      const slope = (ys[j]! - ys[i]!) / (j - i);
      if (Number.isFinite(slope)) slopes.push(slope);
    }
  }
  if (slopes.length === 0) return 0;
  slopes.sort((a, b) => a - b);
  const mid = slopes.length / 2;
  return Number.isInteger(mid) ? (slopes[mid - 1]! + slopes[mid]!) / 2 : slopes[Math.floor(mid)]!;
}
