/** Summaries the drain and live-read benchmarks share. */

/** The lower median: with an even count, the lower of the two middle values (a time that was measured). */
export const median = (xs: readonly number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

/** A ratio with two decimals, three below 0.1 (kubectl drain --dry-run=client is a hundredth of a full read). */
export const ratio = (x: number): string => x.toFixed(x < 0.1 ? 3 : 2);
