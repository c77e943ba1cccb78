import { describe, expect, it } from 'vitest';
import type { ClusterAudit } from '../../src/plan/audit-types.js';
import { eventually, kubectl, kubectlJson } from './lab.js';
import { finish, POOL, seedPool, start } from './run-helpers.js';

// `kubectl maint audit` over the lab's `pool` scenario: six KWOK workers (pool=blue) in three zones, the
// system DaemonSets on every node, and three budgeted Deployments in shop (web, api, cache).

async function audit(args: readonly string[]) {
  const r = await finish(await start(['audit', '-l', 'pool=blue', ...args, '-o', 'json']));
  return { exitCode: r.exitCode, stderr: r.stderr, audit: JSON.parse(r.stdout) as ClusterAudit };
}

interface PodList {
  items: Array<{ metadata: { name: string; labels?: Record<string, string> }; spec: { nodeName?: string } }>;
}

describe('kubectl maint audit over the pool of six KWOK workers', () => {
  it("names every node; without --ignore-daemonsets each is blocked by the system DaemonSets, whose way out is the flag (exit 3, plan's code)", async () => {
    await seedPool();
    const { exitCode, stderr, audit: a } = await audit([]);
    expect(exitCode, stderr).toBe(3);
    expect(a.nodes.map((n) => n.name).sort()).toEqual(POOL);
    expect(a.nodes.every((n) => n.verdict === 'blocked')).toBe(true);
    const daemonSets = a.workloads.filter((w) => w.kind === 'DaemonSet');
    expect(daemonSets.length).toBeGreaterThan(0);
    // Every DaemonSet runs on every node: each blocks all six, and they rank first.
    expect(a.workloads.slice(0, daemonSets.length)).toEqual(daemonSets);
    for (const w of daemonSets) {
      expect([...w.blocks].sort()).toEqual(POOL);
      expect(w.causes.map((c) => [c.kind, c.flag])).toEqual([['refused', '--ignore-daemonsets']]);
    }
    for (const node of a.nodes) expect(node.workloads).toEqual(expect.arrayContaining(daemonSets.map((w) => w.id)));
  });

  it('a budget that never allows blocks exactly the nodes its pods run on, and each node says what plan NODE says', async () => {
    await seedPool();
    // api: three replicas, minAvailable 2; 3 makes every pod stay healthy.
    await kubectl(['patch', 'pdb', 'api', '-n', 'shop', '--type', 'merge', '-p', '{"spec":{"minAvailable":3}}']);
    await eventually(
      async () => {
        const pdb = await kubectlJson<{ status?: { desiredHealthy?: number; observedGeneration?: number } }>([
          'get',
          'pdb',
          'api',
          '-n',
          'shop',
        ]);
        return pdb.status?.desiredHealthy === 3;
      },
      60_000,
      'the disruption controller to count budget shop/api at minAvailable 3',
    );
    const pods = await kubectlJson<PodList>(['get', 'pods', '-n', 'shop', '-l', 'app=api']);
    const apiNodes = [...new Set(pods.items.map((p) => p.spec.nodeName ?? ''))].sort();

    const { exitCode, stderr, audit: a } = await audit(['--ignore-daemonsets']);
    expect(exitCode, stderr).toBe(3);
    expect(a.nodes.map((n) => n.name).sort()).toEqual(POOL);
    const api = a.workloads.find((w) => w.id === 'shop/Deployment/api');
    expect(api?.budgets).toEqual(['shop/api']);
    expect([...(api?.blocks ?? [])].sort()).toEqual(apiNodes);
    expect(api?.causes[0]).toMatchObject({ kind: 'budget-never-allows', flag: null, budget: 'shop/api' });
    expect(api?.causes[0]?.detail).toBe('minAvailable 3 >= 3 expected pods: every pod must stay healthy');
    for (const node of a.nodes) {
      expect(node.verdict === 'blocked', node.name).toBe(apiNodes.includes(node.name));
      expect(node.workloads.includes('shop/Deployment/api'), node.name).toBe(apiNodes.includes(node.name));
      const r = await finish(await start(['plan', node.name, '--ignore-daemonsets', '-o', 'json']));
      expect((JSON.parse(r.stdout) as { verdict: string }).verdict, node.name).toBe(node.verdict);
    }
  });
});
