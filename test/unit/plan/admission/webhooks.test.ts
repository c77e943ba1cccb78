import type { V1MutatingWebhookConfiguration, V1ValidatingWebhookConfiguration } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../../../src/plan/build-plan.js';
import { makeIndex, makePod } from '../../builders.js';
import { nodes, options, owners, web } from '../rules-fixture.js';
import { binding, kubevirtLauncher, policy, webhookConfiguration, type WebhookSpec } from './fixtures.js';

// Admission webhooks on evictions: named on the pods they decide, with failurePolicy and timeout; the
// operators whose answers are documented (KubeVirt, Strimzi, GCS FUSE) predicted.

const validating = (name: string, webhook: string, spec: WebhookSpec = {}) =>
  webhookConfiguration('ValidatingWebhookConfiguration', name, webhook, spec) as V1ValidatingWebhookConfiguration;
const mutating = (name: string, webhook: string, spec: WebhookSpec = {}) =>
  webhookConfiguration('MutatingWebhookConfiguration', name, webhook, spec) as V1MutatingWebhookConfiguration;

const planWith = (pods: ReturnType<ReturnType<typeof web>['obj']>[], more: Parameters<typeof makeIndex>[0] = {}) =>
  buildPlan(makeIndex({ nodes, pods, ...owners, ...more }), options());

describe('webhooks named on the pods they decide', () => {
  it('a webhook on pods/eviction: named with its failurePolicy and timeout; never a silent clear', () => {
    const plan = planWith([web('web-a').obj()], {
      validatingWebhooks: [validating('demo-guard', 'guard.demo.io', { failurePolicy: 'Fail', timeoutSeconds: 5 })],
    });
    const hook = plan.pods[0]!.admission!.webhooks![0]!;
    expect(hook).toMatchObject({ name: 'guard.demo.io', failurePolicy: 'Fail', timeoutSeconds: 5, answer: 'unknown' });
    expect(plan.verdict).toBe('clear');
    expect(plan.verdictReasons).toContain(
      'shop/web-a: admission webhook "guard.demo.io" decides (failurePolicy Fail, timeout 5s): what it answers is its own (the plan cannot tell)',
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
    });
    expect(plan.pods[0]!.admission!.denied).toMatchObject({
      by: 'MutatingWebhookConfiguration',
      code: 403,
      message: 'Eviction of Mounter Pod is not allowed',
    });
  });
});
