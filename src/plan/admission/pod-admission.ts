import type { V1Pod } from '@kubernetes/client-node';
import type { Snapshot } from '../../snapshot/types.js';
import type { ScheduledEviction } from '../budget-waves.js';
import type { PodAdmissionPlan } from '../types.js';
import { podAdmission, policySet } from './policy-judge.js';

/**
 * The admission chain in the plan: each removed pod's request judged once (policy-judge.ts), and what a
 * denial makes of its eviction.
 */

/** The judge of one plan: the snapshot's policies gathered once, then one call per removed pod. */
export function podAdmissions(
  snapshot: Snapshot,
  disableEviction: boolean,
): (pod: V1Pod) => PodAdmissionPlan | undefined {
  const set = policySet(snapshot);
  if (set.policies.length === 0) return () => undefined;
  return (pod) => podAdmission(pod, set, disableEviction);
}

/** Why the policies could not be judged (a kind not read), for a caveat on the removed pods; null when they were. */
export function unreadPolicies(snapshot: Snapshot): string | null {
  return policySet(snapshot).unread;
}

/**
 * A request the chain denies: blocked for good, whatever its budget says (the API server answers 422 or 403
 * before it looks at a budget, and the drain does not retry either). Undefined when not denied.
 */
export function deniedEviction(admission: PodAdmissionPlan | undefined): ScheduledEviction | undefined {
  const denied = admission?.denied;
  if (!denied) return undefined;
  const verb = admission.request === 'DELETE pods' ? 'delete' : 'eviction';
  const instead = admission.deleteInstead ? `; ${admission.deleteInstead.text}` : '';
  return {
    outcome: 'blocked',
    wave: null,
    reason:
      `the API server denies its ${verb}: ${denied.by} '${denied.name}'` +
      `${denied.binding ? ` (binding '${denied.binding}')` : ''}: ${denied.message} (HTTP ${denied.code})${instead}`,
    replacement: null,
    heldBy: 'admission',
  };
}
