import type { PodPlan } from './types.js';

/**
 * Bounded escalation (`--escalate-after DURATION --escalate-namespace NS…`): a pod in one of those
 * namespaces whose eviction its budget still refuses after DURATION is deleted instead, its grace period
 * honoured. It breaks that budget, so only the namespaces the operator named are ever escalated (kured#303).
 * Only budget refusals escalate: a pod kubectl's filters refuse, or one the API cannot evict for another
 * reason (two budgets: 500), is not a refusal that waiting could end.
 */
export interface EscalationOptions {
  readonly afterSeconds: number;
  readonly namespaces: readonly string[];
}

export interface EscalationPlan {
  /** Seconds of refusals after which the pod is deleted. */
  readonly afterSeconds: number;
  /** 'certain' for a pod the budget never lets go; 'if-late' for one the estimate admits later than that. */
  readonly when: 'certain' | 'if-late';
  readonly text: string;
}

/**
 * The pods the drain would escalate, by namespace/name: evicted pods of the named namespaces under exactly
 * one budget that the plan has waiting longer than the bound (by the estimate) or never admitted for
 * their budget. `heldByOthers` are blocked pods whose wait is not their budget's (a refused node, an
 * earlier order group).
 */
export function escalations(
  pods: readonly PodPlan[],
  options: EscalationOptions | undefined,
  heldByOthers: ReadonlySet<string>,
): Map<string, EscalationPlan> {
  const result = new Map<string, EscalationPlan>();
  if (!options || options.namespaces.length === 0) return result;
  const namespaces = new Set(options.namespaces);
  for (const pod of pods) {
    const key = `${pod.namespace}/${pod.name}`;
    if (pod.action !== 'evict' || !namespaces.has(pod.namespace) || pod.pdbs.length !== 1) continue;
    if (heldByOthers.has(key)) continue;
    const budget = `${pod.pdbs[0]!.namespace}/${pod.pdbs[0]!.name}`;
    const after = formatBound(options.afterSeconds);
    if (pod.outcome === 'blocked') {
      result.set(key, {
        afterSeconds: options.afterSeconds,
        when: 'certain',
        text: `deleted after ${after} of refusals by budget ${budget} (--escalate-namespace ${pod.namespace}): the budget is broken`,
      });
    } else if (pod.outcome === 'waits' && (pod.eta?.evictedAfterSeconds ?? 0) > options.afterSeconds) {
      result.set(key, {
        afterSeconds: options.afterSeconds,
        when: 'if-late',
        text: `deleted if budget ${budget} still refuses it after ${after} (the estimate admits it after ${Math.round(pod.eta!.evictedAfterSeconds)}s)`,
      });
    }
  }
  return result;
}

function formatBound(seconds: number): string {
  return seconds % 60 === 0 && seconds > 0 ? `${seconds / 60}m` : `${seconds}s`;
}
