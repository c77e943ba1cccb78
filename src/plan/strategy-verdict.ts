import type { BudgetPlan, NoExecuteBudgetBreach, PodPlan } from './types.js';
import { decideVerdict, type VerdictWithReasons } from './verdict.js';

/**
 * The verdict once the chosen strategies are counted: a pod the budget would block for ever but
 * a strategy gets out (--escalate-after deletes it, --surge brings its replacement up first) makes the
 * drain slow, not blocked, and the reason names the strategy. Every other pod is judged as before.
 *
 * `unblocked` maps namespace/name of such pods to the line that explains how they leave.
 */
export function verdictWithStrategies(
  pods: readonly PodPlan[],
  budgets: readonly BudgetPlan[],
  brokenByDeletes: readonly NoExecuteBudgetBreach[],
  unblocked: ReadonlyMap<string, string>,
): VerdictWithReasons {
  const isUnblocked = (p: PodPlan) => p.outcome === 'blocked' && unblocked.has(`${p.namespace}/${p.name}`);
  const rescued = pods.filter(isUnblocked);
  if (rescued.length === 0) return decideVerdict(pods, budgets, brokenByDeletes);
  const rest = decideVerdict(
    pods.filter((p) => !isUnblocked(p)),
    budgets,
    brokenByDeletes,
  );
  const lines = [...new Set(rescued.map((p) => unblocked.get(`${p.namespace}/${p.name}`)!))];
  if (rest.verdict === 'blocked') return { verdict: 'blocked', reasons: [...rest.reasons, ...lines] };
  // A clear rest opens with "all N pod(s) can be evicted at once": no longer true of the whole drain.
  const reasons = rest.verdict === 'clear' ? [] : rest.reasons;
  return { verdict: 'slow', reasons: [...lines, ...reasons] };
}
