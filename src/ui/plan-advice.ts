import type { DrainPlan, PodPlan } from '../plan/types.js';
import { listNames, qualified } from './format.js';

/**
 * What the operator can do about each thing that holds the drain back, read from the plan's structure
 * (not from its wording): the flag kubectl asks for, the budget to relax, the room a replacement needs,
 * the time a slow drain takes. The screen shows these under the verdict's reasons.
 */

/** What accepting each of kubectl's override flags costs, said next to the flag. */
const FLAG_COSTS: Readonly<Record<string, string>> = {
  '--force': 'if losing those pods for good is acceptable (nothing recreates them)',
  '--ignore-daemonsets': 'to leave DaemonSet pods on the node (their controller keeps them there)',
  '--delete-emptydir-data': 'if losing their emptyDir data is acceptable',
};

export function planAdvice(plan: DrainPlan, nextCommand?: string): string[] {
  const unschedulable = plan.pods.filter((p) => p.replacement !== null && !p.replacement.schedulable);
  const advice = [
    ...unreadAdvice(plan),
    ...refusalAdvice(plan.pods.filter((p) => p.action === 'refuse')),
    ...blockedAdvice(
      plan.pods.filter((p) => p.outcome === 'blocked' && p.action !== 'refuse' && !waitsOnRoom(p, unschedulable)),
    ),
    ...roomAdvice(unschedulable),
    ...slowAdvice(plan),
  ];
  if (nextCommand) {
    const goAhead = plan.verdict === 'clear' || plan.verdict === 'slow';
    advice.push(goAhead ? `drain: ${nextCommand}` : `then plan again: ${nextCommand}`);
  }
  return advice;
}

/** A plan that could not read a kind: read it, or knowingly gate on what was read. */
function unreadAdvice(plan: DrainPlan): string[] {
  if (plan.unread.length === 0) return [];
  const kinds = listNames(plan.unread.map((u) => `${u.kind}s`));
  const where = plan.unread.some((u) => u.why.startsWith('snapshot'))
    ? 'add them to the snapshot'
    : 'get list permission on them';
  return [`read ${kinds} too (${where}), or pass --allow-incomplete to gate on what was read`];
}

/** kubectl names the flag that lets a refused pod go: "(use --force to override)". */
function refusalAdvice(refused: readonly PodPlan[]): string[] {
  const byFlag = new Map<string, string[]>();
  const unresolvable: string[] = [];
  for (const pod of refused) {
    const flag = /\(use (--[a-z-]+)/.exec(pod.reason)?.[1];
    if (flag) byFlag.set(flag, [...(byFlag.get(flag) ?? []), qualified(pod)]);
    else unresolvable.push(qualified(pod));
  }
  const lines = [...byFlag].map(
    ([flag, pods]) => `${listNames(pods)}: add ${flag} ${FLAG_COSTS[flag] ?? 'if that is acceptable'}`,
  );
  if (unresolvable.length > 0) lines.push(`${listNames(unresolvable)}: kubectl refuses them; no flag overrides it`);
  return lines;
}

/**
 * A pod whose budget also guards a pod with no room for its replacement: the budget frees up once that
 * replacement runs, so making room is the fix, not relaxing the budget.
 */
function waitsOnRoom(pod: PodPlan, unschedulable: readonly PodPlan[]): boolean {
  const budgets = new Set(pod.pdbs.map(qualified));
  return unschedulable.some((other) => other.pdbs.some((b) => budgets.has(qualified(b))));
}

function blockedAdvice(blocked: readonly PodPlan[]): string[] {
  if (blocked.length === 0) return [];
  const budgets = [...new Set(blocked.flatMap((p) => p.pdbs.map(qualified)))];
  const held = listNames(blocked.map(qualified));
  if (budgets.length === 0) return [`${held}: fix what keeps the eviction from being admitted (see above)`];
  return [
    `${held}: relax ${budgets.length === 1 ? 'budget' : 'budgets'} ${listNames(budgets)} or scale the workload up ` +
      'so a disruption is allowed (--disable-eviction would bypass the budget: unsafe)',
  ];
}

function roomAdvice(unschedulable: readonly PodPlan[]): string[] {
  if (unschedulable.length === 0) return [];
  return [
    `${listNames(unschedulable.map(qualified))}: make room for the replacement (free capacity, add or uncordon ` +
      'a node, or relax the constraint the scheduler names); the pods its budget holds back then follow',
  ];
}

function slowAdvice(plan: DrainPlan): string[] {
  if (plan.verdict !== 'slow') return [];
  const waves = Math.max(0, ...plan.budgets.filter((b) => b.neverAllows === null).map((b) => b.waves));
  return [
    `nothing to fix: the drain finishes by itself${waves > 1 ? ` in ${waves} waves` : ''}, each waiting for ` +
      'replacements to become Ready (--timeout bounds the whole drain)',
  ];
}
