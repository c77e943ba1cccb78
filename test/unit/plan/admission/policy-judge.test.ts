import type { V1Namespace, V1UserInfo } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { judgeRequest, policySet } from '../../../../src/plan/admission/policy-judge.js';
import { deleteRequest, evictionRequest } from '../../../../src/plan/admission/request.js';
import type { AdmissionParams } from '../../../../src/snapshot/types.js';
import { makePod, makeSnapshot, type SnapshotInput } from '../../builders.js';
import { binding, EVICTION_RULE, policy } from './fixtures.js';

// The judge against the API server's own tests of ValidatingAdmissionPolicy matching and validation
// (k8s.io/apiserver admission/plugin/policy/matching/matching_test.go TestMatcher, validating/validator_test.go
// TestValidate, validating/admission_test.go), translated to the request a drain makes: an eviction.

const pod = makePod().name('hello-1').ns('demo').uid('u-1').label('app', 'hello').obj();
const demo: V1Namespace = { metadata: { name: 'demo', labels: { team: 'demo' } } };
const admin: V1UserInfo = { username: 'kubernetes-admin', groups: ['kubeadm:cluster-admins', 'system:authenticated'] };

function judge(
  input: SnapshotInput & { requester?: V1UserInfo; params?: AdmissionParams[] },
  request = evictionRequest(pod),
) {
  const { requester, params, ...rest } = input;
  const snapshot = {
    ...makeSnapshot({ namespaces: [demo], ...rest }),
    ...(requester ? { requester } : {}),
    ...(params ? { admissionParams: params } : {}),
  };
  return judgeRequest(request, policySet(snapshot));
}

const denying = (spec: Parameters<typeof policy>[1] = {}, bindingSpec: Parameters<typeof binding>[2] = {}) => ({
  validatingAdmissionPolicies: [policy('p', spec)],
  validatingAdmissionPolicyBindings: [binding('b', 'p', bindingSpec)],
});

describe('matching (matching_test.go TestMatcher, on an eviction)', () => {
  const cases: ReadonlyArray<{ name: string; rules: Parameters<typeof policy>[1]; matches: boolean }> = [
    { name: 'no rules: matches nothing', rules: { rules: [] }, matches: false },
    { name: 'pods/eviction', rules: {}, matches: true },
    {
      name: 'wildcard resource "*" matches no subresource',
      rules: {
        rules: [{ ...EVICTION_RULE, apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], operations: ['*'] }],
      },
      matches: false,
    },
    {
      name: '"pods" alone matches no subresource',
      rules: { rules: [{ ...EVICTION_RULE, resources: ['pods'] }] },
      matches: false,
    },
    {
      name: '"pods/*" matches the eviction',
      rules: { rules: [{ ...EVICTION_RULE, resources: ['pods/*'] }] },
      matches: true,
    },
    {
      name: '"*/eviction" matches it',
      rules: { rules: [{ ...EVICTION_RULE, resources: ['*/eviction'] }] },
      matches: true,
    },
    { name: '"*/*" matches it', rules: { rules: [{ ...EVICTION_RULE, resources: ['*/*'] }] }, matches: true },
    {
      name: 'group "policy" (the Eviction kind\'s) never matches: the resource is the pods\'',
      rules: { rules: [{ ...EVICTION_RULE, apiGroups: ['policy'] }] },
      matches: false,
    },
    {
      name: 'operation DELETE misses a CREATE',
      rules: { rules: [{ ...EVICTION_RULE, operations: ['DELETE'] }] },
      matches: false,
    },
    {
      name: 'scope Cluster misses a namespaced request',
      rules: { rules: [{ ...EVICTION_RULE, scope: 'Cluster' }] },
      matches: false,
    },
    { name: 'scope Namespaced matches', rules: { rules: [{ ...EVICTION_RULE, scope: 'Namespaced' }] }, matches: true },
    {
      name: 'resourceNames naming another pod miss',
      rules: { rules: [{ ...EVICTION_RULE, resourceNames: ['other'] }] },
      matches: false,
    },
    {
      name: 'resourceNames naming the pod match',
      rules: { rules: [{ ...EVICTION_RULE, resourceNames: ['hello-1'] }] },
      matches: true,
    },
    {
      name: 'excluded resources win over included ones',
      rules: { excludeRules: [{ ...EVICTION_RULE, resources: ['pods/*'] }] },
      matches: false,
    },
    {
      name: 'namespace selector matching the namespace',
      rules: { namespaceSelector: { matchLabels: { team: 'demo' } } },
      matches: true,
    },
    {
      name: 'namespace selector missing it',
      rules: { namespaceSelector: { matchLabels: { team: 'ops' } } },
      matches: false,
    },
    {
      name: "object selector on the pod's labels: the Eviction has none, no match",
      rules: { objectSelector: { matchLabels: { app: 'hello' } } },
      matches: false,
    },
    {
      name: 'object selector DoesNotExist matches the label-less Eviction',
      rules: { objectSelector: { matchExpressions: [{ key: 'app', operator: 'DoesNotExist' }] } },
      matches: true,
    },
  ];
  it.each(cases)('$name', ({ rules, matches }) => {
    const verdict = judge(denying(rules));
    expect(verdict.denied !== null).toBe(matches);
  });

  it("a binding's matchResources narrows the policy: its namespace selector", () => {
    expect(judge(denying({}, { namespaceSelector: { matchLabels: { team: 'ops' } } })).denied).toBeNull();
    expect(judge(denying({}, { namespaceSelector: { matchLabels: { team: 'demo' } } })).denied).not.toBeNull();
  });

  it('a binding of another policy does not bind this one', () => {
    const verdict = judge({
      validatingAdmissionPolicies: [policy('p')],
      validatingAdmissionPolicyBindings: [binding('b', 'other')],
    });
    expect(verdict.denied).toBeNull();
  });

  it('Namespaces not read: a namespace selector is unknown, never a match or a miss', () => {
    const verdict = judge({
      ...denying({ namespaceSelector: { matchLabels: { team: 'demo' } } }),
      kinds: ['Node', 'Pod', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding'],
    });
    expect(verdict.denied).toBeNull();
    expect(verdict.unknown[0]!.why).toMatch(/Namespaces were not read/);
  });

  it('--disable-eviction: DELETE of the pod, whose labels the object selector sees (oldObject)', () => {
    const spec = {
      rules: [{ ...EVICTION_RULE, resources: ['pods'], operations: ['DELETE'] }],
      objectSelector: { matchLabels: { app: 'hello' } },
    };
    expect(judge(denying(spec), deleteRequest(pod)).denied).not.toBeNull();
    expect(judge(denying(spec)).denied).toBeNull();
  });
});

