import type {
  V1LabelSelector,
  V1ValidatingAdmissionPolicy,
  V1ValidatingAdmissionPolicyBinding,
} from '@kubernetes/client-node';
import { matchesLabelSelector } from '../../snapshot/label-selector.js';
import type { AdmissionParams } from '../../snapshot/types.js';
import type { AdmissionRequest } from './request.js';
import { matchResources, type MatchContext, type MatchResourcesLike, type Tri } from './rules.js';

/**
 * Which policies and bindings a request meets, and with which params (admission/plugin/policy/matching and
 * generic/policy_dispatcher.go CollectParams).
 */

/** A policy's matchConstraints: its resourceRules must name the request's resource. */
export function policyMatches(
  policy: V1ValidatingAdmissionPolicy,
  request: AdmissionRequest,
  context: MatchContext,
): Tri {
  return matchResources(policy.spec?.matchConstraints as MatchResourcesLike | undefined, request, context, false);
}

/** A binding's matchResources narrows its policy's; absent (or without rules) it takes whatever the policy matched. */
export function bindingMatches(
  binding: V1ValidatingAdmissionPolicyBinding,
  request: AdmissionRequest,
  context: MatchContext,
): Tri {
  return matchResources(binding.spec?.matchResources as MatchResourcesLike | undefined, request, context, true);
}

/**
 * The params a binding runs its policy with: `[null]` without a paramKind (or without a paramRef), the
 * object paramRef names or every object its selector selects, in paramRef's namespace or else, for a
 * namespaced kind, the request's. None found: `Allow` skips the binding (an empty list), `Deny` is a
 * configuration error. Unknown when the params were not read.
 */
export function collectParams(
  policy: V1ValidatingAdmissionPolicy,
  binding: V1ValidatingAdmissionPolicyBinding,
  request: AdmissionRequest,
  params: readonly AdmissionParams[] | undefined,
): { readonly params: readonly (object | null)[] } | { readonly configError: string } | { readonly unknown: string } {
  const kind = policy.spec?.paramKind;
  const ref = binding.spec?.paramRef;
  if (!kind?.kind || !ref) return { params: [null] };
  const set = params?.find((p) => p.apiVersion === kind.apiVersion && p.kind === kind.kind);
  if (!set || set.objects === null) {
    return { unknown: `its params (${kind.kind} ${kind.apiVersion}) were not read${set?.why ? `: ${set.why}` : ''}` };
  }
  const namespaced = set.namespaced ?? set.objects.some((o) => metadataOf(o).namespace !== undefined);
  const namespace = ref.namespace ?? (namespaced ? request.namespace : undefined);
  const inScope = set.objects.filter((o) => namespace === undefined || metadataOf(o).namespace === namespace);
  const found =
    ref.name !== undefined && ref.name !== ''
      ? inScope.filter((o) => metadataOf(o).name === ref.name)
      : inScope.filter((o) => matchesLabelSelector(metadataOf(o).labels, (ref.selector ?? {}) as V1LabelSelector));
  if (found.length > 0) return { params: found.map(withTypeMeta(kind.apiVersion ?? '', kind.kind)) };
  if (ref.parameterNotFoundAction === 'Deny') {
    return { configError: 'no params found for policy binding with `Deny` parameterNotFoundAction' };
  }
  return { params: [] };
}

function metadataOf(o: object): { name?: string; namespace?: string; labels?: Record<string, string> } {
  return (o as { metadata?: { name?: string; namespace?: string; labels?: Record<string, string> } }).metadata ?? {};
}

/** A param as CEL reads it: with its apiVersion and kind, which a typed read may leave out. */
const withTypeMeta = (apiVersion: string, kind: string) => (o: object) => ({ apiVersion, kind, ...o });

/**
 * The API groups kube-apiserver serves itself (a custom resource's group is any other): a paramKind in one
 * of them is read through the API server's shared informer, which the policy plugin stops for good once no
 * binding uses that kind (K/K #133827); a custom resource's informer is made anew each time.
 */
const BUILT_IN_GROUPS = new Set([
  '',
  'apps',
  'autoscaling',
  'batch',
  'policy',
  'admissionregistration.k8s.io',
  'apiextensions.k8s.io',
  'apiregistration.k8s.io',
  'authentication.k8s.io',
  'authorization.k8s.io',
  'certificates.k8s.io',
  'coordination.k8s.io',
  'discovery.k8s.io',
  'events.k8s.io',
  'flowcontrol.apiserver.k8s.io',
  'internal.apiserver.k8s.io',
  'networking.k8s.io',
  'node.k8s.io',
  'rbac.authorization.k8s.io',
  'resource.k8s.io',
  'scheduling.k8s.io',
  'storage.k8s.io',
  'storagemigration.k8s.io',
]);

/** Whether a binding reads its policy's params from the API server's shared informer of a built-in kind. */
export function readsBuiltInParams(
  policy: V1ValidatingAdmissionPolicy,
  binding: V1ValidatingAdmissionPolicyBinding,
): boolean {
  const kind = policy.spec?.paramKind;
  if (!kind?.kind || !binding.spec?.paramRef) return false;
  const apiVersion = kind.apiVersion ?? '';
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  return BUILT_IN_GROUPS.has(group);
}
