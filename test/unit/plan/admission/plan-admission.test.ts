import { describe, expect, it } from 'vitest';
import { planExitCode } from '../../../../src/cli/exit-codes.js';
import { buildPlan } from '../../../../src/plan/build-plan.js';
import { SNAPSHOT_KINDS } from '../../../../src/snapshot/types.js';
import { makeIndex, makePdb } from '../../builders.js';
import { nodes, options, owners, web } from '../rules-fixture.js';
import { binding, policy } from './fixtures.js';
import { admissionSection } from '../../../../src/ui/plan-sections.js';

// A policy in the plan: a denied eviction is its own outcome, blocked, with the policy and its message.

const MESSAGE = 'evictions of shop pods are handled by the shop operator: it migrates them itself';
const guard = (actions: ('Deny' | 'Warn')[] = ['Deny']) => ({
  validatingAdmissionPolicies: [policy('protect-shop', { validations: [{ expression: 'false', message: MESSAGE }] })],
  validatingAdmissionPolicyBindings: [binding('protect-shop-binding', 'protect-shop', { actions })],
});
const budget = makePdb()
  .name('web')
  .ns('shop')
  .selector({ app: 'web' })
  .maxUnavailable(1)
  .status({ disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3 })
  .obj();

describe('a ValidatingAdmissionPolicy in the plan', () => {
  it('Deny: each pod blocked, naming the policy and its message; the verdict blocked (exit 3), saying what to do', () => {
    const pods = [web('web-a').obj(), web('web-b').obj(), web('web-c', 'n2').obj()];
    const plan = buildPlan(makeIndex({ nodes, pods, pdbs: [budget], ...owners, ...guard() }), options());
    expect(plan.verdict).toBe('blocked');
    expect(planExitCode(plan, false)).toBe(3);
    const [a, b] = plan.pods;
    for (const p of [a!, b!]) {
      expect(p.outcome).toBe('blocked');
      expect(p.wave).toBeNull();
      expect(p.admission!.denied).toMatchObject({
        name: 'protect-shop',
        binding: 'protect-shop-binding',
        message: MESSAGE,
        code: 422,
      });
      expect(p.outcomeReason).toContain(
        `ValidatingAdmissionPolicy 'protect-shop' (binding 'protect-shop-binding'): ${MESSAGE} (HTTP 422)`,
      );
      expect(p.admission!.deleteInstead).toEqual({
        admitted: true,
        text: '--disable-eviction deletes the pod instead, which no policy denies (and which no budget limits)',
      });
    }
    expect(plan.verdictReasons[0]).toMatch(
      /^cannot evict shop\/web-a, shop\/web-b: the API server denies its eviction/,
    );
    // The budget is not spent on pods that never leave.
    expect(plan.budgets[0]!.drainedPods).toEqual(['shop/web-a', 'shop/web-b']);
    expect(plan.eta!.totalSeconds).toBeNull();
  });

  it('a policy denying the delete too: --disable-eviction would not help', () => {
    const both = {
      validatingAdmissionPolicies: [
        policy('protect-shop', {
          rules: [
            {
              apiGroups: [''],
              apiVersions: ['v1'],
              resources: ['pods', 'pods/eviction'],
              operations: ['CREATE', 'DELETE'],
            },
          ],
          validations: [{ expression: 'false', message: MESSAGE }],
        }),
      ],
      validatingAdmissionPolicyBindings: [binding('protect-shop-binding', 'protect-shop')],
    };
    const plan = buildPlan(makeIndex({ nodes, pods: [web('web-a').obj()], ...owners, ...both }), options());
    expect(plan.pods[0]!.admission!.deleteInstead!.admitted).toBe(false);
    const deleting = buildPlan(
      makeIndex({ nodes, pods: [web('web-a').obj()], ...owners, ...both }),
      options({ disableEviction: true }),
    );
    expect(deleting.verdict).toBe('blocked');
    expect(deleting.pods[0]!.admission!.request).toBe('DELETE pods');
    expect(deleting.pods[0]!.outcomeReason).toMatch(/^the API server denies its delete/);
  });

  it('two policies denying: the pod names both, since the API server reports either', () => {
    const two = {
      validatingAdmissionPolicies: [...guard().validatingAdmissionPolicies, policy('protect-all')],
      validatingAdmissionPolicyBindings: [
        ...guard().validatingAdmissionPolicyBindings,
        binding('protect-all-binding', 'protect-all'),
      ],
    };
    const plan = buildPlan(makeIndex({ nodes, pods: [web('web-a').obj()], ...owners, ...two }), options());
    const admission = plan.pods[0]!.admission!;
    expect(admission.denied).toMatchObject({ name: 'protect-all', message: 'no evictions' });
    expect(admission.deniedAlso).toEqual([expect.objectContaining({ name: 'protect-shop', message: MESSAGE })]);
    expect(plan.verdict).toBe('blocked');
    expect(admissionSection(plan).rows.map((r) => r[1])).toEqual([
      `denied: ${admission.denied!.text} (HTTP 422)`,
      `or denied: ${admission.deniedAlso![0]!.text} (HTTP 422): the API server names one denying policy, in no set order`,
    ]);
  });

  it('Warn: the verdict unchanged, the warning carried on the pod', () => {
    const plan = buildPlan(makeIndex({ nodes, pods: [web('web-a').obj()], ...owners, ...guard(['Warn']) }), options());
    expect(plan.verdict).toBe('clear');
    expect(plan.pods[0]!.admission!.warnings).toEqual([
      `Validation failed for ValidatingAdmissionPolicy 'protect-shop' with binding 'protect-shop-binding': ${MESSAGE}`,
    ]);
  });

  it('a policy the plan cannot judge: the eviction is not called admitted', () => {
    const unknown = {
      validatingAdmissionPolicies: [
        policy('who', { validations: [{ expression: 'request.userInfo.username != "ops"' }] }),
      ],
      validatingAdmissionPolicyBindings: [binding('who-binding', 'who')],
    };
    const plan = buildPlan(makeIndex({ nodes, pods: [web('web-a').obj()], ...owners, ...unknown }), options());
    expect(plan.verdict).toBe('blocked');
    expect(plan.pods[0]!.outcomeUnknown).toMatch(
      /^ValidatingAdmissionPolicy 'who' may deny its eviction: .*who runs the drain is not known/,
    );
  });

  it('policies not read: a caveat on the removed pods, not a verdict', () => {
    const kinds = SNAPSHOT_KINDS.filter((k) => k !== 'ValidatingAdmissionPolicy');
    const plan = buildPlan(makeIndex({ nodes, pods: [web('web-a').obj()], ...owners, kinds }), options());
    expect(plan.verdict).toBe('clear');
    expect(plan.caveatScopes).toContainEqual({
      caveat: "ValidatingAdmissionPolicies were not read: a policy may deny the drain's requests",
      pods: ['shop/web-a'],
    });
  });
});

