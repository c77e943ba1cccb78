import type {
  V1Namespace,
  V1Pod,
  V1UserInfo,
  V1ValidatingAdmissionPolicy,
  V1ValidatingAdmissionPolicyBinding,
} from '@kubernetes/client-node';
import type { Snapshot } from '../../snapshot/types.js';
import type { AdmissionDenial, AdmissionUnknown } from '../types.js';
import { bindingMatches, collectParams, policyMatches, readsBuiltInParams } from './policy-match.js';
import { runPolicy } from './policy-validate.js';
import { celNamespace, celRequest, deleteRequest, type AdmissionRequest } from './request.js';
import type { MatchContext } from './rules.js';
import { kindPlural } from '../../wording.js';

/**
 * The ValidatingAdmissionPolicies of a cluster judged on the drain's requests, as the API server's
 * dispatcher does (admission/plugin/policy/validating/dispatcher.go): every matching policy and binding,
 * once per param; a denial goes to the binding's validationActions (Deny: the first one is the request's
 * error; Warn: a warning; Audit: only the audit log); a configuration error (params not found with `Deny`)
 * denies under failurePolicy Fail and is ignored under Ignore.
 */

/** What the judge needs of the snapshot, gathered once per plan. */
export interface PolicySet {
  readonly policies: ReadonlyArray<{
    readonly policy: V1ValidatingAdmissionPolicy;
    readonly bindings: readonly V1ValidatingAdmissionPolicyBinding[];
  }>;
  readonly params: Snapshot['admissionParams'];
  readonly namespaces: ReadonlyMap<string, V1Namespace>;
  readonly namespacesKnown: boolean;
  readonly requester: V1UserInfo | undefined;
  /** Why the policies themselves are not known (a kind not read), or null: a caveat on the removed pods. */
  readonly unread: string | null;
}

export function policySet(snapshot: Snapshot): PolicySet {
  const byName = (a: { metadata?: { name?: string } }, b: { metadata?: { name?: string } }) =>
    (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? '');
  const bindings = Map.groupBy(snapshot.validatingAdmissionPolicyBindings, (b) => b.spec?.policyName ?? '');
  const missing = (['ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding'] as const).filter(
    (k) => !snapshot.kinds.has(k),
  );
  return {
    policies: [...snapshot.validatingAdmissionPolicies].sort(byName).map((policy) => ({
      policy,
      bindings: [...(bindings.get(policy.metadata?.name ?? '') ?? [])].sort(byName),
    })),
    params: snapshot.admissionParams,
    namespaces: new Map(snapshot.namespaces.map((n) => [n.metadata?.name ?? '', n])),
    namespacesKnown: snapshot.kinds.has('Namespace'),
    requester: snapshot.requester,
    unread:
      missing.length === 0
        ? null
        : `${missing.map(kindPlural).join(' and ')} were not read: a policy may deny the drain's requests`,
  };
}

export interface PolicyVerdict {
  /** The first denial in the plan's order (by policy, then binding name). */
  readonly denied: AdmissionDenial | null;
  /**
   * The other denials of the request. The API server evaluates every policy and reports one denial, the
   * first in the order its policy cache holds them, which follows no name: any of them may be the one.
   */
  readonly deniedAlso: readonly AdmissionDenial[];
  readonly warnings: readonly string[];
  readonly unknown: readonly AdmissionUnknown[];
  /** The bindings met that read their params from the API server's informer of a built-in kind (readsBuiltInParams). */
  readonly cachedParams: readonly string[];
}

