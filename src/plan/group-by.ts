/** Groups values by key, keeping first-seen key order and value order (one pass, no copying). */
export function groupBy<T, K>(values: Iterable<T>, keyOf: (value: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const value of values) {
    const key = keyOf(value);
    const list = groups.get(key);
    if (list) list.push(value);
    else groups.set(key, [value]);
  }
  return groups;
}
