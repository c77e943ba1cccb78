import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planRun } from './drain-run.js';
import { type Plan, parsePlan } from './plan-json.js';
import { eventually, kubectl, labProcessEnv, labScript, seedScenario } from './lab.js';

// The API versions a server serves decide how the plan reads DRA, not an assumption: this worker's lab
// API server is started again with resource.k8s.io/v1 turned off (--runtime-config) and v1beta2 or
// v1beta1 on instead, as on a cluster that has not turned v1 on, then with no DRA version at all, as on a
// server that does not serve DRA. Its stored objects are the same throughout; only what it serves changes.

/** The API server of this worker's lab started again with `runtimeConfig` (none: its defaults). */
async function restartApiServer(runtimeConfig: string): Promise<void> {
  const env = { ...labProcessEnv(), LAB_APISERVER_RUNTIME_CONFIG: runtimeConfig };
  await execa('bash', [labScript, 'stop-component', 'kube-apiserver'], { env });
  await execa('bash', [labScript, 'start-component', 'kube-apiserver'], { env });
  // Served once discovery lists the group as the flags say (start-component waits for /readyz).
  const want = runtimeConfig.includes('v1beta2=true')
    ? 'v1beta2'
    : runtimeConfig.includes('v1beta1=true')
      ? 'v1beta1'
      : 'v1';
  await eventually(
    async () => {
      const r = await kubectl(['api-versions'], { reject: false });
      const dra = String(r.stdout)
        .split('\n')
        .filter((v) => v.startsWith('resource.k8s.io/'));
      return runtimeConfig.includes('resource.k8s.io/v1=false') && !/true/.test(runtimeConfig)
        ? dra.length === 0
        : dra.includes(`resource.k8s.io/${want}`);
    },
    60_000,
    `the API server to serve what ${runtimeConfig || 'its defaults'} say`,
  );
}

async function planNode1(): Promise<{ exitCode: number; plan: Plan }> {
  const r = await planRun(['k8s-node-1', '--ignore-daemonsets', '-o', 'json']);
  return { exitCode: r.exitCode, plan: parsePlan(r) };
}

/** What the plan says of the GPU job's replacement, and the DRA caveats. */
const trainer = (plan: Plan) => ({
  replacement: plan.pods.find((p) => p.namespace === 'gpu' && p.action === 'evict')?.replacement,
  draCaveats: plan.caveats.filter((c) => /ResourceClaim|DeviceClass|ResourceSlice|resource\.k8s\.io/.test(c)),
});

// The scenarios are seeded while the server serves DRA (a reset deletes DRA objects), the API server
// changed after.
describe('a server that serves no DRA (lab scenario hello)', () => {
  beforeAll(async () => {
    await seedScenario('hello');
    await restartApiServer('resource.k8s.io/v1=false');
  });

  afterAll(async () => {
    await restartApiServer('');
  });

  it('a plan of pods without claims is complete, and says DRA is not served', async () => {
    const { exitCode, plan } = await planNode1();
    expect([plan.verdict, exitCode]).toEqual(['slow', 0]);
    expect(plan.kubernetes.notServed).toEqual([
      'ResourceClaim',
      'ResourceClaimTemplate',
      'DeviceClass',
      'ResourceSlice',
    ]);
    expect(plan.caveats.filter((c) => /not loaded|resource/i.test(c))).toEqual([]);
  });
});

describe('DRA read through the version the server serves (lab scenario dra)', () => {
  let v1: ReturnType<typeof trainer>;

  beforeAll(async () => {
    await seedScenario('dra');
    await eventually(
      async () => (await kubectl(['get', 'pods', '-n', 'gpu', '-o', 'jsonpath={.items[*].spec.nodeName}'])).stdout,
      60_000,
      'the trainer to be scheduled',
    );
    v1 = trainer((await planNode1()).plan);
  });

  afterAll(async () => {
    await restartApiServer('');
  });

  it('reads v1 by default and finds the GPU only on k8s-node-1', () => {
    expect(v1.replacement).toMatchObject({ schedulable: false, untilNodeReturns: ['k8s-node-1'] });
    expect(v1.draCaveats).toEqual([]);
  });

  it.each(['v1beta2', 'v1beta1'])('through %s alone: the same plan', async (version) => {
    await restartApiServer(`resource.k8s.io/v1=false,resource.k8s.io/${version}=true`);
    const { plan } = await planNode1();
    expect(trainer(plan)).toEqual(v1);
    expect(plan.kubernetes.notServed).toBeUndefined();
  });
});