describe('validation (validator_test.go TestValidate)', () => {
  it('a false validation denies with its message, reported as the API server words it (422 Invalid)', () => {
    const verdict = judge(denying({ validations: [{ expression: 'false', message: 'handled by the operator' }] }));
    expect(verdict.denied).toEqual({
      by: 'ValidatingAdmissionPolicy',
      name: 'p',
      binding: 'b',
      message: 'handled by the operator',
      code: 422,
      text: `pods "hello-1" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: handled by the operator`,
    });
  });

  it('a true validation admits', () => {
    expect(judge(denying({ validations: [{ expression: 'true' }] })).denied).toBeNull();
  });

  it('no message: "failed expression: EXPR"', () => {
    const verdict = judge(denying({ validations: [{ expression: '1 < 0' }] }));
    expect(verdict.denied!.message).toBe('failed expression: 1 < 0');
  });

  it('messageExpression wins over message', () => {
    const verdict = judge(
      denying({
        validations: [
          { expression: 'false', message: 'static', messageExpression: '"eviction of " + object.metadata.name' },
        ],
      }),
    );
    expect(verdict.denied!.message).toBe('eviction of hello-1');
  });

  it.each([
    ['an error', 'object.metadata.missing'],
    ['an empty string', '"  "'],
    ['several lines', '"a\\nb"'],
    ['not a string', '1'],
  ])('messageExpression giving %s falls back to the message', (_, messageExpression) => {
    const verdict = judge(denying({ validations: [{ expression: 'false', message: 'static', messageExpression }] }));
    expect(verdict.denied!.message).toBe('static');
  });

  it('reason Forbidden answers 403', () => {
    const verdict = judge(denying({ validations: [{ expression: 'false', reason: 'Forbidden' }] }));
    expect(verdict.denied!.code).toBe(403);
  });

  it('the first denial is the one reported, however many validations fail', () => {
    const verdict = judge(
      denying({
        validations: [
          { expression: 'true' },
          { expression: 'false', message: 'first' },
          { expression: 'false', message: 'second' },
        ],
      }),
    );
    expect(verdict.denied!.message).toBe('first');
  });

  it('several policies deny: any may be the one reported (the API server holds its policies in no set order)', () => {
    const verdict = judge({
      validatingAdmissionPolicies: [
        policy('q', { validations: [{ expression: 'false', message: 'from q' }] }),
        policy('p', { validations: [{ expression: 'false', message: 'from p' }] }),
        policy('r', { validations: [{ expression: 'true' }] }),
      ],
      validatingAdmissionPolicyBindings: [binding('bq', 'q'), binding('bp', 'p'), binding('br', 'r')],
    });
    expect(verdict.denied).toMatchObject({ name: 'p', binding: 'bp', message: 'from p' });
    expect(verdict.deniedAlso).toEqual([expect.objectContaining({ name: 'q', binding: 'bq', message: 'from q' })]);
  });

  it('a runtime error under failurePolicy Fail denies with the error; under Ignore admits', () => {
    const validations = [{ expression: 'object.metadata.labels.app == "x"' }];
    const failed = judge(denying({ validations }));
    expect(failed.denied!.message).toMatch(/^expression 'object.metadata.labels.app == "x"' resulted in error: /);
    expect(judge(denying({ validations, failurePolicy: 'Ignore' })).denied).toBeNull();
  });

  it('what the Eviction carries: the pod name and namespace, oldObject null, the pod UID as precondition', () => {
    const verdict = judge(
      denying({
        validations: [
          {
            expression:
              '!(object.kind == "Eviction" && object.metadata.name == "hello-1" && object.metadata.namespace == "demo" && oldObject == null && object.deleteOptions.preconditions.uid == "u-1" && request.subResource == "eviction" && request.operation == "CREATE" && request.resource.resource == "pods" && request.kind.group == "policy")',
          },
        ],
      }),
    );
    expect(verdict.denied).not.toBeNull();
  });

  it("namespaceObject is the pod's Namespace", () => {
    const verdict = judge(denying({ validations: [{ expression: 'namespaceObject.metadata.labels.team != "demo"' }] }));
    expect(verdict.denied).not.toBeNull();
  });
});

