import type { V1PodDisruptionBudget } from '@kubernetes/client-node';
import { backoffDelayMs } from '../drain/backoff.js';
import { budgetOfKey, type BudgetKey } from '../plan/budgets.js';
import { budgetChange } from './changes.js';
import { POLL, type StepBase } from './step-context.js';

/** A budget not yet back: its disruptionsAllowed before the batch and now. */
export interface ShortBudget {
  readonly name: string;
  readonly before: number;
  readonly now: number;
}

/**
 * The budgets (read now, null when gone) still short of their disruptionsAllowed from before the
 * batch, or whose status the disruption controller has not yet brought up to their spec. A budget gone
 * is not waited for.
 */
export function budgetsShort(
  before: ReadonlyMap<BudgetKey, number>,
  read: ReadonlyMap<BudgetKey, V1PodDisruptionBudget | null>,
): ShortBudget[] {
  const short: ShortBudget[] = [];
  for (const [name, allowed] of before) {
    const pdb = read.get(name);
    const now = pdb?.status?.disruptionsAllowed ?? allowed;
    const current = (pdb?.status?.observedGeneration ?? 0) >= (pdb?.metadata?.generation ?? 0);
    if (pdb && (now < allowed || !current)) short.push({ name, before: allowed, now });
  }
  return short;
}

/**
 * Until every budget the batch drained is back to its disruptionsAllowed from before the batch, so the
 * next drain does not stall; false (and a warning) when --budget-timeout passes first, or the run stops.
 * `waiting` is called once, when the first read finds a budget short: from then on the batch waits on the
 * cluster.
 */
export async function waitForBudgets(
  s: Pick<StepBase, 'definition' | 'deps' | 'waits' | 'emit'>,
  batch: number,
  before: ReadonlyMap<BudgetKey, number>,
  waiting: () => void = () => {},
): Promise<boolean> {
  if (before.size === 0) return true;
  const { clock } = s.deps;
  const deadline = clock.now() + s.definition.options.budgetTimeoutMs;
  let reported = '';
  for (let reads = 0; ; reads += 1) {
    const read = new Map<BudgetKey, V1PodDisruptionBudget | null>();
    for (const name of before.keys()) {
      const { namespace, name: pdbName } = budgetOfKey(name);
      read.set(name, await s.waits.read(`budget ${name}`, () => s.deps.api.readPdb(namespace, pdbName)));
    }
    const short = budgetsShort(before, read);
    if (short.length === 0) return true;
    if (reads === 0) waiting();
    const text = JSON.stringify(short);
    if (text !== reported) s.emit({ type: 'budgets-waiting', batch, budgets: short });
    reported = text;
    if (clock.now() >= deadline) {
      const names = short.map((b) => `${b.name} (${b.now} of ${b.before} allowed)`).join(', ');
      s.emit({ type: 'warning', message: `batch ${batch}: budgets not back after the batch: ${names}` });
      return false;
    }
    if (!(await s.waits.changeOrTimeout(backoffDelayMs(POLL, reads), budgetChange(before)))) return false;
  }
}
