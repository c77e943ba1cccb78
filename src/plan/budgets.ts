import type { V1Pod, V1PodDisruptionBudget } from '@kubernetes/client-node';
import { isPodReady } from './pod-facts.js';
import type { NoExecuteBudgetBreach } from './types.js';
import { plural } from '../wording.js';

/** The API server's answer (HTTP 500) when more than one budget selects the pod being evicted. */
export const MULTIPLE_BUDGETS_MESSAGE =
  'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.';

export type UnhealthyPodEvictionPolicy = 'IfHealthyBudget' | 'AlwaysAllow';

/** A budget's key, `namespace/name`: what the drain's and the run's maps and the budget watch go by. */
export type BudgetKey = `${string}/${string}`;

export const budgetKey = (namespace: string, name: string): BudgetKey => `${namespace}/${name}`;

/** The namespace and name of a key (a namespace holds no slash: the first one splits it). */
export function budgetOfKey(key: BudgetKey): { readonly namespace: string; readonly name: string } {
  const slash = key.indexOf('/');
  return { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

/** What the eviction API reads from one PodDisruptionBudget, plus what the plan derives from it. */
export interface BudgetFacts {
  readonly namespace: string;
  readonly name: string;
  readonly key: BudgetKey;
  readonly disruptionsAllowed: number;
  readonly currentHealthy: number;
  readonly desiredHealthy: number;
  readonly expectedPods: number;
  readonly generation: number;
  readonly observedGeneration: number;
  /** observedGeneration behind generation: the API answers 429 "still being processed" until it catches up. */
  readonly stale: boolean;
  /** The DisruptionAllowed=False/SyncFailed condition's message: the controller cannot compute the budget. */
  readonly syncFailed: string | null;
  readonly unhealthyPodEvictionPolicy: UnhealthyPodEvictionPolicy;
  /** Why no eviction can ever be admitted (maxUnavailable 0, minAvailable 100 %…), or null. */
  readonly neverAllows: string | null;
}

/**
 * The message of the disruption controller's failSafe (condition DisruptionAllowed=False, reason SyncFailed):
 * it could not compute the budget, which then allows no eviction. Null when the budget was computed.
 */
export function syncFailedMessage(pdb: V1PodDisruptionBudget): string | null {
  const failed = pdb.status?.conditions?.find((c) => c.type === 'DisruptionAllowed' && c.reason === 'SyncFailed');
  return failed ? failed.message || 'SyncFailed' : null;
}

export function budgetFacts(pdb: V1PodDisruptionBudget): BudgetFacts {
  const namespace = pdb.metadata?.namespace ?? 'default';
  const name = pdb.metadata?.name ?? '';
  const status = pdb.status;
  const generation = pdb.metadata?.generation ?? 0;
  const observedGeneration = status?.observedGeneration ?? 0;
  return {
    namespace,
    name,
    key: budgetKey(namespace, name),
    disruptionsAllowed: status?.disruptionsAllowed ?? 0,
    currentHealthy: status?.currentHealthy ?? 0,
    desiredHealthy: status?.desiredHealthy ?? 0,
    expectedPods: status?.expectedPods ?? 0,
    generation,
    observedGeneration,
    stale: status === undefined || observedGeneration < generation,
    syncFailed: syncFailedMessage(pdb),
    unhealthyPodEvictionPolicy:
      pdb.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow' ? 'AlwaysAllow' : 'IfHealthyBudget',
    neverAllows: neverAllows(pdb),
  };
}

/**
 * Budgets that admit no eviction of a healthy pod however long one waits, from the disruption
 * controller's arithmetic (getExpectedPodCount): maxUnavailable 0 (int or "0%"), or a minAvailable that
 * reaches every expected pod, with percentages rounded up as the controller rounds them.
 */
export function neverAllows(pdb: V1PodDisruptionBudget): string | null {
  const spec = pdb.spec ?? {};
  const expected = pdb.status?.expectedPods ?? 0;
  if (spec.maxUnavailable !== undefined) {
    if (scaledValue(spec.maxUnavailable, expected) === undefined) return invalid('maxUnavailable', spec.maxUnavailable);
    return spec.maxUnavailable === 0 || spec.maxUnavailable === '0%'
      ? `maxUnavailable is ${spec.maxUnavailable}`
      : null;
  }
  if (spec.minAvailable === undefined) return null;
  const min = scaledValue(spec.minAvailable, expected);
  if (min === undefined) return invalid('minAvailable', spec.minAvailable);
  if (expected <= 0 || min < expected) return null;
  if (spec.minAvailable === '100%') return 'minAvailable is 100%';
  if (typeof spec.minAvailable === 'string') {
    return `minAvailable ${spec.minAvailable} of ${expected} expected pods rounds up to ${min}: every pod must stay healthy`;
  }
  return `minAvailable ${min} >= ${plural(expected, 'expected pod')}: every pod must stay healthy`;
}

function invalid(field: string, value: string | number): string {
  return `${field} "${value}" is not an int or a percentage: the disruption controller cannot compute the budget`;
}

/**
 * intstr.GetScaledValueFromIntOrPercent with roundUp: an int as is, "p%" as ceil(p × total / 100).
 * The disruption controller rounds both maxUnavailable and minAvailable percentages up. A string
 * without "%" is invalid (undefined), as the controller's sync fails on it.
 */
export function scaledValue(value: number | string, total: number): number | undefined {
  if (typeof value === 'number') return value;
  const m = /^(\d+)%$/.exec(value);
  return m ? Math.ceil((Number(m[1]) * total) / 100) : undefined;
}

/**
 * The eviction API's rule for a pod that is not Ready (eviction.go, Step C): AlwaysAllow lets it go;
 * IfHealthyBudget (the default) lets it go only while the budget is healthy, currentHealthy >=
 * desiredHealthy > 0. Either way without spending a disruption. Otherwise it is checked like a healthy pod.
 */
export function unhealthyPodBypassesBudget(
  policy: UnhealthyPodEvictionPolicy,
  currentHealthy: number,
  desiredHealthy: number,
): boolean {
  return policy === 'AlwaysAllow' || (currentHealthy >= desiredHealthy && desiredHealthy > 0);
}

/** A pod removed by a plain DELETE (a NoExecute taint, --disable-eviction), with the budgets selecting it. */
export interface DeletedPod {
  readonly pod: V1Pod;
  /** `namespace/name`. */
  readonly key: string;
  readonly budgets: readonly BudgetFacts[];
}

/**
 * Budgets that plain deletes break: a DELETE asks no budget, so every healthy pod of a budget goes without
 * waiting for replacements. A budget is broken when more of its healthy pods go than it allows disruptions.
 */
export function budgetsBrokenByDeletes(pods: readonly DeletedPod[]): NoExecuteBudgetBreach[] {
  const deleted = new Map<string, { facts: BudgetFacts; pods: string[] }>();
  for (const { pod, key, budgets } of pods) {
    if (!isPodReady(pod)) continue;
    for (const facts of budgets) {
      const entry = deleted.get(facts.key) ?? { facts, pods: [] };
      entry.pods.push(key);
      deleted.set(facts.key, entry);
    }
  }
  return [...deleted.values()]
    .filter(({ facts, pods: list }) => list.length > facts.disruptionsAllowed)
    .map(({ facts, pods: list }) => ({
      namespace: facts.namespace,
      name: facts.name,
      pods: list,
      disruptionsAllowed: facts.disruptionsAllowed,
    }));
}
