import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { base64Of, makePki } from '../support/pki.js';
import { planRun, runMaint } from './drain-run.js';
import { kubectl, seedScenario } from './lab.js';

// Real admission webhooks on pods/eviction, served by the test on loopback over TLS (caBundle from a
// throwaway CA): one answers 429 for each pod's first tries, as KubeVirt does while it migrates a VM, then
// admits; one denies. The plan names them, the drain lives with them.

const work = mkdtempSync(path.join(tmpdir(), 'maint-webhook-e2e-'));
const WAIT_MESSAGE = (pod: string) => `pod demo/${pod} is being live-migrated by the demo operator`;
const DENY_MESSAGE = 'demo pods are moved by the demo operator, never evicted';
/** How many times the waiting webhook refuses each pod before it admits it (dry runs included). */
const REFUSALS = 4;

let server: Server;
let port: number;
let caBundle: string;
const calls = new Map<string, number>();
/** The calls admission did not mark as dry runs (the drain's real evictions), by pod. */
const realCalls = new Map<string, number>();
/** Each request's admission `dryRun` flag, in the order they came. */
const dryRuns: boolean[] = [];

interface Review {
  request: { uid: string; name: string; namespace: string; dryRun?: boolean };
}

beforeAll(async () => {
  const pki = makePki(work);
  const leaf = pki.leaf('webhook', { cn: '127.0.0.1', san: 'IP:127.0.0.1' });
  caBundle = base64Of(pki.caFile);
  server = createServer({ cert: readFileSync(leaf.cert), key: readFileSync(leaf.key) }, (req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const review = JSON.parse(body) as Review;
      const { uid, name } = review.request;
      dryRuns.push(review.request.dryRun === true);
      if (review.request.dryRun !== true) realCalls.set(name, (realCalls.get(name) ?? 0) + 1);
      const n = (calls.get(name) ?? 0) + 1;
      calls.set(name, n);
      const refuse = (code: number, message: string) => ({ uid, allowed: false, status: { code, message } });
      const response = req.url?.startsWith('/deny')
        ? refuse(403, DENY_MESSAGE)
        : n <= REFUSALS
          ? refuse(429, WAIT_MESSAGE(name))
          : { uid, allowed: true };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(work, { recursive: true, force: true });
});

function webhookYaml(mode: 'wait' | 'deny'): string {
  return `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: { name: demo-${mode} }
webhooks:
  - name: ${mode}.demo.kubectl-maint.io
    admissionReviewVersions: [v1]
    sideEffects: None
    failurePolicy: Fail
    timeoutSeconds: 5
    namespaceSelector: { matchLabels: { kubernetes.io/metadata.name: demo } }
    clientConfig:
      url: https://127.0.0.1:${port}/${mode}
      caBundle: ${caBundle}
    rules:
      - { apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods/eviction] }
`;
}

interface WebhookPlan {
  verdictReasons: string[];
  verdict: string;
  eta: { totalSeconds: number | null; uncounted?: { pods: string[]; webhooks: string[]; text: string } };
  pods: Array<{
    namespace: string;
    name: string;
    node: string;
    outcome: string;
    serverDryRun?: { answer: string; code: number; agrees: boolean };
    admission?: { webhooks?: Array<{ name: string; failurePolicy: string; timeoutSeconds: number; answer: string }> };
  }>;
}

describe('drain with admission webhooks on evictions (hello)', () => {
  beforeEach(async () => {
    await seedScenario('hello');
    calls.clear();
    realCalls.clear();
    dryRuns.length = 0;
  });
  afterEach(async () => {
    await kubectl(['delete', 'validatingwebhookconfiguration', 'demo-wait', 'demo-deny', '--ignore-not-found'], {
      reject: false,
    });
  });

  it("a webhook's 429s: the plan names it; the drain retries as that webhook with its message, within 5 s, and finishes once it admits", async () => {
    await kubectl(['apply', '-f', '-'], { input: webhookYaml('wait') });

    const planned = await planRun(['k8s-node-1', '--ignore-daemonsets', '-o', 'json']);
    const plan = JSON.parse(planned.stdout) as WebhookPlan;
    const hello = plan.pods.filter((p) => p.namespace === 'demo' && p.node === 'k8s-node-1');
    expect(hello).toHaveLength(2);
    for (const pod of hello) {
      expect(pod.admission!.webhooks).toEqual([
        expect.objectContaining({
          name: 'wait.demo.kubectl-maint.io',
          failurePolicy: 'Fail',
          timeoutSeconds: 5,
          answer: 'unknown',
        }),
      ]);
    }
    expect(plan.verdictReasons.some((r) => r.includes('admission webhook "wait.demo.kubectl-maint.io" decides'))).toBe(
      true,
    );

    // Asked, the API server answers the webhook's 429: its time cannot be counted, the estimate is at least.
    const asked = JSON.parse(
      (await planRun(['k8s-node-1', '--ignore-daemonsets', '--ask-server', '-o', 'json'])).stdout,
    ) as WebhookPlan;
    expect(asked.eta.uncounted).toMatchObject({ webhooks: ['wait.demo.kubectl-maint.io'] });
    expect([...asked.eta.uncounted!.pods].sort()).toEqual(hello.map((p) => `demo/${p.name}`).sort());
    for (const pod of asked.pods.filter((p) => hello.some((h) => h.name === p.name))) {
      expect(pod).toMatchObject({ outcome: 'waits', serverDryRun: { answer: 'waits', code: 429 } });
    }
    const shown = await planRun(['k8s-node-1', '--ignore-daemonsets', '--ask-server']);
    expect(shown.stdout).toMatch(/Estimate: at least \S+ from the first eviction until the last pod is gone/);

    const run = await runMaint(['drain', 'k8s-node-1', '--ignore-daemonsets', '-o', 'json']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.finished).toMatchObject({ result: 'drained', failed: [] });
    const retries = run.events.flatMap((e) =>
      e.type === 'pod' && e.state.phase === 'retrying' ? [{ atMs: e.atMs, state: e.state }] : [],
    );
    expect(retries.length).toBeGreaterThan(0);
    for (const { atMs, state } of retries) {
      expect(state.error).toMatch(
        /^admission webhook "wait.demo.kubectl-maint.io" denied the request: pod demo\/\S+ is being live-migrated/,
      );
      expect(state.error).not.toContain('throttled');
      expect(state.nextAttemptMs - atMs).toBeLessThanOrEqual(5_000);
    }
    // Each pod was refused REFUSALS times, then admitted: the webhook was asked again until it said yes.
    for (const pod of hello) expect(calls.get(pod.name)).toBeGreaterThan(REFUSALS);
  });

  it('plan --ask-server: each eviction sent as a dry run admission sees; the denial the plan could not predict wins', async () => {
    await kubectl(['apply', '-f', '-'], { input: webhookYaml('deny') });
    const run = await planRun(['k8s-node-1', '--ignore-daemonsets', '--ask-server', '-o', 'json']);
    const plan = JSON.parse(run.stdout) as WebhookPlan;
    expect(run.exitCode).toBe(3);
    expect(plan.verdict).toBe('blocked');
    const hello = plan.pods.filter((p) => p.namespace === 'demo' && p.node === 'k8s-node-1');
    for (const pod of hello) {
      expect(pod.serverDryRun).toMatchObject({ answer: 'refused', code: 403, agrees: false });
      expect(pod.outcome).toBe('blocked');
    }
    expect(plan.verdictReasons.filter((r) => r.endsWith('the answer wins'))).toHaveLength(2);
    // Admission was told each was a dry run, and nothing moved.
    expect(dryRuns).toEqual([true, true]);
  });

  it('drain --dry-run=server: admission sees a dry run (the dryRun=All query), not a real request', async () => {
    await kubectl(['apply', '-f', '-'], { input: webhookYaml('wait') });
    const run = await runMaint(['drain', 'k8s-node-1', '--ignore-daemonsets', '--dry-run=server', '-o', 'json']);
    expect(run.finished?.result).toBe('dry-run');
    expect(dryRuns.length).toBeGreaterThan(0);
    expect(dryRuns.every((d) => d)).toBe(true);
    // The webhook's 429 is the dry run's answer: each pod refused in its words, not retried until the timeout.
    const verdicts = run.events.flatMap((e) => (e.type === 'pod' && e.state.phase === 'dry-run' ? [e.state] : []));
    expect(verdicts.length).toBeGreaterThan(0);
    for (const v of verdicts) {
      expect(v).toMatchObject({ admitted: false, pdb: null });
      expect(v.reason).toMatch(/^admission webhook "wait.demo.kubectl-maint.io" denied the request: /);
    }
  });

  it("the plan a drain shows first asks the admission chain (dry runs admission sees); its answer beside the plan's; --ask-server=false does not", async () => {
    await kubectl(['apply', '-f', '-'], { input: webhookYaml('deny') });
    const run = await runMaint(['drain', 'k8s-node-1', '--ignore-daemonsets']);
    expect(run.exitCode).not.toBe(0);
    const hello = [...calls.keys()];
    expect(hello).toHaveLength(2);
    for (const pod of hello) {
      expect(run.stdout).toMatch(
        new RegExp(
          `demo/${pod}\\s+the API server's dry run: refused: admission webhook "deny.demo.kubectl-maint.io" denied the request: ${DENY_MESSAGE} \\(HTTP 403\\)`,
        ),
      );
    }
    expect(run.stdout).toContain('BLOCKED');
    // The plan's dry runs came first, each marked so for admission; then one real eviction per pod.
    expect(dryRuns).toEqual([true, true, false, false]);

    calls.clear();
    realCalls.clear();
    dryRuns.length = 0;
    const off = await runMaint(['drain', 'k8s-node-1', '--ignore-daemonsets', '--ask-server=false', '-o', 'json']);
    expect(off.finished?.result).toBe('failed');
    expect(dryRuns).toEqual([false, false]);
  });

  it("a webhook's denial ends each pod's attempts once; the summary says what to do", async () => {
    await kubectl(['apply', '-f', '-'], { input: webhookYaml('deny') });
    const run = await runMaint(['drain', 'k8s-node-1', '--ignore-daemonsets', '-o', 'json']);
    expect(run.exitCode).not.toBe(0);
    expect(run.finished?.result).toBe('failed');
    expect(run.finished?.failed).toHaveLength(2);
    for (const f of run.finished!.failed) {
      expect(f.error).toBe(
        `admission webhook "deny.demo.kubectl-maint.io" denied the request: ${DENY_MESSAGE} (HTTP 403)`,
      );
      // Asked once for real (after the plan's dry run): a denial is not retried.
      expect(realCalls.get(f.pod.name)).toBe(1);
    }

    const text = await runMaint(['drain', 'k8s-node-1', '--ignore-daemonsets']);
    const output = `${text.stdout}\n${text.stderr}`;
    const failedLines = output.split('\n').filter((l) => l.trim().startsWith('failed:'));
    expect(failedLines).toHaveLength(1);
    expect(output).toMatch(
      /why: the admission chain refuses these evictions \(admission webhook "deny.demo.kubectl-maint.io"\)/,
    );
  });
});
