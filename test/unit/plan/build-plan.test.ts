import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../../src/plan/build-plan.js';
import type { DrainPlan, PlanOptions } from '../../../src/plan/types.js';
import { ClusterIndex } from '../../../src/snapshot/cluster-index.js';
import { loadEmbeddedSnapshot } from '../../../src/snapshot/embedded.js';
import { snapshotFromText } from '../../../src/snapshot/load-file.js';

const NOW = Date.parse('2026-11-30T12:00:00Z') / 1000;

function fixture(name: 'hello' | 'hello-ignore'): ClusterIndex {
  const path = new URL(`../../fixtures/plan/${name}.json`, import.meta.url);
  return new ClusterIndex(snapshotFromText(readFileSync(path, 'utf8'), { type: 'file', path: path.pathname }, name));
}

function options(overrides: Partial<PlanOptions> = {}): PlanOptions {
  return {
    nodes: ['k8s-node-1'],
    ignoreDaemonSets: true,
    deleteEmptyDirData: false,
    force: false,
    disableEviction: false,
    skipWaitForDeleteTimeoutSeconds: 0,
    taint: { key: 'kubectl-maint/maintenance' },
    nodeMonitorGracePeriodSeconds: 50,
    nowEpochSeconds: NOW,
    ...overrides,
  };
}

/** The per-pod columns a reader checks first. */
const podRows = (plan: DrainPlan) =>
  plan.pods.map((p) => [p.namespace, p.name, p.action, p.outcome, p.wave, p.replacement?.placedOn ?? null]);

describe('buildPlan on the hello scenario (nodeTaintsPolicy Honor)', () => {
  const plan = buildPlan(fixture('hello'), options());

  it('is slow: the budget lets one hello pod go per wave, two waves', () => {
    expect(plan.verdict).toBe('slow');
    expect(plan.verdictReasons).toEqual([
      'budget demo/hello lets 1 pod go at a time: 2 waves, each waiting for replacements to become Ready',
    ]);
  });

  it('evicts the hello pods in two waves, placing both replacements on k8s-node-2, and leaves DaemonSet pods', () => {
    expect(podRows(plan)).toEqual([
      ['demo', 'hello-7d4b9c8f6d-2xkqp', 'evict', 'immediate', 1, 'k8s-node-2'],
      ['demo', 'hello-7d4b9c8f6d-8hzvd', 'evict', 'waits', 2, 'k8s-node-2'],
      ['kube-system', 'kindnet-m4q9t', 'skip', null, null, null],
      ['kube-system', 'kube-proxy-m4q9t', 'skip', null, null, null],
    ]);
    expect(plan.pods[2]).toMatchObject({ reason: 'ignoring DaemonSet-managed Pods', filter: 'daemonSetFilter' });
    expect(plan.pods[0]).toMatchObject({
      controller: { kind: 'Deployment', name: 'hello' },
      pdbs: [{ namespace: 'demo', name: 'hello', disruptionsAllowed: 1 }],
      outcomeReason: 'budget demo/hello allows 1 disruption now',
    });
  });

  it('reports the budget with its status and its waves', () => {
    expect(plan.budgets).toEqual([
      {
        namespace: 'demo',
        name: 'hello',
        disruptionsAllowed: 1,
        currentHealthy: 4,
        desiredHealthy: 3,
        expectedPods: 4,
        stale: false,
        unhealthyPodEvictionPolicy: 'AlwaysAllow',
        neverAllows: null,
        drainedPods: ['demo/hello-7d4b9c8f6d-2xkqp', 'demo/hello-7d4b9c8f6d-8hzvd'],
        perWave: 1,
        waves: 2,
      },
    ]);
  });

  it('compares with a NoExecute taint: the hello pods go at once, breaking the budget; DaemonSet pods stay', () => {
    expect(plan.noExecute.taint).toBe('kubectl-maint/maintenance:NoExecute');
    expect(plan.pods.map((p) => p.noExecute.afterSeconds)).toEqual([0, 0, null, null]);
    expect(plan.noExecute.budgetsBroken).toEqual([
      {
        namespace: 'demo',
        name: 'hello',
        pods: ['demo/hello-7d4b9c8f6d-2xkqp', 'demo/hello-7d4b9c8f6d-8hzvd'],
        disruptionsAllowed: 1,
      },
    ]);
  });

  it('times a node failure: hello pods 50s + 60s, DaemonSet pods never', () => {
    expect(plan.pods.map((p) => p.nodeFailure.afterSeconds)).toEqual([110, 110, null, null]);
  });

  it('says only what it does not model that can apply here, and no missing kind that owns none of the drained pods', () => {
    // The fixture has no StatefulSets, Jobs or ReplicationControllers, and no drained pod is owned by one.
    expect(plan.caveats.some((c) => c.includes('were not loaded'))).toBe(false);
    // No hello pod has a claim or a resource claim: neither volume binding nor DRA can apply.
    expect(plan.caveats.some((c) => c.startsWith('VolumeBinding'))).toBe(false);
    expect(plan.caveats.some((c) => c.startsWith('DynamicResources'))).toBe(false);
    // The second hello pod waits for the first one's replacement to be Ready.
    expect(plan.caveatScopes.find((c) => c.caveat.startsWith('Readiness'))?.pods).toEqual([
      'demo/hello-7d4b9c8f6d-8hzvd',
    ]);
    expect(plan.verdict).toBe('slow');
    expect(plan.unread).toEqual([]);
    expect(plan.warnings).toEqual([]);
  });
});

