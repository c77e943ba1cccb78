import type { V1MutatingWebhookConfiguration, V1ValidatingWebhookConfiguration } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../../../src/plan/build-plan.js';
import { makeIndex, makePdb, makePod } from '../../builders.js';
import { nodes, options, owners, web } from '../rules-fixture.js';
import { binding, kubevirtLauncher, policy, webhookConfiguration, type WebhookSpec } from './fixtures.js';

// Admission webhooks on evictions: named on the pods they decide, with failurePolicy and timeout; the
// operators whose answers are documented (KubeVirt, Strimzi, GCS FUSE) predicted.

const validating = (name: string, webhook: string, spec: WebhookSpec = {}) =>
  webhookConfiguration('ValidatingWebhookConfiguration', name, webhook, spec) as V1ValidatingWebhookConfiguration;
const mutating = (name: string, webhook: string, spec: WebhookSpec = {}) =>
  webhookConfiguration('MutatingWebhookConfiguration', name, webhook, spec) as V1MutatingWebhookConfiguration;

const budget = makePdb()
  .name('web')
  .ns('shop')
  .selector({ app: 'web' })
  .maxUnavailable(2)
  .status({ disruptionsAllowed: 2, currentHealthy: 2, desiredHealthy: 0, expectedPods: 2 })
  .obj();

const planWith = (pods: ReturnType<ReturnType<typeof web>['obj']>[], more: Parameters<typeof makeIndex>[0] = {}) =>
  buildPlan(makeIndex({ nodes, pods, ...owners, ...more }), options());

describe('webhooks named on the pods they decide', () => {
  it('a webhook the plan does not know: named with its failurePolicy and timeout; the pod may never go, its time not counted', () => {
    const plan = planWith([web('web-a').obj(), web('web-b').obj()], {
      pdbs: [budget],
      validatingWebhooks: [
        validating('demo-guard', 'guard.demo.io', {
          failurePolicy: 'Fail',
          timeoutSeconds: 5,
          matchConditions: [{ name: 'a', expression: 'object.metadata.name.endsWith("-a")' }],
        }),
      ],
    });
    const [a, b] = plan.pods;
    const hook = a!.admission!.webhooks![0]!;
    expect(hook).toMatchObject({ name: 'guard.demo.io', failurePolicy: 'Fail', timeoutSeconds: 5, answer: 'unknown' });
    // It may refuse the eviction, or answer 429 for as long as it likes: not "evicted at once".
    const decides =
      'admission webhook "guard.demo.io" decides (failurePolicy Fail, timeout 5s): what it answers is its own (the plan cannot tell)';
    expect(a!.outcomeUnknown).toBe(decides);
    expect(b!.outcomeUnknown).toBeUndefined();
    expect(plan.budgets[0]!.unknown).toBe(decides);
    expect(plan.verdict).toBe('blocked');
    expect(plan.verdictReasons).toEqual([
      `whether shop/web-a can be evicted is unknown, so the drain may not finish: ${decides}`,
    ]);
    expect(plan.eta!.uncounted).toEqual({
      pods: ['shop/web-a'],
      webhooks: ['guard.demo.io'],
      text: 'the time of shop/web-a cannot be counted: admission webhook "guard.demo.io" decides when, or whether, it admits the eviction',
    });
  });

  it('a mutating one it does not know comes first in the chain: the pod is unknown for it, not for the validating one', () => {
    const plan = planWith([web('web-a').obj()], {
      mutatingWebhooks: [mutating('tag', 'tag.demo.io')],
      validatingWebhooks: [validating('demo-guard', 'guard.demo.io')],
    });
    expect(plan.pods[0]!.admission!.webhooks!.map((w) => w.answer)).toEqual(['unknown', 'unknown']);
    expect(plan.pods[0]!.outcomeUnknown).toMatch(/^admission webhook "tag.demo.io" decides/);
    // The validating one is still said, on its own line.
    expect(plan.verdictReasons).toContainEqual(
      expect.stringMatching(/^shop\/web-a: admission webhook "guard.demo.io" decides/),
    );
  });

  it.each([
    [['pods'], false],
    [['pods/*'], true],
    [['*/eviction'], true],
    [['*'], false],
  ])('rule resources %j match an eviction: %s', (resources, matches) => {
    const plan = planWith([web('web-a').obj()], { validatingWebhooks: [validating('c', 'w.io', { resources })] });
    expect(plan.pods[0]!.admission?.webhooks?.length ?? 0).toBe(matches ? 1 : 0);
  });

  it("an objectSelector on the pod's labels never selects the eviction; matchConditions on its name do", () => {
    const plan = planWith([web('web-a').obj(), web('web-b').obj()], {
      validatingWebhooks: [
        validating('labels', 'labels.io', { objectSelector: { matchLabels: { app: 'web' } } }),
        validating('names', 'names.io', {
          matchConditions: [{ name: 'a', expression: 'object.metadata.name.endsWith("-a")' }],
        }),
      ],
    });
    expect(plan.pods.map((p) => (p.admission?.webhooks ?? []).map((w) => w.name))).toEqual([['names.io'], []]);
  });
});

