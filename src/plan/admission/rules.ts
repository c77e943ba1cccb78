import type { V1LabelSelector, V1Namespace, V1RuleWithOperations } from '@kubernetes/client-node';
import { matchesLabelSelector } from '../../snapshot/label-selector.js';
import { labelSets, type AdmissionRequest } from './request.js';

/**
 * Whether a request is in the scope of a webhook or a policy, as the API server's shared predicates decide
 * it (k8s.io/apiserver admission/plugin/webhook/predicates: rules, namespace, object), which serve webhooks
 * and ValidatingAdmissionPolicies alike.
 */

/** A rule of `rules`, `resourceRules` or `excludeResourceRules` (a policy's may also name resourceNames). */
export type AdmissionRule = V1RuleWithOperations & { readonly resourceNames?: readonly string[] };

/**
 * rules.Matcher: operation, group, version, resource with its subresource, scope and (policies) names.
 * `pods` or `*` alone match no subresource; `pods/eviction`, `pods/*`, `*\/eviction` and `*\/*` match an
 * eviction. The eviction's group is the pods' (""), never `policy`.
 */
export function ruleMatches(rule: AdmissionRule, request: AdmissionRequest): boolean {
  const has = (list: readonly string[] | undefined, value: string) =>
    (list ?? []).some((v) => v === '*' || v === value);
  return (
    has(rule.operations, request.operation) &&
    has(rule.apiGroups, request.group) &&
    has(rule.apiVersions, request.version) &&
    resourceMatches(rule.resources ?? [], request.resource, request.subResource) &&
    // Every pod request is namespaced: "*" and "Namespaced" match, "Cluster" does not; unset means "*".
    (rule.scope === undefined || rule.scope === '*' || rule.scope === 'Namespaced') &&
    (rule.resourceNames === undefined || rule.resourceNames.length === 0 || rule.resourceNames.includes(request.name))
  );
}

function resourceMatches(resources: readonly string[], resource: string, sub: string): boolean {
  const requested = sub === '' ? resource : `${resource}/${sub}`;
  return resources.some((r) => {
    if (r === '*/*' || r === requested) return true;
    const [res, subOf = ''] = r.split('/', 2) as [string, string?];
    if (res === '*' && subOf === '' && sub === '') return true;
    if (res === '*' && subOf === sub && sub !== '') return true;
    return res === resource && subOf === '*' && sub !== '';
  });
}

/** What matching needs besides the request: the request's Namespace (undefined when not known). */
export interface MatchContext {
  readonly namespace: V1Namespace | undefined;
  /** False when Namespaces were not read: a namespaceSelector other than `{}` cannot be judged. */
  readonly namespacesKnown: boolean;
}

/** A selector's answer: matched, not, or unknown (why). */
export type Tri = boolean | { readonly unknown: string };

/**
 * namespace.Matcher: a selector (absent or `{}` selects all) against the labels of the request's
 * namespace. Unknown when Namespaces were not read.
 */
export function namespaceSelectorMatches(selector: V1LabelSelector | undefined, context: MatchContext): Tri {
  if (isEverything(selector)) return true;
  if (!context.namespacesKnown) return { unknown: 'Namespaces were not read, so its namespaceSelector is unknown' };
  return matchesLabelSelector(context.namespace?.metadata?.labels, selector!);
}

/**
 * object.Matcher: a selector (absent or `{}` selects all) against the labels of the request's object or
 * old object, either. For an eviction that is the Eviction the drain sends, which has no labels: never
 * the pod's.
 */
export function objectSelectorMatches(selector: V1LabelSelector | undefined, request: AdmissionRequest): boolean {
  if (isEverything(selector)) return true;
  return labelSets(request).some((labels) => matchesLabelSelector(labels, selector!));
}

function isEverything(selector: V1LabelSelector | undefined): boolean {
  return (
    selector === undefined ||
    selector === null ||
    (Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0)
  );
}

/** Both selectors and the include/exclude rules of a policy's matchConstraints or a binding's matchResources. */
export interface MatchResourcesLike {
  readonly namespaceSelector?: V1LabelSelector;
  readonly objectSelector?: V1LabelSelector;
  readonly resourceRules?: readonly AdmissionRule[];
  readonly excludeResourceRules?: readonly AdmissionRule[];
}

/**
 * matching.Matcher.Matches: the namespace, then the object selector, then excluded rules (which win), then
 * the rules. `emptyRulesMatch`: a binding's matchResources without resourceRules narrows by its selectors
 * only (it matches whatever its policy matches); a policy's matchConstraints must name its resources.
 */
export function matchResources(
  match: MatchResourcesLike | undefined,
  request: AdmissionRequest,
  context: MatchContext,
  emptyRulesMatch: boolean,
): Tri {
  if (!match) return emptyRulesMatch;
  const namespace = namespaceSelectorMatches(match.namespaceSelector, context);
  if (namespace === false) return false;
  if (!objectSelectorMatches(match.objectSelector, request)) return false;
  if ((match.excludeResourceRules ?? []).some((r) => ruleMatches(r, request))) return false;
  const rules = match.resourceRules ?? [];
  const byRules = rules.length === 0 ? emptyRulesMatch : rules.some((r) => ruleMatches(r, request));
  return byRules ? namespace : false;
}
