/** framework.MaxNodeScore: every score plugin's normalized scores are 0…100. */
export const MAX_NODE_SCORE = 100;

/**
 * `helper.DefaultNormalizeScore(MaxNodeScore, reverse)`: each score scaled to the highest as 100 (integer
 * division), reversed when fewer is better. All zero: left at 0, or 100 each when reversed.
 */
export function defaultNormalizeScore(scores: number[], reverse: boolean): number[] {
  const max = Math.max(0, ...scores);
  if (max === 0) return scores.map(() => (reverse ? MAX_NODE_SCORE : 0));
  return scores.map((s) => {
    const scaled = Math.trunc((MAX_NODE_SCORE * s) / max);
    return reverse ? MAX_NODE_SCORE - scaled : scaled;
  });
}
