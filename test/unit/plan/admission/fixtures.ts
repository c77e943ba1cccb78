import type {
  V1MatchCondition,
  V1NamedRuleWithOperations,
  V1ParamRef,
  V1Validation,
  V1ValidatingAdmissionPolicy,
  V1ValidatingAdmissionPolicyBinding,
  V1Pod,
  V1Variable,
} from '@kubernetes/client-node';
import { makePod } from '../../builders.js';

/** ValidatingAdmissionPolicies and bindings as a cluster would hold them, for the admission judge's tests. */

/** The rule that matches an eviction: CREATE of pods/eviction in the core group. */
export const EVICTION_RULE: V1NamedRuleWithOperations = {
  apiGroups: [''],
  apiVersions: ['v1'],
  resources: ['pods/eviction'],
  operations: ['CREATE'],
};

export interface PolicySpec {
  readonly rules?: readonly V1NamedRuleWithOperations[];
  readonly excludeRules?: readonly V1NamedRuleWithOperations[];
  readonly namespaceSelector?: object;
  readonly objectSelector?: object;
  readonly validations?: readonly V1Validation[];
  readonly matchConditions?: readonly V1MatchCondition[];
  readonly variables?: readonly V1Variable[];
  readonly failurePolicy?: 'Fail' | 'Ignore';
  readonly paramKind?: { apiVersion: string; kind: string };
}

export function policy(name: string, spec: PolicySpec = {}): V1ValidatingAdmissionPolicy {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec: {
      ...(spec.failurePolicy ? { failurePolicy: spec.failurePolicy } : {}),
      ...(spec.paramKind ? { paramKind: spec.paramKind } : {}),
      matchConstraints: {
        resourceRules: [...(spec.rules ?? [EVICTION_RULE])],
        ...(spec.excludeRules ? { excludeResourceRules: [...spec.excludeRules] } : {}),
        ...(spec.namespaceSelector ? { namespaceSelector: spec.namespaceSelector } : {}),
        ...(spec.objectSelector ? { objectSelector: spec.objectSelector } : {}),
      },
      ...(spec.matchConditions ? { matchConditions: [...spec.matchConditions] } : {}),
      ...(spec.variables ? { variables: [...spec.variables] } : {}),
      validations: [...(spec.validations ?? [{ expression: 'false', message: 'no evictions' }])],
    },
  };
}

export interface BindingSpec {
  readonly actions?: readonly ('Deny' | 'Warn' | 'Audit')[];
  readonly namespaceSelector?: object;
  readonly objectSelector?: object;
  readonly rules?: readonly V1NamedRuleWithOperations[];
  readonly paramRef?: V1ParamRef;
}

export function binding(name: string, policyName: string, spec: BindingSpec = {}): V1ValidatingAdmissionPolicyBinding {
  const match =
    spec.namespaceSelector || spec.objectSelector || spec.rules
      ? {
          matchResources: {
            ...(spec.namespaceSelector ? { namespaceSelector: spec.namespaceSelector } : {}),
            ...(spec.objectSelector ? { objectSelector: spec.objectSelector } : {}),
            ...(spec.rules ? { resourceRules: [...spec.rules] } : {}),
          },
        }
      : {};
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name },
    spec: {
      policyName,
      validationActions: [...(spec.actions ?? ['Deny'])],
      ...(spec.paramRef ? { paramRef: spec.paramRef } : {}),
      ...match,
    },
  };
}

export interface WebhookSpec {
  readonly resources?: readonly string[];
  readonly failurePolicy?: 'Fail' | 'Ignore';
  readonly timeoutSeconds?: number;
  readonly sideEffects?: string;
  readonly matchConditions?: ReadonlyArray<{ name: string; expression: string }>;
  readonly objectSelector?: object;
  readonly namespaceSelector?: object;
}

/** A webhook configuration of one webhook on CREATE of `resources` (pods/eviction unless told). */
export function webhookConfiguration<K extends 'ValidatingWebhookConfiguration' | 'MutatingWebhookConfiguration'>(
  kind: K,
  name: string,
  webhook: string,
  spec: WebhookSpec = {},
) {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind,
    metadata: { name },
    webhooks: [
      {
        name: webhook,
        admissionReviewVersions: ['v1'],
        clientConfig: { service: { namespace: 'ops', name: 'hook' } },
        rules: [
          {
            apiGroups: [''],
            apiVersions: ['v1'],
            operations: ['CREATE'],
            resources: [...(spec.resources ?? ['pods/eviction'])],
          },
        ],
        sideEffects: spec.sideEffects ?? 'None',
        ...(spec.failurePolicy ? { failurePolicy: spec.failurePolicy } : {}),
        ...(spec.timeoutSeconds ? { timeoutSeconds: spec.timeoutSeconds } : {}),
        ...(spec.matchConditions ? { matchConditions: [...spec.matchConditions] } : {}),
        ...(spec.objectSelector ? { objectSelector: spec.objectSelector } : {}),
        ...(spec.namespaceSelector ? { namespaceSelector: spec.namespaceSelector } : {}),
      },
    ],
  };
}

/** A running launcher pod of KubeVirt's VMI vm1 on n1, as virt-controller makes it. */
export function kubevirtLauncher(): V1Pod {
  return makePod()
    .name('virt-launcher-vm1-abcde')
    .ns('vms')
    .node('n1')
    .annotation('kubevirt.io/domain', 'vm1')
    .owner('VirtualMachineInstance', 'vm1')
    .obj();
}