/** Every policy on one request. */
export function judgeRequest(request: AdmissionRequest, set: PolicySet): PolicyVerdict {
  const namespace = set.namespaces.get(request.namespace);
  const context: MatchContext = { namespace, namespacesKnown: set.namespacesKnown };
  const denials: AdmissionDenial[] = [];
  const warnings: string[] = [];
  const unknown: AdmissionUnknown[] = [];
  const cachedParams: string[] = [];
  const base = {
    object: request.object,
    oldObject: request.oldObject,
    request: celRequest(request, set.requester),
    namespaceObject: celNamespace(namespace),
  };
  for (const { policy, bindings } of set.policies) {
    const name = policy.metadata?.name ?? '';
    const fail = (policy.spec?.failurePolicy ?? 'Fail') !== 'Ignore';
    const matched = policyMatches(policy, request, context);
    if (matched === false) continue;
    if (matched !== true) {
      unknown.push({ policy: name, binding: null, why: matched.unknown });
      continue;
    }
    for (const binding of bindings) {
      const bindingName = binding.metadata?.name ?? '';
      const bound = bindingMatches(binding, request, context);
      if (bound === false) continue;
      if (bound !== true) {
        unknown.push({ policy: name, binding: bindingName, why: bound.unknown });
        continue;
      }
      if (readsBuiltInParams(policy, binding)) cachedParams.push(`${name}/${bindingName}`);
      const params = collectParams(policy, binding, request, set.params);
      if ('unknown' in params) {
        unknown.push({ policy: name, binding: bindingName, why: params.unknown });
        continue;
      }
      if ('configError' in params) {
        if (fail)
          denials.push(denial(request, name, bindingName, `failed to configure binding: ${params.configError}`));
        continue;
      }
      const actions = binding.spec?.validationActions ?? [];
      for (const param of params.params) {
        const run = runPolicy(policy, {
          cel: { ...base, params: param },
          userInfoKnown: set.requester !== undefined,
        });
        if ('skipped' in run) continue;
        if ('unknown' in run) {
          unknown.push({ policy: name, binding: bindingName, why: run.unknown });
          continue;
        }
        for (const decision of run.decisions) {
          if (decision.action !== 'deny') continue;
          if (actions.includes('Deny'))
            denials.push(denial(request, name, bindingName, decision.message, decision.reason));
          if (actions.includes('Warn')) {
            warnings.push(
              `Validation failed for ValidatingAdmissionPolicy '${name}' with binding '${bindingName}': ${decision.message}`,
            );
          }
        }
      }
    }
  }
  const distinct = [...new Map(denials.map((d) => [d.text, d])).values()];
  return { denied: distinct[0] ?? null, deniedAlso: distinct.slice(1), warnings, unknown, cachedParams };
}

const CODE_OF_REASON: Readonly<Record<string, number>> = {
  Unauthorized: 401,
  Forbidden: 403,
  RequestEntityTooLarge: 413,
  Invalid: 422,
};

function denial(
  request: AdmissionRequest,
  policy: string,
  binding: string,
  message: string,
  reason = 'Invalid',
): AdmissionDenial {
  const text = `pods "${request.name}" is forbidden: ValidatingAdmissionPolicy '${policy}' with binding '${binding}' denied request: ${message}`;
  return { by: 'ValidatingAdmissionPolicy', name: policy, binding, message, code: CODE_OF_REASON[reason] ?? 422, text };
}

/**
 * What --disable-eviction's DELETE of the pod meets from the policies: denied (by which), unknown, or
 * admitted.
 */
export function deleteUnderPolicies(pod: V1Pod, set: PolicySet): { admitted: boolean | null; text: string } {
  const verdict = judgeRequest(deleteRequest(pod), set);
  if (verdict.denied) {
    return {
      admitted: false,
      text: `--disable-eviction would not help: ValidatingAdmissionPolicy '${verdict.denied.name}' denies the delete too`,
    };
  }
  if (verdict.unknown.length > 0) {
    return {
      admitted: null,
      text: `whether --disable-eviction's delete passes is unknown: ${verdict.unknown[0]!.policy}: ${verdict.unknown[0]!.why}`,
    };
  }
  return {
    admitted: true,
    text: '--disable-eviction deletes the pod instead, which no policy denies (and which no budget limits)',
  };
}
