import { describe, expect, it } from 'vitest';
import { webhookAnswer, webhookOfUrl } from '../../../scripts/fidelity/webhook-server.js';

// The harness's admission webhooks: each one's URL says how it answers, and the API server adds a query.

describe('webhookOfUrl', () => {
  it('reads the webhook from the path, whatever query the API server adds (its timeout)', () => {
    expect(webhookOfUrl('/virt-launcher-eviction-interceptor.kubevirt.io/kubevirt/web-2/2?timeout=5s')).toEqual({
      name: 'virt-launcher-eviction-interceptor.kubevirt.io',
      mode: 'kubevirt',
      target: 'web-2',
      refusals: 2,
    });
  });
});

describe('webhookAnswer', () => {
  const pod = (name: string) => ({ namespace: 'fidelity', name });

  it("KubeVirt: 429 to its target's pods for the first REFUSALS real calls, then admits; any other pod at once", () => {
    const answers = [1, 2, 3].map((call) => webhookAnswer('kubevirt', 'web-2', 2, pod('web-2-abc'), call).allowed);
    expect(answers).toEqual([false, false, true]);
    expect(webhookAnswer('kubevirt', 'web-2', 2, pod('web-2-abc'), 1)).toMatchObject({
      code: 429,
      message: 'Eviction triggered evacuation of VMI "fidelity/web-2"',
    });
    expect(webhookAnswer('kubevirt', 'web-2', 2, pod('web-20-abc'), 1).allowed).toBe(true);
  });

  it("Strimzi: 500 to its target's pods, every time; admits the rest", () => {
    expect(webhookAnswer('strimzi', 'db-1', 0, pod('db-1-0'), 5)).toMatchObject({ allowed: false, code: 500 });
    expect(webhookAnswer('strimzi', 'db-1', 0, pod('db-2-0'), 1).allowed).toBe(true);
  });
});
