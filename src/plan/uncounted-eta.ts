import { waitingWebhook } from './admission/pod-admission.js';
import type { DrainEtaPlan, PodPlan, UncountedEta } from './types.js';

/**
 * A pod whose eviction an operator's webhook takes over answers 429 until the operator has moved it (KubeVirt
 * live-migrates the VM first): how long that takes is the operator's, not anything the plan reads. The
 * estimate counts the rest and says the total is at least that, naming the pods.
 */

/** The plan's own: each pod a webhook the plan knows makes wait (waitingWebhook), unless it is blocked anyway. */
export function uncountedOfPlan(pods: readonly PodPlan[]): Map<string, string> {
  const waiting = new Map<string, string>();
  for (const p of pods) {
    const webhook = p.outcome === 'immediate' || p.outcome === 'waits' ? waitingWebhook(p.admission) : undefined;
    if (webhook) waiting.set(`${p.namespace}/${p.name}`, webhook.name);
  }
  return waiting;
}

/** The estimate with those pods (by namespace/name, each with its webhook) said; unchanged when there are none. */
export function withUncounted(eta: DrainEtaPlan, waiting: ReadonlyMap<string, string>): DrainEtaPlan {
  const pods = [...new Set([...(eta.uncounted?.pods ?? []), ...waiting.keys()])];
  if (pods.length === 0) return eta;
  const webhooks = [...new Set([...(eta.uncounted?.webhooks ?? []), ...waiting.values()])];
  const uncounted: UncountedEta = {
    pods,
    webhooks,
    text:
      `the time of ${pods.join(', ')} cannot be counted: admission webhook ${webhooks.map((w) => `"${w}"`).join(', ')} ` +
      'answers 429 until its operator has moved the pod (a live migration, a roll), for as long as that takes',
  };
  return { ...eta, uncounted };
}