describe('matchConditions (validator_test.go, admission_test.go)', () => {
  it('a false condition skips the policy', () => {
    const verdict = judge(
      denying({ matchConditions: [{ name: 'only-web', expression: 'object.metadata.name.startsWith("web-")' }] }),
    );
    expect(verdict.denied).toBeNull();
  });

  it("all true: the policy runs (on the Eviction's name and namespace)", () => {
    const verdict = judge(
      denying({
        matchConditions: [
          { name: 'hello', expression: 'object.metadata.name.startsWith("hello-")' },
          { name: 'demo', expression: 'request.namespace == "demo"' },
        ],
      }),
    );
    expect(verdict.denied).not.toBeNull();
  });

  it('an error with none false: failurePolicy Fail denies, Ignore skips', () => {
    const matchConditions = [{ name: 'broken', expression: 'object.metadata.labels.app == "hello"' }];
    expect(judge(denying({ matchConditions })).denied).not.toBeNull();
    expect(judge(denying({ matchConditions, failurePolicy: 'Ignore' })).denied).toBeNull();
  });

  it('a false condition wins over an erroring one', () => {
    const matchConditions = [
      { name: 'broken', expression: 'object.metadata.labels.app == "hello"' },
      { name: 'no', expression: 'false' },
    ];
    expect(judge(denying({ matchConditions })).denied).toBeNull();
  });
});

describe('validationActions', () => {
  it('Warn: no denial, the warning the API server sends', () => {
    const verdict = judge(
      denying({ validations: [{ expression: 'false', message: 'careful' }] }, { actions: ['Warn'] }),
    );
    expect(verdict.denied).toBeNull();
    expect(verdict.warnings).toEqual(["Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': careful"]);
  });

  it('Audit: neither a denial nor a warning', () => {
    const verdict = judge(denying({}, { actions: ['Audit'] }));
    expect(verdict).toEqual({ denied: null, deniedAlso: [], warnings: [], unknown: [], cachedParams: [] });
  });

  it('Deny and Audit: a denial', () => {
    expect(judge(denying({}, { actions: ['Deny', 'Audit'] })).denied).not.toBeNull();
  });
});

describe('variables', () => {
  it('are evaluated in order, each seeing the ones before', () => {
    const verdict = judge(
      denying({
        variables: [
          { name: 'name', expression: 'object.metadata.name' },
          { name: 'isHello', expression: 'variables.name.startsWith("hello")' },
        ],
        validations: [{ expression: '!variables.isHello', messageExpression: '"no eviction of " + variables.name' }],
      }),
    );
    expect(verdict.denied!.message).toBe('no eviction of hello-1');
  });

  it('a validation reading a variable that failed fails with its error', () => {
    const verdict = judge(
      denying({
        variables: [{ name: 'app', expression: 'object.metadata.labels.app' }],
        validations: [{ expression: 'variables.app == "x"' }],
      }),
    );
    expect(verdict.denied!.message).toMatch(/resulted in error/);
  });
});

