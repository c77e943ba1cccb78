import type { V1ValidatingWebhookConfiguration } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../../src/plan/build-plan.js';
import { podsToAsk, withServerAnswers } from '../../../src/plan/server-answers.js';
import { etaSection } from '../../../src/ui/plan-sections.js';
import { drainQuestion } from '../../../src/ui/proceed-question.js';
import { makeIndex } from '../builders.js';
import { nodes, options, owners, web } from './rules-fixture.js';
import { kubevirtLauncher, webhookConfiguration } from './admission/fixtures.js';

// A pod whose eviction an operator's webhook takes over (429 until it has moved the pod): its time is the
// operator's, so the estimate is "at least", naming the pods.

const KUBEVIRT = 'virt-launcher-eviction-interceptor.kubevirt.io';
const interceptor = webhookConfiguration('ValidatingWebhookConfiguration', 'virt-api-validator', KUBEVIRT, {
  matchConditions: [{ name: 'launcher', expression: 'object.metadata.name.startsWith("virt-launcher")' }],
}) as V1ValidatingWebhookConfiguration;
const launcher = kubevirtLauncher();
const target = { context: 'lab', server: 'https://127.0.0.1:6443' };

describe('the time an operator takes over is not counted', () => {
  it("KubeVirt's live migration: the estimate is at least, naming the launcher pod and the webhook", () => {
    const plan = buildPlan(
      makeIndex({ nodes, pods: [launcher, web('web-a').obj()], ...owners, validatingWebhooks: [interceptor] }),
      options(),
    );
    expect(plan.eta!.uncounted).toEqual({
      pods: ['vms/virt-launcher-vm1-abcde'],
      webhooks: [KUBEVIRT],
      text: `the time of vms/virt-launcher-vm1-abcde cannot be counted: admission webhook "${KUBEVIRT}" answers 429 until its operator has moved the pod (a live migration, a roll), for as long as that takes`,
    });
    const section = etaSection(plan);
    expect(section.title).toMatch(/^Estimate: at least \S+ from the first eviction until the last pod is gone$/);
    expect(section.lines).toContain(`not counted: ${plan.eta!.uncounted!.text}`);
    const question = drainQuestion(plan, { verb: 'evict', pods: 2 }, target, 200);
    expect(question).toMatch(/· at least \S+\n/);
  });

  it('without such a webhook: about, nothing uncounted', () => {
    const plan = buildPlan(makeIndex({ nodes, pods: [web('web-a').obj()], ...owners }), options());
    expect(plan.eta!.uncounted).toBeUndefined();
    expect(etaSection(plan).title).toMatch(/^Estimate: about /);
  });

  it("a webhook's 429 to the dry run (--ask-server): the pod waits, the drain is slow, its time not counted", () => {
    const plan = buildPlan(makeIndex({ nodes, pods: [web('web-a').obj(), web('web-b').obj()], ...owners }), options());
    expect(plan.verdict).toBe('clear');
    const message = 'admission webhook "wait.demo.io" denied the request: shop/web-a is being moved';
    const answers = new Map(
      podsToAsk(plan).map((p) => [
        `${p.namespace}/${p.name}`,
        p.name === 'web-a'
          ? { answer: 'waits' as const, code: 429, message, webhook: 'wait.demo.io' }
          : { answer: 'admitted' as const, code: 201, message: '' },
      ]),
    );
    const asked = withServerAnswers(plan, answers);
    expect(asked.verdict).toBe('slow');
    expect(asked.pods.find((p) => p.name === 'web-a')!.outcome).toBe('waits');
    expect(asked.eta!.uncounted).toMatchObject({ pods: ['shop/web-a'], webhooks: ['wait.demo.io'] });
    expect(asked.verdictReasons[0]).toMatch(/^shop\/web-a: the API server's dry run: refused for now \(429\): /);
    expect(asked.verdictReasons).not.toContain(plan.verdictReasons[0]);
  });
});
