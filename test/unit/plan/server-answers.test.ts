import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../../src/plan/build-plan.js';
import { podsToAsk, withServerAnswers } from '../../../src/plan/server-answers.js';
import { admissionSection } from '../../../src/ui/plan-sections.js';
import { makeIndex } from '../builders.js';
import { nodes, options, owners, web } from './rules-fixture.js';
import { binding, policy } from './admission/fixtures.js';

// plan --ask-server: the API server's dry-run answers beside the plan's predictions; where they differ the answer wins.

const twoPods = () => makeIndex({ nodes, pods: [web('web-a').obj(), web('web-b').obj()], ...owners });

describe('the API server dry-run answers beside the plan', () => {
  it('admitted where the plan evicts at once: agrees, the verdict unchanged', () => {
    const plan = buildPlan(twoPods(), options());
    const answers = new Map(
      podsToAsk(plan).map((p) => [`${p.namespace}/${p.name}`, { answer: 'admitted' as const, code: 201, message: '' }]),
    );
    const asked = withServerAnswers(plan, answers);
    expect(asked.verdict).toBe(plan.verdict);
    expect(asked.pods.map((p) => p.serverDryRun?.agrees)).toEqual([true, true]);
    expect(asked.pods[0]!.serverDryRun!.text).toBe("the API server's dry run: admitted");
  });

  it('a refusal the plan did not predict wins: the pod blocked, the verdict blocked, said first', () => {
    const plan = buildPlan(twoPods(), options());
    const refused = {
      answer: 'refused' as const,
      code: 403,
      message: 'admission webhook "w.io" denied the request: no',
    };
    const asked = withServerAnswers(plan, new Map([['shop/web-a', refused]]));
    expect(asked.verdict).toBe('blocked');
    expect(asked.pods[0]).toMatchObject({ outcome: 'blocked', wave: null, serverDryRun: { agrees: false } });
    expect(asked.pods[1]!.serverDryRun).toBeUndefined();
    expect(asked.verdictReasons[0]).toBe(
      'shop/web-a: the API server\'s dry run: refused: admission webhook "w.io" denied the request: no (HTTP 403), where the plan predicted an eviction at once; the answer wins',
    );
  });

  it("a policy's denial the plan predicted, refused with the same code: agrees", () => {
    const index = makeIndex({
      nodes,
      pods: [web('web-a').obj()],
      ...owners,
      validatingAdmissionPolicies: [policy('p')],
      validatingAdmissionPolicyBindings: [binding('b', 'p')],
    });
    const plan = buildPlan(index, options());
    const asked = withServerAnswers(
      plan,
      new Map([['shop/web-a', { answer: 'refused' as const, code: 422, message: 'x' }]]),
    );
    expect(asked.pods[0]!.serverDryRun!.agrees).toBe(true);
    expect(asked.verdictReasons).toEqual(plan.verdictReasons);
  });

  it("two policies denying with different codes: the other policy's code agrees too (the API server reports either)", () => {
    const index = makeIndex({
      nodes,
      pods: [web('web-a').obj()],
      ...owners,
      validatingAdmissionPolicies: [
        policy('p'),
        policy('q', { validations: [{ expression: 'false', message: 'no', reason: 'Forbidden' }] }),
      ],
      validatingAdmissionPolicyBindings: [binding('b', 'p'), binding('c', 'q')],
    });
    const plan = buildPlan(index, options());
    expect(plan.pods[0]!.admission!.denied!.code).toBe(422);
    const asked = withServerAnswers(
      plan,
      new Map([['shop/web-a', { answer: 'refused' as const, code: 403, message: 'x' }]]),
    );
    expect(asked.pods[0]!.serverDryRun!.agrees).toBe(true);
  });
});