describe('operators whose answers are documented', () => {
  it('KubeVirt: a launcher pod waits for the live migration (429), the verdict slow', () => {
    const plan = planWith([kubevirtLauncher()], {
      validatingWebhooks: [
        validating('virt-api-validator', 'virt-launcher-eviction-interceptor.kubevirt.io', {
          failurePolicy: 'Fail',
          timeoutSeconds: 10,
          sideEffects: 'NoneOnDryRun',
          matchConditions: [{ name: 'launcher', expression: 'object.metadata.name.startsWith("virt-launcher")' }],
        }),
      ],
    });
    const pod = plan.pods[0]!;
    expect(pod.admission!.webhooks![0]).toMatchObject({ operator: 'KubeVirt', answer: 'wait', code: 429 });
    expect(pod.outcome).toBe('waits');
    expect(pod.outcomeReason).toContain('live-migrated by KubeVirt (VMI vm1)');
    expect(plan.verdict).toBe('slow');
  });

  it('Strimzi: a Kafka broker is denied (500), Strimzi rolls it: blocked, drain again after', () => {
    const broker = makePod()
      .name('my-cluster-kafka-0')
      .ns('kafka')
      .node('n1')
      .label('strimzi.io/kind', 'Kafka')
      .label('strimzi.io/name', 'my-cluster-kafka')
      .owner('StrimziPodSet', 'my-cluster-kafka')
      .obj();
    const plan = planWith([broker, web('web-a').obj()], {
      validatingWebhooks: [
        validating('strimzi-drain-cleaner', 'strimzi-drain-cleaner.strimzi.io', {
          failurePolicy: 'Ignore',
          timeoutSeconds: 5,
        }),
      ],
    });
    const [kafka, other] = plan.pods;
    expect(kafka!.outcome).toBe('blocked');
    expect(kafka!.admission!.denied).toMatchObject({
      by: 'ValidatingWebhookConfiguration',
      name: 'strimzi-drain-cleaner.strimzi.io',
      code: 500,
      text: 'admission webhook "strimzi-drain-cleaner.strimzi.io" denied the request: The pod will be rolled by the Strimzi Cluster Operator',
    });
    expect(kafka!.outcomeReason).toContain('denied: Strimzi rolls the pod, drain again after it');
    expect(other!.outcome).toBe('immediate');
    expect(other!.admission!.webhooks![0]!.answer).toBe('admit');
    expect(plan.verdict).toBe('blocked');
  });

  it('GCS FUSE: a mounter pod is refused (403) by the mutating webhook, before any policy', () => {
    const mounter = makePod().name('gcsfusecsi-mount-xyz').ns('gcs').node('n1').owner('ReplicaSet', 'm').obj();
    const plan = planWith([mounter], {
      mutatingWebhooks: [
        mutating('gcsfuse-sidecar-injector.csi.storage.gke.io', 'gcsfuse-sidecar-injector.csi.storage.gke.io', {
          resources: ['pods', 'pods/eviction'],
          failurePolicy: 'Ignore',
          timeoutSeconds: 3,
        }),
      ],
      validatingAdmissionPolicies: [policy('p')],
      validatingAdmissionPolicyBindings: [binding('b', 'p')],
      validatingWebhooks: [validating('demo-guard', 'guard.demo.io')],
    });
    expect(plan.pods[0]!.admission!.denied).toMatchObject({
      by: 'MutatingWebhookConfiguration',
      code: 403,
      message: 'Eviction of Mounter Pod is not allowed',
    });
    // Refused for certain before the webhook the plan does not know: blocked, not unknown.
    expect(plan.pods[0]).toMatchObject({ outcome: 'blocked' });
    expect(plan.pods[0]!.outcomeUnknown).toBeUndefined();
  });
});
