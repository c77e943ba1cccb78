import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SNAPSHOT_COMMAND } from '../../src/snapshot/load-file.js';
import { planRun, runMaint, startMaint } from './drain-run.js';
import { eventually, kubectl, kubectlJson, type KubeObject, labUserKubeconfig, seedScenario } from './lab.js';

// Pods whose volumes tie them to the drained node, planned and then drained for real against the lab's
// kube-scheduler (scenario volumes): db-0's claim is bound to a local PV of k8s-node-1; cache-0's to a
// zonal PV of zone-a, whose other node has no room for it. The plan must say neither replacement has a
// node until k8s-node-1 returns, in the scheduler's words, and the scheduler must agree.

interface Replacement {
  schedulable: boolean;
  placedOn: string | null;
  message: string;
  untilNodeReturns?: string[];
  unknown?: string;
}
interface Plan {
  verdict: string;
  outages?: Array<{ kind: string; name: string; until: string; returnsOn: string[] }>;
  pods: Array<{ namespace: string; name: string; action: string; replacement: Replacement | null }>;
  caveats: string[];
}

const work = mkdtempSync(path.join(tmpdir(), 'maint-volumes-e2e-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const replacementOf = (plan: Plan, name: string) =>
  plan.pods.find((p) => p.namespace === 'demo' && p.name === name)?.replacement;

async function planNode1(...flags: string[]): Promise<Plan> {
  const r = await planRun(['k8s-node-1', '--ignore-daemonsets', '-o', 'json', ...flags]);
  return parsePlan(r);
}

function parsePlan(r: { exitCode: number; stdout: string; stderr: string }): Plan {
  if (r.stdout.trim() === '') throw new Error(`plan printed nothing (exit ${r.exitCode}): ${r.stderr}`);
  return JSON.parse(r.stdout) as Plan;
}

/** The scheduler's own word on a pending pod: its PodScheduled condition. */
async function unschedulableMessage(name: string, notUid: string): Promise<string> {
  return eventually(
    async () => {
      const pod = await kubectlJson<KubeObject>(['get', 'pod', '-n', 'demo', name]).catch(() => undefined);
      if (!pod || pod.metadata.uid === notUid || pod.spec.nodeName) return undefined;
      const scheduled = pod.status.conditions?.find((c) => c.type === 'PodScheduled');
      return scheduled?.status === 'False' && scheduled.reason === 'Unschedulable' ? scheduled.message : undefined;
    },
    60_000,
    `the replacement of demo/${name} to be reported unschedulable`,
  );
}

describe('volumes that tie a replacement to the drained node (lab scenario volumes)', () => {
  let live: Plan;
  const uids = new Map<string, string>();

  beforeAll(async () => {
    await seedScenario('volumes');
    for (const name of ['db-0', 'cache-0']) {
      const pod = await kubectlJson<KubeObject>(['get', 'pod', '-n', 'demo', name]);
      if (pod.spec.nodeName !== 'k8s-node-1') throw new Error(`scenario: ${name} is on ${pod.spec.nodeName}`);
      uids.set(name, pod.metadata.uid);
    }
    live = await planNode1();
  });

  afterAll(async () => {
    await kubectl(['uncordon', 'k8s-node-1'], { reject: false });
  });

  it('the plan gives db-0 (local PV of k8s-node-1) no node until k8s-node-1 returns', () => {
    expect(replacementOf(live, 'db-0')).toMatchObject({
      schedulable: false,
      placedOn: null,
      untilNodeReturns: ['k8s-node-1'],
      message:
        "0/3 nodes are available: 1 node(s) were unschedulable, 2 node(s) didn't match PersistentVolume's node affinity. " +
        'preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
    });
  });

  it('the plan gives cache-0 (zonal PV, no room elsewhere in zone-a) no node until k8s-node-1 returns', () => {
    expect(replacementOf(live, 'cache-0')).toMatchObject({
      schedulable: false,
      placedOn: null,
      untilNodeReturns: ['k8s-node-1'],
    });
    expect(replacementOf(live, 'cache-0')!.message).toMatch(/1 node\(s\) had no available volume zone/);
  });

  it('is disruptive: db and cache are each down until k8s-node-1 returns', () => {
    expect(live.verdict).toBe('disruptive');
    expect(live.outages?.map((o) => [o.kind, o.name, o.until, o.returnsOn]).sort()).toEqual([
      ['StatefulSet', 'cache', 'node-returns', ['k8s-node-1']],
      ['StatefulSet', 'db', 'node-returns', ['k8s-node-1']],
    ]);
  });

  it('a user who may not list the storage kinds: db-0 unknown (no node named), a caveat on the pods with claims', async () => {
    const rbac = [
      'apiVersion: rbac.authorization.k8s.io/v1',
      'kind: ClusterRole',
      'metadata: {name: maint-e2e-no-storage}',
      'rules:',
      '- {apiGroups: [""], resources: [nodes, pods, services, replicationcontrollers], verbs: [list]}',
      '- {apiGroups: [apps], resources: [replicasets, deployments, statefulsets, daemonsets], verbs: [list]}',
      '- {apiGroups: [batch], resources: [jobs], verbs: [list]}',
      '- {apiGroups: [policy], resources: [poddisruptionbudgets], verbs: [list]}',
      '---',
      'apiVersion: rbac.authorization.k8s.io/v1',
      'kind: ClusterRoleBinding',
      'metadata: {name: maint-e2e-no-storage}',
      'roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: maint-e2e-no-storage}',
      'subjects:',
      '- {apiGroup: rbac.authorization.k8s.io, kind: User, name: maint-no-storage}',
      '',
    ].join('\n');
    const manifest = path.join(work, 'rbac.yaml');
    writeFileSync(manifest, rbac);
    await kubectl(['apply', '-f', manifest]);
    const kubeconfig = await labUserKubeconfig('maint-no-storage', work);
    const run = await (
      await startMaint(['plan', 'k8s-node-1', '--ignore-daemonsets', '-o', 'json'], { kubeconfig })
    ).child;
    const r = { exitCode: run.exitCode ?? -1, stdout: String(run.stdout), stderr: String(run.stderr) };
    expect(r.stderr).not.toMatch(/PersistentVolumeClaim objects not loaded/);
    const p = parsePlan(r);
    expect(replacementOf(p, 'db-0')).toMatchObject({ schedulable: true, placedOn: null });
    expect(replacementOf(p, 'db-0')!.unknown).toMatch(/^PersistentVolumeClaims were not read/);
    const forbidden = p.caveats.find((c) => /cannot list persistentvolumeclaims/.test(c));
    expect(forbidden).toMatch(/\(pods demo\/cache-0, demo\/db-0\)$|\(pods demo\/db-0, demo\/cache-0\)$/);
  });

  it('reads the volume kinds live: no caveat about claims or volumes it could not read', () => {
    expect(live.caveats.filter((c) => /PersistentVolume|StorageClass|CSI/.test(c))).toEqual([]);
  });

  it('a snapshot file of the kinds the plan reads gives the same answers', async () => {
    const kinds = /kubectl get (\S+) -A -o json/.exec(SNAPSHOT_COMMAND)![1]!;
    const { stdout } = await kubectl(['get', kinds, '-A', '-o', 'json']);
    const file = path.join(work, 'volumes.json');
    writeFileSync(file, String(stdout));
    const fromFile = await planNode1('--snapshot', file);
    for (const name of ['db-0', 'cache-0']) expect(replacementOf(fromFile, name)).toEqual(replacementOf(live, name));
  });

  it('drained for real, the scheduler keeps both replacements Pending for the reasons the plan gave', async () => {
    const drain = await runMaint(['drain', 'k8s-node-1', '--ignore-daemonsets', '-o', 'json']);
    expect(drain.exitCode, drain.stderr).toBe(0);
    expect(await unschedulableMessage('db-0', uids.get('db-0')!)).toBe(replacementOf(live, 'db-0')!.message);
    expect(await unschedulableMessage('cache-0', uids.get('cache-0')!)).toBe(replacementOf(live, 'cache-0')!.message);
  });

  it('once k8s-node-1 returns, both replacements go back to it', async () => {
    await kubectl(['uncordon', 'k8s-node-1']);
    for (const name of ['db-0', 'cache-0']) {
      await eventually(
        async () => (await kubectlJson<KubeObject>(['get', 'pod', '-n', 'demo', name])).spec.nodeName === 'k8s-node-1',
        60_000,
        `demo/${name} to be scheduled on k8s-node-1`,
      );
    }
  });
});