describe('answers the API server gives beside its verdict', () => {
  it("a webhook with sideEffects Some or Unknown: not answered, the plan's prediction stands, said once per webhook", () => {
    const plan = buildPlan(twoPods(), options());
    const noDryRun = {
      answer: 'no-dry-run' as const,
      code: 400,
      message: 'admission webhook "legacy.example.io" does not support dry run',
      webhook: 'legacy.example.io',
    };
    const asked = withServerAnswers(
      plan,
      new Map([
        ['shop/web-a', noDryRun],
        ['shop/web-b', noDryRun],
      ]),
    );
    expect(asked.verdict).toBe(plan.verdict);
    expect(asked.pods.map((p) => p.outcome)).toEqual(plan.pods.map((p) => p.outcome));
    expect(asked.pods[0]!.serverDryRun).toMatchObject({ agrees: true, webhook: 'legacy.example.io' });
    expect(asked.pods[0]!.serverDryRun!.text).toBe(
      'the API server\'s dry run: not answered: admission webhook "legacy.example.io" does not support dry run (HTTP 400): its sideEffects are Some or Unknown, so the API server refuses any dry run it meets',
    );
    const added = asked.caveatScopes.slice(plan.caveatScopes.length);
    expect(added).toHaveLength(1);
    expect(added[0]!.pods).toEqual(['shop/web-a', 'shop/web-b']);
    expect(added[0]!.caveat).toMatch(/^admission webhook "legacy.example.io" does not support dry run/);
    expect(asked.caveats.at(-1)).toBe(added[0]!.caveat);
  });

  it("the API server's warnings are kept on the answer and shown as kubectl shows them, once beside the plan's own", () => {
    const index = makeIndex({
      nodes,
      pods: [web('web-a').obj(), web('web-b').obj()],
      ...owners,
      validatingAdmissionPolicies: [policy('p')],
      validatingAdmissionPolicyBindings: [binding('b', 'p', { actions: ['Warn'] })],
    });
    const plan = buildPlan(index, options());
    const predicted = plan.pods[0]!.admission!.warnings[0]!;
    const asked = withServerAnswers(
      plan,
      new Map([
        ['shop/web-a', { answer: 'admitted' as const, code: 201, message: '', warnings: [predicted] }],
        ['shop/web-b', { answer: 'admitted' as const, code: 201, message: '', warnings: ['another'] }],
      ]),
    );
    expect(asked.pods[0]!.serverDryRun!.warnings).toEqual([predicted]);
    const rows = admissionSection(asked).rows.map((r) => r.join('  '));
    expect(rows.filter((r) => r === `shop/web-a  Warning: ${predicted}`)).toHaveLength(1);
    expect(rows).toContain('shop/web-b  Warning: another');
    expect(rows).toContain(`shop/web-b  Warning: ${predicted}`);
  });

  // A binding that read ConfigMap params and admitted is a caveat on the pod, not a row of its own.
  const readingParams = {
    validatingAdmissionPolicies: [
      policy('guard', { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{ expression: 'true' }] }),
    ],
    validatingAdmissionPolicyBindings: [
      binding('guard-binding', 'guard', { paramRef: { name: 'rules', parameterNotFoundAction: 'Allow' } }),
    ],
    admissionParams: [{ apiVersion: 'v1', kind: 'ConfigMap', namespaced: true, objects: [] }],
  };
  it.each([
    ['nothing else concerns', twoPods],
    [
      'only a binding that read params concerns',
      () => makeIndex({ nodes, pods: [web('web-a').obj(), web('web-b').obj()], ...owners, ...readingParams }),
    ],
  ])('dry runs admitted as predicted, of pods %s, are one row', (_, index) => {
    const plan = buildPlan(index(), options());
    if (index !== twoPods) expect(plan.pods[0]!.admission!.cachedParams).toEqual(['guard/guard-binding']);
    const admitted = { answer: 'admitted' as const, code: 201, message: '' };
    const asked = withServerAnswers(
      plan,
      new Map([
        ['shop/web-a', admitted],
        ['shop/web-b', admitted],
      ]),
    );
    expect(admissionSection(asked)).toMatchObject({
      title: "Admission (2): what the API server's admission chain answers the drain",
      rows: [['2 pods', "the API server's dry run: admitted each eviction"]],
      tones: ['muted'],
    });
  });
});
