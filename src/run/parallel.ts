/** Requests a run sends at once for a pool's nodes: enough to hide the round trips, few enough for a big pool. */
export const NODE_REQUESTS_IN_FLIGHT = 16;

/**
 * `fn` over every item, at most `limit` at a time, results in the items' order. The run's per-node
 * requests (claims, phase writes, reads) are independent of each other: sent one after the other they
 * cost a round trip per node on every step of every batch.
 */
export async function mapLimited<T, R>(
  items: readonly T[],
  fn: (item: T, index: number) => Promise<R>,
  limit = NODE_REQUESTS_IN_FLIGHT,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