describe('buildPlan on the hello-ignore scenario (nodeTaintsPolicy Ignore)', () => {
  const plan = buildPlan(fixture('hello-ignore'), options());

  it('is blocked: the first replacement finds no node, so the budget never frees up for the second pod', () => {
    expect(plan.verdict).toBe('blocked');
    expect(podRows(plan).slice(0, 2)).toEqual([
      ['demo', 'hello-7d4b9c8f6d-2xkqp', 'evict', 'immediate', 1, null],
      ['demo', 'hello-7d4b9c8f6d-8hzvd', 'evict', 'blocked', null, null],
    ]);
    const first = plan.pods[0]!.replacement!;
    expect(first.schedulable).toBe(false);
    expect(plan.pods[1]!.outcomeReason).toBe(
      'budget demo/hello will not free up: the replacement of demo/hello-7d4b9c8f6d-2xkqp cannot be scheduled',
    );
    expect(plan.verdictReasons).toEqual([
      // The two pods are interchangeable: the drain may evict either first, so the headline names both.
      'cannot evict 1 of demo/hello-7d4b9c8f6d-2xkqp, demo/hello-7d4b9c8f6d-8hzvd: no node takes the replacement ' +
        'of the first pod budget demo/hello lets go (whichever the API admits), so the budget never frees up for the rest',
      `no node for the replacement of demo/hello-7d4b9c8f6d-8hzvd: ${first.message}`,
      // The evicted pod's replica is down meanwhile: said after what blocks the drain, which stays blocked.
      'Deployment demo/hello: 1 of 4 replicas down for good: no node takes it, not even once the drained nodes ' +
        `return (no node takes the replacement of demo/hello-7d4b9c8f6d-2xkqp: ${first.message})`,
    ]);
    // The blocked pod's replacement is judged too: lifting the budget would not be enough.
    expect(plan.pods[1]!.replacement).toMatchObject({ schedulable: false, whenUnblocked: true });
  });

  it('names the topology spread constraint among the reasons the replacement found no node', () => {
    expect(plan.pods[0]!.replacement!.message).toMatch(/^0\/3 nodes are available: /);
    expect(plan.pods[0]!.replacement!.message).toContain("node(s) didn't match pod topology spread constraints");
  });
});

