import { beforeEach, describe, expect, it } from 'vitest';
import { kubectl, seedScenario } from './lab.js';
import { runMaint, statesOf, planRun } from './drain-run.js';

// Bounded escalation: two single-replica Deployments on k8s-node-1, each under a minAvailable 1 budget
// that never allows its eviction, in namespaces esc-named and esc-other. Only esc-named is escalated.

const lockedApp = (ns: string) => `
apiVersion: v1
kind: Namespace
metadata: {name: ${ns}, labels: {lab.kubectl-maint.io/scenario: 'true'}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: app, namespace: ${ns}}
spec:
  replicas: 1
  selector: {matchLabels: {app: locked}}
  template:
    metadata: {labels: {app: locked}}
    spec:
      terminationGracePeriodSeconds: 1
      nodeSelector: {kubernetes.io/hostname: k8s-node-1}
      containers: [{name: main, image: registry.k8s.io/pause:3.10}]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: app, namespace: ${ns}}
spec:
  minAvailable: 1
  selector: {matchLabels: {app: locked}}
`;

const ONLY_LOCKED = ['k8s-node-1', '--ignore-daemonsets', '--pod-selector', 'app=locked'];
const ESCALATE = ['--escalate-after', '3s', '--escalate-namespace', 'esc-named'];

async function podOf(ns: string): Promise<{ uid: string; deleting: boolean } | null> {
  const { stdout } = await kubectl(['get', 'pods', '-n', ns, '-o', 'json']);
  const items = (
    JSON.parse(String(stdout)) as { items: Array<{ metadata: { uid: string; deletionTimestamp?: string } }> }
  ).items;
  const pod = items[0];
  return pod ? { uid: pod.metadata.uid, deleting: Boolean(pod.metadata.deletionTimestamp) } : null;
}

describe('kubectl maint drain --escalate-after', () => {
  beforeEach(async () => {
    await seedScenario('hello');
    await kubectl(['apply', '-f', '-'], { input: lockedApp('esc-named') + '---' + lockedApp('esc-other') });
    for (const ns of ['esc-named', 'esc-other'])
      await kubectl(['rollout', 'status', '-n', ns, 'deployment/app', '--timeout=60s']);
  });

  it('the plan names the pod it would escalate and when; the other namespace still blocks', async () => {
    const plan = await planRun([...ONLY_LOCKED, ...ESCALATE, '-o', 'json']);
    expect(plan.exitCode, plan.stderr).toBe(3);
    const planned = JSON.parse(plan.stdout) as {
      pods: Array<{ namespace: string; escalation?: { afterSeconds: number; when: string } }>;
    };
    expect(planned.pods.map((p) => [p.namespace, p.escalation ?? null])).toEqual([
      ['esc-named', expect.objectContaining({ afterSeconds: 3, when: 'certain' })],
      ['esc-other', null],
    ]);
  });

  it('deletes only the named namespace’s pod, after its budget refused it for the duration, loudly', async () => {
    const named = await podOf('esc-named');
    const other = await podOf('esc-other');
    const run = await runMaint(['drain', ...ONLY_LOCKED, ...ESCALATE, '--timeout', '20s', '-o', 'json']);

    expect(run.exitCode, run.stderr).toBe(1);
    expect(run.finished?.result).toBe('timeout');
    const escalations = run.events.filter((e) => e.type === 'escalating');
    expect(escalations).toEqual([
      expect.objectContaining({
        pod: expect.objectContaining({ namespace: 'esc-named', uid: named!.uid }),
        pdb: 'app',
      }),
    ]);
    const refusedFor = (escalations[0] as { refusedForMs: number }).refusedForMs;
    expect(refusedFor).toBeGreaterThanOrEqual(3000);
    const namedStates = statesOf(run, run.finished!.escalated![0]!.name);
    expect(namedStates.some((s) => s.phase === 'waiting-for-budget')).toBe(true);
    expect(namedStates.at(-1)).toEqual({ phase: 'gone', how: 'escalated' });
    expect(run.finished?.escalated?.map((p) => p.uid)).toEqual([named!.uid]);
    // The named namespace's pod is gone (its replacement has another uid); the other's is untouched.
    expect((await podOf('esc-named'))?.uid).not.toBe(named!.uid);
    expect(await podOf('esc-other')).toEqual({ uid: other!.uid, deleting: false });
    expect(run.finished?.remaining.map((p) => p.namespace)).toEqual(['esc-other']);
  });

  it('the text output warns and the summary lists the escalated pod', async () => {
    const run = await runMaint(['drain', ...ONLY_LOCKED, ...ESCALATE, '--timeout', '12s']);
    expect(run.exitCode, run.stderr).toBe(1);
    expect(run.stderr).toMatch(
      /Warning: escalating: pod esc-named\/app-\S+ was refused by PodDisruptionBudget esc-named\/app for \d+s; deleting it/,
    );
    expect(run.stderr).toMatch(/escalated: esc-named\/app-\S+ deleted by --escalate-after, breaking its budget/);
    expect(run.stderr).not.toMatch(/escalating: pod esc-other/);
  });
});
