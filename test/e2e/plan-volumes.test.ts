import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SNAPSHOT_RESOURCES } from '../../src/snapshot/snapshot-command.js';
import { planNode1AsLimitedUser, planRun, runMaint } from './drain-run.js';
import { type Plan, parsePlan } from './plan-json.js';
import { eventually, kubectl, kubectlJson, type KubeObject, seedScenario } from './lab.js';

// Pods whose volumes tie them to the drained node, planned and then drained for real against the lab's
// kube-scheduler (scenario volumes): db-0's claim is bound to a local PV of k8s-node-1; cache-0's to a
// zonal PV of zone-a, whose other node has no room for it. The plan must say neither replacement has a
// node until k8s-node-1 returns, in the scheduler's words, and the scheduler must agree.

const work = mkdtempSync(path.join(tmpdir(), 'maint-volumes-e2e-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const replacementOf = (plan: Plan, name: string) =>
  plan.pods.find((p) => p.namespace === 'demo' && p.name === name)?.replacement;

async function planNode1(...flags: string[]): Promise<Plan> {
  const r = await planRun(['k8s-node-1', '--ignore-daemonsets', '-o', 'json', ...flags]);
  return parsePlan(r);
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

  it('says so first as the user runs it, as text, and exits 5 so that a pipeline stops', async () => {
    const r = await planRun(['k8s-node-1', '--ignore-daemonsets']);
    expect(r.exitCode, r.stderr).toBe(5);
    const [headline, ...rest] = r.stdout.split('\n');
    expect(headline).toBe('DISRUPTIVE: draining k8s-node-1 leaves 2 workloads with replicas down');
    // The reasons under the headline, before any section, each outage on one (wrapped) line.
    const reasons = rest.join('\n').split('\n\n')[0]!.replace(/\n\s+/g, ' ');
    expect(reasons).toContain('StatefulSet demo/db: 1 of 1 replica down until k8s-node-1 returns');
    expect(reasons).toContain('StatefulSet demo/cache: 1 of 1 replica down until k8s-node-1 returns');
  });

  it('a user who may not list the storage kinds: db-0 unknown (no node named), a caveat on the pods with claims', async () => {
    const r = await planNode1AsLimitedUser('maint-no-storage', [], work);
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
    const { stdout } = await kubectl(['get', SNAPSHOT_RESOURCES.join(','), '-A', '-o', 'json']);
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

describe('a CSI attach limit reached on the only other node of the zone (CSINode made by hand for KWOK)', () => {
  const manifest = [
    'apiVersion: storage.k8s.io/v1',
    'kind: CSINode',
    'metadata: {name: k8s-node-2, labels: {lab.kubectl-maint.io/scenario: "true"}}',
    'spec: {drivers: [{name: ebs.csi.aws.com, nodeID: i-node-2, allocatable: {count: 0}}]}',
    '---',
    'apiVersion: v1',
    'kind: PersistentVolume',
    'metadata: {name: pv-vault-0, labels: {lab.kubectl-maint.io/scenario: "true", topology.kubernetes.io/zone: zone-a}}',
    'spec:',
    '  capacity: {storage: 1Gi}',
    '  accessModes: [ReadWriteOnce]',
    '  storageClassName: zonal',
    '  persistentVolumeReclaimPolicy: Retain',
    '  claimRef: {namespace: demo, name: data-vault-0}',
    '  csi: {driver: ebs.csi.aws.com, volumeHandle: vol-vault-0}',
    '---',
    'apiVersion: apps/v1',
    'kind: StatefulSet',
    'metadata: {name: vault, namespace: demo}',
    'spec:',
    '  replicas: 1',
    '  serviceName: vault',
    '  selector: {matchLabels: {app: vault}}',
    '  template:',
    '    metadata: {labels: {app: vault}}',
    '    spec:',
    '      terminationGracePeriodSeconds: 0',
    '      containers:',
    '        - {name: vault, image: registry.k8s.io/pause:3.10, resources: {requests: {cpu: 100m}}}',
    '  volumeClaimTemplates:',
    '    - metadata: {name: data}',
    '      spec: {accessModes: [ReadWriteOnce], storageClassName: zonal, resources: {requests: {storage: 1Gi}}}',
    '',
  ].join('\n');
  let plan: Plan;
  let uid: string;

  beforeAll(async () => {
    await seedScenario('volumes');
    const file = path.join(work, 'vault.yaml');
    writeFileSync(file, manifest);
    await kubectl(['apply', '-f', file]);
    const pod = await eventually(
      async () => {
        const p = await kubectlJson<KubeObject>(['get', 'pod', '-n', 'demo', 'vault-0']).catch(() => undefined);
        return p?.spec.nodeName ? p : undefined;
      },
      60_000,
      'demo/vault-0 to be scheduled',
    );
    if (pod.spec.nodeName !== 'k8s-node-1') throw new Error(`vault-0 is on ${pod.spec.nodeName}`);
    uid = pod.metadata.uid;
    plan = await planNode1();
  });

  afterAll(async () => {
    await kubectl(['uncordon', 'k8s-node-1'], { reject: false });
  });

  it('the plan counts the attach limit: no node until k8s-node-1 returns, and the scheduler agrees after a real drain', async () => {
    expect(replacementOf(plan, 'vault-0')).toMatchObject({
      schedulable: false,
      untilNodeReturns: ['k8s-node-1'],
      message:
        '0/3 nodes are available: 1 node(s) exceed max volume count, 1 node(s) had no available volume zone, ' +
        '1 node(s) were unschedulable. preemption: 0/3 nodes are available: 1 No preemption victims found for ' +
        'incoming pod, 2 Preemption is not helpful for scheduling.',
    });
    const drain = await runMaint(['drain', 'k8s-node-1', '--ignore-daemonsets', '-o', 'json']);
    expect(drain.exitCode, drain.stderr).toBe(0);
    expect(await unschedulableMessage('vault-0', uid)).toBe(replacementOf(plan, 'vault-0')!.message);
  });
});
