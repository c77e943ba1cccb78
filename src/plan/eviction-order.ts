import type { V1Pod } from '@kubernetes/client-node';
import {
  placeBlockedReplacements,
  scheduleEvictions,
  type BudgetWaves,
  type EvictionCandidate,
  type EvictionSchedule,
  type ReplacementPlacer,
  type ScheduledEviction,
  type ScheduleOptions,
} from './budget-waves.js';
import { podKey } from './pod-facts.js';

/**
 * The order in which pods leave, as Cluster API's MachineDrainRules order them: pods are cut into groups
 * by a number, lower first, and each group is gone before the next starts. The number is the pod's
 * `maint.kubectl.io/drain-order` annotation (pods without one count as 0, Cluster API's default), or its
 * priority under `--order priority` (lowest first: cluster-autoscaler's drain-priority-config and
 * Karpenter's critical-last tiers). Without either, one group: kubectl's all at once.
 */
export const DRAIN_ORDER_ANNOTATION = 'maint.kubectl.io/drain-order';

/** What the groups are keyed by: the annotation, the pods' priority, or nothing (one group). */
export type OrderBy = 'annotation' | 'priority' | 'none';

export interface OrderGroup {
  /** 1-based position: group 1 leaves first. */
  readonly index: number;
  /** The annotation's number or the priority shared by the group's pods. */
  readonly key: number;
  /** namespace/name of its pods, in plan order. */
  readonly pods: readonly string[];
}

export interface EvictionOrder {
  readonly by: OrderBy;
  readonly groups: readonly OrderGroup[];
  /** Annotations that are not whole numbers (counted as 0), in words, for the caveats. */
  readonly problems: readonly string[];
}

/**
 * Groups the pods the drain removes (evicted or deleted, in plan order). `byPriority` is `--order
 * priority`. Pods missing a key count as 0 (an unset priority is 0 too, as the admission plugin defaults it).
 */
export function evictionOrder(pods: readonly V1Pod[], byPriority: boolean): EvictionOrder {
  const annotated = pods.some((p) => p.metadata?.annotations?.[DRAIN_ORDER_ANNOTATION] !== undefined);
  const by: OrderBy = byPriority ? 'priority' : annotated ? 'annotation' : 'none';
  const problems: string[] = [];
  const keyOf = (pod: V1Pod): number => {
    if (by === 'priority') return pod.spec?.priority ?? 0;
    if (by === 'none') return 0;
    const text = pod.metadata?.annotations?.[DRAIN_ORDER_ANNOTATION];
    if (text === undefined) return 0;
    if (/^-?\d+$/.test(text.trim())) return Number(text);
    problems.push(`pod ${podKey(pod)}: ${DRAIN_ORDER_ANNOTATION} "${text}" is not a whole number; taken as 0`);
    return 0;
  };
  const byKey = Map.groupBy(pods, keyOf);
  const keys = [...byKey.keys()].sort((a, b) => a - b);
  const groups = keys.map((key, i) => ({ index: i + 1, key, pods: byKey.get(key)!.map(podKey) }));
  return { by, groups, problems };
}

/** The 1-based group of each pod (namespace/name). */
export function groupOfPod(order: EvictionOrder): Map<string, number> {
  return new Map(order.groups.flatMap((g) => g.pods.map((pod) => [pod, g.index] as const)));
}

/**
 * Plays the evictions out group after group: each group's rounds start once the previous group is gone,
 * so its waves follow the previous group's (wave numbers run on across groups) and the scheduling
 * simulation carries the earlier groups' replacements. Each group starts from the budgets' numbers as the
 * snapshot shows them: by then the earlier groups' replacements are taken as Ready again. One group is
 * exactly `scheduleEvictions`.
 *
 * `leaving` (namespace/name) are pods a strategy gets out although their budget blocks them (--surge
 * brings an extra replica up first, --escalate-after deletes them): they stay blocked as far as their
 * budget goes, but a group whose blocked pods all leave that way finishes, their replacements placed
 * (`whenUnblocked`) before the next group starts, as the drain does.
 */
export function scheduleInGroups(
  candidates: readonly EvictionCandidate[],
  order: EvictionOrder,
  placer: ReplacementPlacer,
  options: ScheduleOptions,
  leaving: ReadonlySet<string> = new Set(),
): EvictionSchedule {
  if (order.groups.length <= 1) return scheduleEvictions(candidates, placer, options);
  const byKey = new Map(candidates.map((c) => [c.key, c]));
  const pods = new Map<string, ScheduledEviction>();
  const budgets = new Map<string, BudgetWaves>();
  let wavesBefore = 0;
  let stuck: OrderGroup | null = null;
  for (const group of order.groups) {
    const members = group.pods.flatMap((key) => (byKey.has(key) ? [byKey.get(key)!] : []));
    if (stuck) {
      const reason = `waits for drain-order group ${stuck.index} (${order.by} ${stuck.key}), which cannot finish`;
      for (const c of members)
        pods.set(c.key, { outcome: 'blocked', wave: null, reason, replacement: null, heldBy: 'order-group' });
      continue;
    }
    const schedule = scheduleEvictions(members, placer, options);
    let lastWave = 0;
    for (const [key, scheduled] of schedule.pods) {
      const wave = scheduled.wave === null ? null : scheduled.wave + wavesBefore;
      lastWave = Math.max(lastWave, scheduled.wave ?? 0);
      pods.set(key, { ...scheduled, wave });
    }
    for (const [key, waves] of schedule.budgets) {
      const before = budgets.get(key);
      // Waves some group leaves in doubt leave the budget's waves in doubt (BudgetWaves.unknown).
      const unknown = before?.unknown ?? waves.unknown;
      budgets.set(key, {
        perWave: Math.max(before?.perWave ?? 0, waves.perWave),
        waves: (before?.waves ?? 0) + waves.waves,
        ...(unknown !== undefined ? { unknown } : {}),
      });
    }
    wavesBefore += lastWave;
    const blocked = members.filter((c) => schedule.pods.get(c.key)?.outcome === 'blocked');
    if (blocked.some((c) => !leaving.has(c.key))) stuck = group;
    else if (group !== order.groups.at(-1)) leaveByStrategy(blocked, pods, placer);
  }
  return { pods, budgets };
}

/**
 * Pods a strategy gets out of a group that is not the last: evicted and their replacements placed before
 * the next group starts (the last group's are placed with every other blocked pod's, by the plan).
 */
function leaveByStrategy(
  blocked: readonly EvictionCandidate[],
  pods: Map<string, ScheduledEviction>,
  placer: ReplacementPlacer,
): void {
  for (const [key, replacement] of placeBlockedReplacements(blocked, placer)) {
    pods.set(key, { ...pods.get(key)!, replacement });
  }
}
