import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planRun } from './drain-run.js';
import { type Plan, parsePlan } from './plan-json.js';
import { eventually, kubectl, labProcessEnv, labScript, seedScenario } from './lab.js';

// The API versions a server serves decide how the plan reads DRA, not an assumption: this worker's lab
// API server is started again with resource.k8s.io/v1 turned off (--runtime-config) and v1beta1 on
// instead, as on a cluster that has not turned v1 on, then with no DRA version at all, as on a
// server that does not serve DRA. Its stored objects are the same throughout; only what it serves changes.
// (Without v1 the 1.37 API server never reports its own informers of it synced, so the lab waits for it
// ready but for that check; it serves every request all the same.)

/**
 * The API server of this worker's lab started again with `runtimeConfig` (none: its defaults), and
 * `served` the resource.k8s.io versions discovery then lists.
 */
async function restartApiServer(runtimeConfig: string, served: readonly string[]): Promise<void> {
  const env = { ...labProcessEnv(), LAB_APISERVER_RUNTIME_CONFIG: runtimeConfig };
  await execa('bash', [labScript, 'stop-component', 'kube-apiserver'], { env });
  await execa('bash', [labScript, 'start-component', 'kube-apiserver'], { env });
  const dra = async () => {
    const { stdout } = await kubectl(['api-versions']);
    return String(stdout)
      .split('\n')
      .filter((v) => v.startsWith('resource.k8s.io/'));
  };
  await eventually(async () => JSON.stringify(await dra()) === JSON.stringify(served), 60_000, `serving ${served}`);
}

async function planNode(node: string): Promise<{ exitCode: number; plan: Plan }> {
  const r = await planRun([node, '--ignore-daemonsets', '-o', 'json']);
  return { exitCode: r.exitCode, plan: parsePlan(r) };
}

/** What the plan says of the GPU job's replacement, and the DRA caveats. */
const trainer = (plan: Plan) => ({
  replacement: plan.pods.find((p) => p.namespace === 'gpu' && p.action === 'evict')?.replacement,
  draCaveats: plan.caveats.filter((c) => /ResourceClaim|DeviceClass|ResourceSlice|resource\.k8s\.io/.test(c)),
});

describe('DRA read through the version the server serves (lab scenario dra)', () => {
  let v1: ReturnType<typeof trainer>;

  // Seeded while the server serves DRA (a reset deletes DRA objects); the API server is changed after.
  beforeAll(async () => {
    await seedScenario('dra');
    await eventually(
      async () => (await kubectl(['get', 'pods', '-n', 'gpu', '-o', 'jsonpath={.items[*].spec.nodeName}'])).stdout,
      60_000,
      'the trainer to be scheduled',
    );
    v1 = trainer((await planNode('k8s-node-1')).plan);
  });

  afterAll(async () => {
    await restartApiServer('', ['resource.k8s.io/v1']);
  });

  it('reads v1 by default and finds the GPU only on k8s-node-1', () => {
    expect(v1.replacement).toMatchObject({ schedulable: false, untilNodeReturns: ['k8s-node-1'] });
    expect(v1.draCaveats).toEqual([]);
  });

  it('through v1beta1 alone (devices under `basic`, requests without `exactly`): the same plan', async () => {
    await restartApiServer('resource.k8s.io/v1=false,resource.k8s.io/v1beta1=true', ['resource.k8s.io/v1beta1']);
    const { plan } = await planNode('k8s-node-1');
    expect(trainer(plan)).toEqual(v1);
    expect(plan.kubernetes.notServed).toBeUndefined();
  });

  it('a server that serves no DRA: a plan of pods without claims is complete, and says DRA is not served', async () => {
    await restartApiServer('resource.k8s.io/v1=false', []);
    const { exitCode, plan } = await planNode('k8s-node-2');
    expect([plan.verdict, exitCode]).toEqual(['clear', 0]);
    expect(plan.kubernetes.notServed).toEqual([
      'ResourceClaim',
      'ResourceClaimTemplate',
      'DeviceClass',
      'ResourceSlice',
    ]);
    expect(plan.caveats.filter((c) => /not loaded|DynamicResources|resource\.k8s\.io/.test(c))).toEqual([]);
  });
});