describe('buildPlan options and errors', () => {
  it('throws a one-line error for a node the snapshot does not have', () => {
    expect(() => buildPlan(fixture('hello'), options({ nodes: ['k8s-node-9'] }))).toThrow(
      /^node "k8s-node-9" not found$/,
    );
  });

  it('refuses the node without --ignore-daemonsets, in kubectl words, and evicts nothing there', () => {
    const plan = buildPlan(fixture('hello'), options({ ignoreDaemonSets: false }));
    expect(plan.verdict).toBe('blocked');
    expect(plan.verdictReasons).toEqual([
      'cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): kube-system/kindnet-m4q9t, kube-system/kube-proxy-m4q9t',
    ]);
    // Held by the refused pods, yet their ReplicaSet would recreate them: the replacement is judged.
    expect(plan.pods.filter((p) => p.action === 'evict').map((p) => [p.outcome, p.replacement])).toEqual([
      ['blocked', expect.objectContaining({ schedulable: true, placedOn: 'k8s-node-2', whenUnblocked: true })],
      ['blocked', expect.objectContaining({ schedulable: true, placedOn: 'k8s-node-2', whenUnblocked: true })],
    ]);
  });

  it('--pod-selector keeps only the matching pods', () => {
    const plan = buildPlan(fixture('hello'), options({ ignoreDaemonSets: false, podSelector: 'app=hello' }));
    expect(plan.pods.map((p) => p.name)).toEqual(['hello-7d4b9c8f6d-2xkqp', 'hello-7d4b9c8f6d-8hzvd']);
    expect(plan.verdict).toBe('slow');
  });

  it('--disable-eviction deletes every pod at once: clear, nothing waits, and it says which budget it breaks', () => {
    const plan = buildPlan(fixture('hello'), options({ disableEviction: true }));
    expect(plan.verdict).toBe('clear');
    expect(plan.verdictReasons).toEqual([
      'all 2 pods can be deleted at once',
      '--disable-eviction deletes 2 healthy pods of budget demo/hello at once, which allows 1 disruption: demo/hello-7d4b9c8f6d-2xkqp, demo/hello-7d4b9c8f6d-8hzvd',
    ]);
    expect(plan.pods.slice(0, 2).map((p) => [p.action, p.outcome, p.wave])).toEqual([
      ['delete', 'immediate', 1],
      ['delete', 'immediate', 1],
    ]);
  });

  it('draining both workers is blocked: the control-plane taint leaves no room for replacements', () => {
    const plan = buildPlan(fixture('hello'), options({ nodes: ['k8s-node-1', 'k8s-node-2'] }));
    expect(plan.verdict).toBe('blocked');
    expect(plan.pods.filter((p) => p.action === 'evict').map((p) => p.outcome)).toEqual([
      'immediate',
      'blocked',
      'blocked',
      'blocked',
    ]);
  });

  it('lists pods in node, namespace, name order whatever order the nodes are given in', () => {
    const plan = buildPlan(fixture('hello'), options({ nodes: ['k8s-node-2', 'k8s-node-1'] }));
    const keys = plan.pods.map((p) => `${p.node}/${p.namespace}/${p.name}`);
    expect(keys).toEqual([...keys].sort());
    expect(plan.nodes).toEqual(['k8s-node-2', 'k8s-node-1']);
  });
});

describe('buildPlan on the snapshots captured from the real lab (bundled examples)', () => {
  const plan = (name: 'hello' | 'hello-blocked') => buildPlan(new ClusterIndex(loadEmbeddedSnapshot(name)), options());

  it('hello is slow: two waves, both replacements on k8s-node-2', () => {
    const hello = plan('hello');
    expect(hello.verdict).toBe('slow');
    expect(hello.pods.filter((p) => p.action === 'evict').map((p) => [p.wave, p.replacement?.placedOn])).toEqual([
      [1, 'k8s-node-2'],
      [2, 'k8s-node-2'],
    ]);
  });

  it('hello-blocked (nodeTaintsPolicy Ignore) is blocked: the first replacement finds no node', () => {
    const blocked = plan('hello-blocked');
    expect(blocked.verdict).toBe('blocked');
    expect(
      blocked.pods.filter((p) => p.action === 'evict').map((p) => [p.outcome, p.replacement?.schedulable]),
    ).toEqual([
      ['immediate', false],
      ['blocked', false],
    ]);
  });
});
