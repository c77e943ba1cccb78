import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../../src/plan/build-plan.js';
import { podsToAsk, withServerAnswers } from '../../../src/plan/server-answers.js';
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
});
