import type { PodRef } from './events.js';
import type { DrainTarget } from './targets.js';

/** One eviction-order group of the drain: the plan's 1-based number and its pods, in the drain's order. */
export interface EvictionGroup<T> {
  readonly index: number;
  readonly entries: readonly T[];
}

/**
 * The drain's pods cut by the plan's eviction-order group (a target without one is in group 1), lowest
 * number first, each group's pods in the order given. One group is kubectl's way: every pod at once.
 */
export function evictionGroups<T extends { readonly target: DrainTarget }>(entries: Iterable<T>): EvictionGroup<T>[] {
  return [...Map.groupBy(entries, (entry) => entry.target.group ?? 1)]
    .sort(([a], [b]) => a - b)
    .map(([index, grouped]) => ({ index, entries: grouped }));
}

/**
 * Once a group is done, whether the later groups may start: a pod of it that failed holds them back (the
 * order was asked for because they must not go before it). Null when they may start (or none is left);
 * else the warning that says why they do not. `position` is the group's 1-based place among `of`.
 */
export function groupHoldsBack(position: number, of: number, failed: readonly PodRef[]): string | null {
  if (failed.length === 0 || position >= of) return null;
  const names = failed.map((ref) => `${ref.namespace}/${ref.name}`).join(', ');
  return `drain-order group ${position} did not finish (${names} failed): the later groups are not started`;
}