describe('params (policy_dispatcher.go CollectParams)', () => {
  const configMaps = (objects: object[]): AdmissionParams[] => [
    { apiVersion: 'v1', kind: 'ConfigMap', namespaced: true, objects },
  ];
  const cm = (name: string, namespace: string, data: Record<string, string>, labels: Record<string, string> = {}) => ({
    metadata: { name, namespace, labels },
    data,
  });
  const paramKind = { apiVersion: 'v1', kind: 'ConfigMap' };
  const validations = [
    { expression: 'params.data.evictions == "allowed"', messageExpression: '"evictions are " + params.data.evictions' },
  ];

  it("paramRef by name, in the request's namespace for a namespaced kind", () => {
    const verdict = judge({
      ...denying({ paramKind, validations }, { paramRef: { name: 'rules', parameterNotFoundAction: 'Deny' } }),
      params: configMaps([
        cm('rules', 'demo', { evictions: 'frozen' }),
        cm('rules', 'other', { evictions: 'allowed' }),
      ]),
    });
    expect(verdict.denied!.message).toBe('evictions are frozen');
  });

  it('a selector runs the validations once per param', () => {
    const verdict = judge({
      ...denying(
        { paramKind, validations },
        {
          actions: ['Warn'],
          paramRef: { selector: { matchLabels: { kind: 'rule' } }, parameterNotFoundAction: 'Allow' },
        },
      ),
      params: configMaps([
        cm('a', 'demo', { evictions: 'frozen' }, { kind: 'rule' }),
        cm('b', 'demo', { evictions: 'paused' }, { kind: 'rule' }),
      ]),
    });
    expect(verdict.warnings).toHaveLength(2);
  });

  it('none found: Allow passes, Deny is a configuration error that denies under Fail', () => {
    const params = configMaps([]);
    const allow = judge({
      ...denying({ paramKind, validations }, { paramRef: { name: 'x', parameterNotFoundAction: 'Allow' } }),
      params,
    });
    expect(allow.denied).toBeNull();
    const deny = judge({
      ...denying({ paramKind, validations }, { paramRef: { name: 'x', parameterNotFoundAction: 'Deny' } }),
      params,
    });
    expect(deny.denied!.message).toBe(
      'failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction',
    );
    const ignored = judge({
      ...denying(
        { paramKind, validations, failurePolicy: 'Ignore' },
        { paramRef: { name: 'x', parameterNotFoundAction: 'Deny' } },
      ),
      params,
    });
    expect(ignored.denied).toBeNull();
  });

  it("a built-in kind's params come from the API server's informer: the binding is named; a custom resource's are not", () => {
    const ref = { paramRef: { name: 'rules', parameterNotFoundAction: 'Deny' as const } };
    const params = configMaps([cm('rules', 'demo', { evictions: 'allowed' })]);
    expect(judge({ ...denying({ paramKind, validations }, ref), params }).cachedParams).toEqual(['p/b']);
    const custom = { apiVersion: 'rules.example.com/v1', kind: 'EvictionRule' };
    expect(judge({ ...denying({ paramKind: custom, validations }, ref), params }).cachedParams).toEqual([]);
    const inGroup = { apiVersion: 'apps/v1', kind: 'Deployment' };
    expect(judge({ ...denying({ paramKind: inGroup, validations }, ref), params }).cachedParams).toEqual(['p/b']);
    // A binding without paramRef runs with null params: nothing read.
    expect(judge({ ...denying({ paramKind, validations: [{ expression: 'true' }] }), params }).cachedParams).toEqual(
      [],
    );
  });

  it('params not read: unknown, not admitted', () => {
    const verdict = judge(
      denying({ paramKind, validations }, { paramRef: { name: 'x', parameterNotFoundAction: 'Deny' } }),
    );
    expect(verdict.denied).toBeNull();
    expect(verdict.unknown[0]!.why).toMatch(/its params \(ConfigMap v1\) were not read/);
  });
});

describe('what the plan cannot know', () => {
  it('request.userInfo with the caller unknown (a snapshot file): unknown', () => {
    const spec = { validations: [{ expression: 'request.userInfo.username == "kubernetes-admin"' }] };
    expect(judge(denying(spec)).unknown[0]!.why).toMatch(/who runs the drain is not known/);
    expect(judge({ ...denying(spec), requester: admin }).denied).toBeNull();
    expect(judge({ ...denying(spec), requester: { username: 'ops' } }).denied).not.toBeNull();
  });

  it("the caller's groups", () => {
    const spec = { validations: [{ expression: '!("kubeadm:cluster-admins" in request.userInfo.groups)' }] };
    expect(judge({ ...denying(spec), requester: admin }).denied).not.toBeNull();
  });

  it('a function the engine lacks: unknown, never admitted', () => {
    const verdict = judge(
      denying({ validations: [{ expression: 'authorizer.group("").resource("pods").check("delete").allowed()' }] }),
    );
    expect(verdict.denied).toBeNull();
    expect(verdict.unknown).toHaveLength(1);
  });
});
