import type { DrainPlan, PodPlan } from '../plan/types.js';
import { listNames, qualified } from './format.js';
import { rescuedBy } from './plan-sections.js';

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

/**
 * `nextCommand` is what to run next, as the CLI built it: the drain when the plan says it can finish,
 * else the same plan again with `advisedFlags` added.
 */
export function planAdvice(plan: DrainPlan, nextCommand?: string): string[] {
  const unschedulable = plan.pods.filter((p) => p.replacement !== null && !p.replacement.schedulable);
  const advice = [
    ...unreadAdvice(plan),
    ...refusalAdvice(plan.pods.filter((p) => p.action === 'refuse')),
    ...blockedAdvice(
      plan,
      budgetBlocked(plan).filter((p) => !waitsOnRoom(p, unschedulable)),
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

/**
 * The flags the advice tells the operator to add, to plan again with: the flag kubectl names for a
 * refused pod, and --surge for the Deployments it would get out. The plan then shows what each costs.
 * (--escalate-after needs a duration only the operator can choose: it is advised, not added.)
 */
export function advisedFlags(plan: DrainPlan): string[] {
  const refusal = plan.pods.flatMap((p) => (p.action === 'refuse' && p.override ? [p.override] : []));
  const surge = plan.waysOut?.surge ?? [];
  return [...new Set(refusal), ...(surge.length > 0 ? [`--surge=${surge.join(',')}`] : [])];
}

/**
 * Pods whose own budget keeps them: blocked, not refused, not taken out by a strategy already chosen
 * (--surge, --escalate-after), not on a node kubectl refuses to drain (their node's refusal holds them, and
 * its flag is the fix), and not behind an earlier eviction-order group that cannot finish (that group's
 * block is the fix).
 */
function budgetBlocked(plan: DrainPlan): PodPlan[] {
  const refusedNodes = new Set(plan.pods.filter((p) => p.action === 'refuse').map((p) => p.node));
  const blocked = plan.pods.filter((p) => p.outcome === 'blocked' && p.action !== 'refuse' && rescuedBy(p) === null);
  const firstStuckGroup = Math.min(...blocked.map((p) => p.orderGroup ?? 1));
  return blocked.filter((p) => !refusedNodes.has(p.node) && (p.orderGroup ?? 1) === firstStuckGroup);
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

/**
 * The flags that let a drain the plan calls blocked finish, from the plan's structure: kubectl's override
 * for each refused pod, --surge for the Deployments it gets out, --escalate-* for the namespaces whose pods
 * a budget holds for good. `enough` is whether they take out everything that holds the drain (nothing
 * unread, no pod kubectl refuses for good, no replacement without room, no budget-held pod left over).
 */
export interface WayOut {
  /** The flags to add; `DURATION` stands for --escalate-after's, which only the operator can choose. */
  readonly flags: readonly string[];
  readonly enough: boolean;
}

export function wayOut(plan: DrainPlan): WayOut {
  const unschedulable = plan.pods.filter((p) => p.replacement !== null && !p.replacement.schedulable);
  const blocked = budgetBlocked(plan).filter((p) => !waitsOnRoom(p, unschedulable));
  const surged = new Set(plan.waysOut?.surge ?? []);
  const rest = blocked.filter((p) => !(p.controller?.kind === 'Deployment' && surged.has(deploymentOf(p))));
  const namespaces = [...new Set(rest.map((p) => p.namespace))];
  const escalate = namespaces.filter(escalatable(plan));
  const refused = plan.pods.filter((p) => p.action === 'refuse');
  return {
    flags: [
      ...advisedFlags(plan),
      ...(escalate.length > 0 ? [`--escalate-after DURATION --escalate-namespace ${escalate.join(',')}`] : []),
    ],
    enough:
      plan.unread.length === 0 &&
      unschedulable.length === 0 &&
      refused.every((p) => p.override !== undefined) &&
      rest.every((p) => escalate.includes(p.namespace) && p.pdbs.length > 0),
  };
}

/**
 * The way out of a blocked plan in one clause, for the drain's question, its warning and its summary, and
 * a blocked run's refusal: the flags that finish it, or that none does. What to change instead is "What to
 * do" when the plan was printed above (`shown`), else its first line.
 */
export function wayOutText(plan: DrainPlan, shown = true): string | null {
  if (plan.verdict !== 'blocked') return null;
  const { flags, enough } = wayOut(plan);
  const first = planAdvice(plan)[0];
  const instead = shown || !first ? ' (see "What to do")' : `: ${first}`;
  if (flags.length > 0 && enough) return `it finishes with ${flags.join(' ')}`;
  if (flags.length > 0)
    return `${flags.join(' ')} ${flags.length === 1 ? 'helps' : 'help'}, but no flag alone lets it finish${instead}`;
  return `no flag lets it finish${instead}`;
}

/** kubectl names the flag that lets a refused pod go: "(use --force to override)". */
function refusalAdvice(refused: readonly PodPlan[]): string[] {
  const byFlag = new Map<string, string[]>();
  const unresolvable: string[] = [];
  for (const pod of refused) {
    const flag = pod.override;
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

/**
 * Budget-blocked pods: --surge where it gets their Deployment out (extra Ready replicas first, nothing
 * broken), --escalate-after where their namespace may be escalated (deleted past the budget), else relax
 * the budget or scale up.
 */
function blockedAdvice(plan: DrainPlan, blocked: readonly PodPlan[]): string[] {
  if (blocked.length === 0) return [];
  const surged = new Set(plan.waysOut?.surge ?? []);
  const bySurge = blocked.filter((p) => p.controller?.kind === 'Deployment' && surged.has(deploymentOf(p)));
  const rest = blocked.filter((p) => !bySurge.includes(p));
  const escalate = listNames([...new Set(rest.map((p) => p.namespace))].filter(escalatable(plan)));
  const lines: string[] = [];
  if (bySurge.length > 0) {
    const deployments = [...new Set(bySurge.map(deploymentOf))];
    lines.push(
      `${listNames(bySurge.map(qualified))}: add --surge=${deployments.join(',')} (an extra Ready replica first, ` +
        'then the eviction its budget allows: nothing is broken)',
    );
  }
  if (rest.length === 0) return lines;
  const budgets = [...new Set(rest.flatMap((p) => p.pdbs.map(qualified)))];
  const held = listNames(rest.map(qualified));
  if (budgets.length === 0) return [...lines, `${held}: fix what keeps the eviction from being admitted (see above)`];
  const orEscalate = escalate
    ? `, or add --escalate-after DURATION --escalate-namespace ${escalate} to delete them past the budget after that long`
    : '';
  lines.push(
    `${held}: relax ${budgets.length === 1 ? 'budget' : 'budgets'} ${listNames(budgets)} or scale the workload up ` +
      `so a disruption is allowed${orEscalate} (--disable-eviction would bypass every budget: unsafe)`,
  );
  return lines;
}

const deploymentOf = (p: PodPlan) => `${p.namespace}/${p.controller?.name ?? ''}`;
const escalatable = (plan: DrainPlan) => (namespace: string) => (plan.waysOut?.escalate ?? []).includes(namespace);

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
