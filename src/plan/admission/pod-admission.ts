import type { V1Pod } from '@kubernetes/client-node';
import type { Snapshot } from '../../snapshot/types.js';
import type { ScheduledEviction } from '../budget-waves.js';
import type { AdmissionDenial, AdmissionWebhookPlan, PodAdmissionPlan } from '../types.js';
import { deleteUnderPolicies, judgeRequest, policySet, type PolicySet } from './policy-judge.js';
import { deleteRequest, evictionRequest } from './request.js';
import { webhookSet, webhooksFor, type WebhookSet } from './webhook-match.js';

/**
 * The admission chain in the plan: each removed pod's request judged once, in the chain's order —
 * mutating webhooks, ValidatingAdmissionPolicies (policy-judge.ts), validating webhooks (webhook-match.ts)
 * — the first refusal ending it, as the API server's chain returns on the first error.
 */

/** The judge of one plan: the snapshot's policies and webhooks gathered once, then one call per removed pod. */
export function podAdmissions(
  snapshot: Snapshot,
  disableEviction: boolean,
): (pod: V1Pod) => PodAdmissionPlan | undefined {
  const policies = policySet(snapshot);
  const hooks = webhookSet(snapshot);
  if (policies.policies.length === 0 && hooks.hooks.length === 0) return () => undefined;
  return (pod) => podAdmission(pod, policies, hooks, disableEviction);
}

function podAdmission(
  pod: V1Pod,
  policies: PolicySet,
  hooks: WebhookSet,
  disableEviction: boolean,
): PodAdmissionPlan | undefined {
  const request = disableEviction ? deleteRequest(pod) : evictionRequest(pod);
  const context = { namespace: policies.namespaces.get(request.namespace), namespacesKnown: policies.namespacesKnown };
  const verdict = judgeRequest(request, policies);
  const webhooks = webhooksFor(pod, request, hooks, context);
  const refusing = (kind: AdmissionWebhookPlan['kind']) =>
    webhooks.find((w) => w.kind === kind && w.answer === 'deny' && w.matchUnknown === undefined);
  const mutating = refusing('MutatingWebhookConfiguration');
  const validating = refusing('ValidatingWebhookConfiguration');
  const denied =
    (mutating && webhookDenial(mutating)) ?? verdict.denied ?? (validating && webhookDenial(validating)) ?? null;
  // A mutating webhook's denial stops the chain before any policy; among the policies' denials any may be reported.
  const deniedAlso = denied !== null && denied === verdict.denied ? verdict.deniedAlso : [];
  // Validating webhooks are called in parallel, and the first refusal to arrive is the answer: a 429 may come first.
  const waitsFirst =
    denied?.by === 'ValidatingWebhookConfiguration'
      ? webhooks
          .filter((w) => w.kind === denied.by && w.answer === 'wait' && w.matchUnknown === undefined)
          .map((w) => w.name)
      : [];
  const { cachedParams } = verdict;
  if (
    !denied &&
    verdict.warnings.length === 0 &&
    verdict.unknown.length === 0 &&
    cachedParams.length === 0 &&
    webhooks.length === 0
  ) {
    return undefined;
  }
  return {
    request: disableEviction ? 'DELETE pods' : 'CREATE pods/eviction',
    ...(denied ? { denied } : {}),
    ...(deniedAlso.length > 0 ? { deniedAlso } : {}),
    ...(waitsFirst.length > 0 ? { waitsFirst } : {}),
    warnings: verdict.warnings,
    unknown: verdict.unknown,
    ...(cachedParams.length > 0 ? { cachedParams } : {}),
    ...(denied && !disableEviction ? { deleteInstead: deleteInstead(pod, policies, hooks, context) } : {}),
    ...(webhooks.length > 0 ? { webhooks } : {}),
  };
}

function webhookDenial(w: AdmissionWebhookPlan): AdmissionDenial {
  const message = w.message ?? '';
  return {
    by: w.kind,
    name: w.name,
    binding: null,
    message,
    code: w.code ?? 400,
    text: `admission webhook "${w.name}" denied the request: ${message}`,
  };
}

/** What --disable-eviction's delete meets: the policies, and any webhook on pod deletes. */
function deleteInstead(
  pod: V1Pod,
  policies: PolicySet,
  hooks: WebhookSet,
  context: Parameters<typeof webhooksFor>[3],
): { admitted: boolean | null; text: string } {
  const byPolicies = deleteUnderPolicies(pod, policies);
  if (byPolicies.admitted !== true) return byPolicies;
  const webhook = webhooksFor(pod, deleteRequest(pod), hooks, context)[0];
  if (!webhook) return byPolicies;
  return {
    admitted: null,
    text: `whether --disable-eviction's delete passes is for admission webhook "${webhook.name}" to say`,
  };
}

/** Why the policies or webhooks could not be judged (a kind not read), for a caveat on the removed pods. */
export function unreadAdmission(snapshot: Snapshot): string[] {
  return [policySet(snapshot).unread, webhookSet(snapshot).unread].filter((u): u is string => u !== null);
}

/**
 * A request the chain denies: blocked for good, whatever its budget says (the API server answers before
 * it looks at a budget, and the drain does not retry a refusal other than 429). Undefined when not denied.
 */
export function deniedEviction(admission: PodAdmissionPlan | undefined): ScheduledEviction | undefined {
  const denied = admission?.denied;
  if (!denied) return undefined;
  const verb = admission.request === 'DELETE pods' ? 'delete' : 'eviction';
  const webhook = admission.webhooks?.find((w) => w.kind === denied.by && w.name === denied.name);
  const waits = admission.waitsFirst?.length
    ? `the API server calls ${admission.waitsFirst.map((w) => `"${w}"`).join(', ')} beside it and reports the first refusal to arrive, so the drain may retry on a 429 until that webhook stops answering it`
    : undefined;
  const instead = [webhook?.text, waits, admission.deleteInstead?.text].map((t) => (t ? `; ${t}` : '')).join('');
  const by =
    denied.by === 'ValidatingAdmissionPolicy'
      ? `ValidatingAdmissionPolicy '${denied.name}'${denied.binding ? ` (binding '${denied.binding}')` : ''}`
      : `admission webhook "${denied.name}"`;
  return {
    outcome: 'blocked',
    wave: null,
    reason: `the API server denies its ${verb}: ${by}: ${denied.message} (HTTP ${denied.code})${instead}`,
    replacement: null,
    heldBy: 'admission',
  };
}

/**
 * The first webhook whose answer the plan cannot tell, unless something in the chain certainly denies the
 * request: one it does not know (it may admit, refuse, or answer 429 for as long as it likes), or one that
 * would refuse or make the pod wait where whether it is called at all cannot be told (`matchUnknown`).
 */
export function undecidedWebhook(admission: PodAdmissionPlan | undefined): AdmissionWebhookPlan | undefined {
  if (admission?.denied) return undefined;
  return admission?.webhooks?.find(
    (w) => w.answer === 'unknown' || (w.matchUnknown !== undefined && w.answer !== 'admit'),
  );
}

/** A webhook that makes the request wait (429 until its operator has moved the pod): the first, or undefined. */
export function waitingWebhook(admission: PodAdmissionPlan | undefined): AdmissionWebhookPlan | undefined {
  if (admission?.denied) return undefined;
  return admission?.webhooks?.find((w) => w.answer === 'wait' && w.matchUnknown === undefined);
}