describe("params the API server reads from its informer (a built-in paramKind's)", () => {
  const params = [
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      namespaced: true,
      objects: [{ metadata: { name: 'rules', namespace: 'shop' }, data: { guarded: 'db' } }],
    },
  ];
  const withParams = {
    validatingAdmissionPolicies: [
      policy('guard', {
        paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        validations: [{ expression: '!object.metadata.name.startsWith(params.data.guarded)', message: MESSAGE }],
      }),
    ],
    validatingAdmissionPolicyBindings: [
      binding('guard-binding', 'guard', { paramRef: { name: 'rules', parameterNotFoundAction: 'Deny' } }),
    ],
    admissionParams: params,
  };
  const plan = (serverVersion: string) =>
    buildPlan(
      makeIndex({
        nodes,
        pods: [web('web-a').obj(), web('web-c', 'n2').obj()],
        ...owners,
        ...withParams,
        serverVersion,
      }),
      options(),
    );

  it('admits as the params say, with a caveat on the pods the binding judged that names it', () => {
    const p = plan('v1.37.2');
    expect(p.pods[0]!.admission).toMatchObject({ cachedParams: ['guard/guard-binding'], warnings: [] });
    expect(p.pods[0]!.admission!.denied).toBeUndefined();
    const scope = p.caveatScopes.find((c) => c.caveat.startsWith('ValidatingAdmissionPolicy params'));
    expect(scope?.pods).toEqual(['shop/web-a']);
    expect(scope?.caveat).toContain('guard/guard-binding reads its params from the API server');
    expect(scope?.caveat).toContain('it then judges with the params it saw last;');
    expect(scope?.caveat).not.toContain('no params found');
  });

  it('before 1.37 the API server, not finding them in its informer, denies "no params found" under Deny', () => {
    const caveat = plan('v1.34.4').caveats.find((c) => c.startsWith('ValidatingAdmissionPolicy params'));
    expect(caveat).toContain('or denies "no params found" where the binding says Deny');
  });
});
