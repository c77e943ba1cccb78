import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SNAPSHOT_RESOURCES } from '../../src/snapshot/snapshot-command.js';
import { planNode1AsLimitedUser, planRun, runMaint } from './drain-run.js';
import { type Plan, parsePlan } from './plan-json.js';
import { eventually, kubectl, kubectlJson, type KubeObject, seedScenario } from './lab.js';

// Pods with DRA resource claims (resource.k8s.io/v1), planned and then drained for real against the lab's
// kube-scheduler (scenario dra): the trainer's pod claims a GPU through a ResourceClaimTemplate, and the only
// GPU is on k8s-node-1 (a ResourceSlice published by hand for the KWOK node). The plan must say in the
// scheduler's words that the replacement has no node until k8s-node-1 returns; and once another node
// publishes a free GPU, name that node, as the scheduler then places it.

const work = mkdtempSync(path.join(tmpdir(), 'maint-dra-e2e-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function planNode1(...flags: string[]): Promise<Plan> {
  return parsePlan(await planRun(['k8s-node-1', '--ignore-daemonsets', '-o', 'json', ...flags]));
}

const trainerOf = (plan: Plan) => plan.pods.find((p) => p.namespace === 'gpu' && p.action === 'evict')?.replacement;

/** The trainer's pod, once the scheduler has placed it (or the scenario's, before the drain). */
async function trainerPod(notUid?: string): Promise<KubeObject | undefined> {
  const pods = await kubectlJson(['get', 'pods', '-n', 'gpu', '-l', 'app=trainer']);
  return pods.items.find((p) => p.metadata.uid !== notUid && !p.metadata.deletionTimestamp);
}

/** The scheduler's own word on the pending replacement: its PodScheduled condition. */
async function unschedulableMessage(notUid: string): Promise<string> {
  return eventually(
    async () => {
      const pod = await trainerPod(notUid);
      if (!pod || pod.spec.nodeName) return undefined;
      const scheduled = pod.status.conditions?.find((c) => c.type === 'PodScheduled');
      return scheduled?.status === 'False' && scheduled.reason === 'Unschedulable' ? scheduled.message : undefined;
    },
    60_000,
    'the trainer replacement to be reported unschedulable',
  );
}

async function apply(name: string, manifest: string): Promise<void> {
  const file = path.join(work, name);
  writeFileSync(file, manifest);
  await kubectl(['apply', '-f', file]);
}

const GPU_ON_NODE_3 = [
  'apiVersion: resource.k8s.io/v1',
  'kind: ResourceSlice',
  'metadata: {name: k8s-node-3-gpu.example.com, labels: {lab.kubectl-maint.io/scenario: "true"}}',
  'spec:',
  '  driver: gpu.example.com',
  '  nodeName: k8s-node-3',
  '  pool: {name: k8s-node-3, generation: 1, resourceSliceCount: 1}',
  '  devices:',
  '    - {name: gpu-0, attributes: {model: {string: a100}}, capacity: {memory: {value: 80Gi}}}',
  '',
].join('\n');

describe('a GPU job whose only GPU node is drained (lab scenario dra)', () => {
  let live: Plan;
  let uid: string;

  beforeAll(async () => {
    await seedScenario('dra');
    const pod = await eventually(
      async () => {
        const p = await trainerPod();
        return p?.spec.nodeName ? p : undefined;
      },
      60_000,
      'the trainer to be scheduled',
    );
    if (pod.spec.nodeName !== 'k8s-node-1') throw new Error(`scenario: the trainer is on ${pod.spec.nodeName}`);
    uid = pod.metadata.uid;
    live = await planNode1();
  });

  afterAll(async () => {
    await kubectl(['uncordon', 'k8s-node-1'], { reject: false });
  });

  it('the plan gives the trainer no node until k8s-node-1 returns, and says the job is down until then', () => {
    expect(trainerOf(live)).toMatchObject({ schedulable: false, placedOn: null, untilNodeReturns: ['k8s-node-1'] });
    expect(live.verdict).toBe('disruptive');
    expect(live.outages?.map((o) => [o.kind, o.name, o.until])).toEqual([['Deployment', 'trainer', 'node-returns']]);
  });

  it('reads the DRA kinds live: no caveat about kinds it could not read', () => {
    expect(live.caveats.filter((c) => /ResourceClaim|DeviceClass|ResourceSlice/.test(c))).toEqual([]);
  });

  it('a snapshot file of the kinds the plan reads gives the same answer', async () => {
    const { stdout } = await kubectl(['get', SNAPSHOT_RESOURCES.join(','), '-A', '-o', 'json']);
    const file = path.join(work, 'dra.json');
    writeFileSync(file, String(stdout));
    expect(trainerOf(await planNode1('--snapshot', file))).toEqual(trainerOf(live));
  });

  it('a user who may not list resource.k8s.io: the trainer is unknown (no node named), a caveat on its pod', async () => {
    const r = await planNode1AsLimitedUser(
      'maint-no-dra',
      [
        '{apiGroups: [""], resources: [persistentvolumeclaims, persistentvolumes], verbs: [list]}',
        '{apiGroups: [storage.k8s.io], resources: ["*"], verbs: [list]}',
      ],
      work,
    );
    expect(r.stderr).not.toMatch(/(ResourceClaim|ResourceClaimTemplate|DeviceClass|ResourceSlice) objects not loaded/);
    const p = parsePlan(r);
    expect(trainerOf(p)).toMatchObject({ placedOn: null });
    expect(trainerOf(p)!.unknown).toMatch(
      /^DynamicResources: (ResourceClaimTemplates|DeviceClasses|ResourceSlices) were not read/,
    );
    expect(p.caveats.find((c) => /cannot list resourceclaimtemplates/.test(c))).toMatch(/\(pod gpu\/trainer-/);
  });

  it('drained for real, the scheduler keeps the replacement Pending for the reason the plan gave', async () => {
    const drain = await runMaint(['drain', 'k8s-node-1', '--ignore-daemonsets', '-o', 'json']);
    expect(drain.exitCode, drain.stderr).toBe(0);
    expect(await unschedulableMessage(uid)).toBe(trainerOf(live)!.message);
  });
});

describe('another node publishes a free GPU (lab scenario dra)', () => {
  let plan: Plan;

  beforeAll(async () => {
    await seedScenario('dra');
    await eventually(
      async () => (await trainerPod())?.spec.nodeName === 'k8s-node-1',
      60_000,
      'the trainer on k8s-node-1',
    );
    await apply('node-3-gpu.yaml', GPU_ON_NODE_3);
    plan = await planNode1();
  });

  afterAll(async () => {
    await kubectl(['uncordon', 'k8s-node-1'], { reject: false });
  });

  it('the plan places the trainer on k8s-node-3, and the scheduler does the same after a real drain', async () => {
    expect(trainerOf(plan)).toMatchObject({ schedulable: true, placedOn: 'k8s-node-3' });
    expect(plan.verdict).not.toBe('disruptive');
    const old = (await trainerPod())!.metadata.uid;
    const drain = await runMaint(['drain', 'k8s-node-1', '--ignore-daemonsets', '-o', 'json']);
    expect(drain.exitCode, drain.stderr).toBe(0);
    const placed = await eventually(
      async () => (await trainerPod(old))?.spec.nodeName,
      60_000,
      'the replacement to be placed',
    );
    expect(placed).toBe('k8s-node-3');
  });
});
