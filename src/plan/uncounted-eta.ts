import { undecidedWebhook, waitingWebhook } from './admission/pod-admission.js';
import type { DrainEtaPlan, PodPlan, UncountedEta } from './types.js';

/**
 * A pod whose eviction an operator's webhook takes over answers 429 until the operator has moved the pod
 * (KubeVirt live-migrates the VM first): how long that takes is the operator's, not anything the plan reads.
 * A webhook the plan does not know may do the same, for as long as it likes. The estimate counts the rest
 * and says the total is at least that, naming the pods.
 */

/**
 * The estimate with the pods whose time a webhook decides said (`uncounted`), from the pods as planned
 * and the webhooks the API server's dry runs found answering 429 (`answered`: namespace/name to webhook),
 * unless the pod is blocked anyway; without `uncounted` when there are none.
 */
export function withUncounted(
  eta: DrainEtaPlan,
  pods: readonly PodPlan[],
  answered: ReadonlyMap<string, string> = new Map(),
): DrainEtaPlan {
  const waiting = new Map<string, string>();
  const undecided = new Map<string, string>();
  const uncountedPods: string[] = [];
  for (const p of pods) {
    if (p.outcome !== 'immediate' && p.outcome !== 'waits') continue;
    const key = `${p.namespace}/${p.name}`;
    const known = answered.get(key) ?? waitingWebhook(p.admission)?.name;
    const unknown = known === undefined ? undecidedWebhook(p.admission)?.name : undefined;
    if (known !== undefined) waiting.set(key, known);
    if (unknown !== undefined) undecided.set(key, unknown);
    if (known !== undefined || unknown !== undefined) uncountedPods.push(key);
  }
  const counted: DrainEtaPlan = {
    totalSeconds: eta.totalSeconds,
    waves: eta.waves,
    ...(eta.steps ? { steps: eta.steps } : {}),
    basis: eta.basis,
  };
  if (uncountedPods.length === 0) return counted;
  const named = (hooks: Iterable<string>) => [...new Set(hooks)].map((w) => `"${w}"`).join(', ');
  const why = [
    ...(waiting.size > 0
      ? [
          `admission webhook ${named(waiting.values())} answers 429 until its operator has moved the pod (a live migration, a roll), for as long as that takes`,
        ]
      : []),
    ...(undecided.size > 0
      ? [`admission webhook ${named(undecided.values())} decides when, or whether, it admits the eviction`]
      : []),
  ];
  const uncounted: UncountedEta = {
    pods: uncountedPods,
    webhooks: [...new Set([...waiting.values(), ...undecided.values()])],
    text: `the time of ${uncountedPods.join(', ')} cannot be counted: ${why.join('; ')}`,
  };
  return { ...counted, uncounted };
}
