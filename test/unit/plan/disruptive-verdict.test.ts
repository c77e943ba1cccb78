import { describe, expect, it } from 'vitest';
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { planExitCode } from '../../../src/cli/exit-codes.js';
import { buildPlan } from '../../../src/plan/build-plan.js';
import { buildPoolPlan } from '../../../src/plan/pool-plan.js';
import { verdictHeadline } from '../../../src/ui/plan-sections.js';
import { makeIndex, makeNode, makePdb, makePod, makeStatefulSet, makeJob } from '../builders.js';
import { nodes, options, owners, web } from './rules-fixture.js';

// A drain that finishes but leaves a workload's pod with no node anywhere is not routine: the verdict
// says disruptive (exit 5), names the workload, how many replicas are down and until when.

const db = () =>
  makePod()
    .name('db-0')
    .ns('demo')
    .node('n1')
    .label('app', 'db')
    .owner('StatefulSet', 'db')
    .nodeSelector({ 'kubernetes.io/hostname': 'n1' });
const statefulSets = [makeStatefulSet().name('db').ns('demo').replicas(1).obj()];

function withGpus(node: V1Node, count: string): V1Node {
  const status = node.status!;
  return { ...node, status: { ...status, allocatable: { ...status.allocatable, 'nvidia.com/gpu': count } } };
}

function gpuPod(name: string): V1Pod {
  const pod = makePod().name(name).ns('ml').node('n1').owner('Job', 'train').obj();
  pod.spec!.containers[0]!.resources = { requests: { 'nvidia.com/gpu': '1' }, limits: { 'nvidia.com/gpu': '1' } };
  return pod;
}

describe('disruptive: the drain finishes, a workload is left without a node', () => {
  it('a StatefulSet pod whose only fitting node is drained: down until that node returns, exit 5', () => {
    const plan = buildPlan(makeIndex({ nodes, pods: [db().obj()], statefulSets }), options());
    expect(plan.verdict).toBe('disruptive');
    expect(plan.assumedVerdict).toBe('disruptive');
    expect(plan.outages).toEqual([
      {
        kind: 'StatefulSet',
        namespace: 'demo',
        name: 'db',
        replicas: 1,
        pods: ['demo/db-0'],
        until: 'node-returns',
        returnsOn: ['n1'],
        message: plan.pods[0]!.replacement!.message,
      },
    ]);
    expect(plan.verdictReasons[0]).toBe(
      `StatefulSet demo/db: 1 of 1 replica down until n1 returns (no node takes the replacement of demo/db-0: ${plan.pods[0]!.replacement!.message})`,
    );
    expect(verdictHeadline(plan)).toBe(
      'DISRUPTIVE: draining n1 leaves StatefulSet demo/db with 1 of 1 replica down until n1 returns',
    );
    expect(planExitCode(plan, false)).toBe(5);
  });

  it('a GPU job whose only GPU node is drained is disruptive, not slow behind its budget', () => {
    const gpuNodes = [withGpus(makeNode().name('n1').obj(), '1'), makeNode().name('n2').obj()];
    const pdbs = [
      makePdb()
        .name('train')
        .ns('ml')
        .selector({})
        .maxUnavailable(1)
        .status({ disruptionsAllowed: 1, currentHealthy: 1, desiredHealthy: 0, expectedPods: 1 })
        .obj(),
    ];
    const plan = buildPlan(
      makeIndex({ nodes: gpuNodes, pods: [gpuPod('train-x')], pdbs, jobs: [makeJob().name('train').ns('ml').obj()] }),
      options(),
    );
    expect(plan.verdict).toBe('disruptive');
    expect(plan.outages?.map((o) => [o.kind, o.name, o.pods, o.until, o.returnsOn])).toEqual([
      ['Job', 'train', ['ml/train-x'], 'node-returns', ['n1']],
    ]);
    expect(plan.verdictReasons[0]).toMatch(/^Job ml\/train: 1 of 1 replica down until n1 returns \(no node takes/);
    expect(planExitCode(plan, true)).toBe(5);
  });

  it('a pod no node admits even once the drained node returns (its labels changed under it) is down for good', () => {
    // requiredDuringSchedulingIgnoredDuringExecution: the pod keeps running on n1 though n1 no longer matches.
    const pod = db().nodeSelector({ disk: 'ssd' }).obj();
    const plan = buildPlan(makeIndex({ nodes, pods: [pod], statefulSets }), options());
    expect(plan.verdict).toBe('disruptive');
    expect(plan.outages?.map((o) => [o.until, o.returnsOn])).toEqual([['for-good', []]]);
    expect(verdictHeadline(plan)).toBe(
      'DISRUPTIVE: draining n1 leaves StatefulSet demo/db with 1 of 1 replica down for good: no node takes it, not even once the drained nodes return',
    );
  });

  it('counts the replicas down of the workload: 2 of 3 when two of its pods have nowhere to go', () => {
    // Three pods of web, one per node of three, each node full but its own: the two drained have no room elsewhere.
    const full = (name: string) => makeNode().name(name).allocatable('200m', '1Gi').obj();
    const pods = [
      web('a', 'n1').requests('150m').obj(),
      web('b', 'n2').requests('150m').obj(),
      web('c', 'n3').requests('150m').obj(),
    ];
    const plan = buildPlan(
      makeIndex({ nodes: [full('n1'), full('n2'), full('n3')], pods, ...owners }),
      options({ nodes: ['n1', 'n2'] }),
    );
    expect(plan.verdict).toBe('disruptive');
    expect(plan.outages?.map((o) => [o.kind, o.name, o.replicas, o.pods.length])).toEqual([
      ['Deployment', 'web', 3, 2],
    ]);
    expect(verdictHeadline(plan)).toMatch(
      /^DISRUPTIVE: draining n1, n2 leaves Deployment shop\/web with 2 of 3 replicas down until n1, n2 return$/,
    );
  });

  it('a replacement that finds a node is no outage: clear stays clear', () => {
    const plan = buildPlan(makeIndex({ nodes, pods: [web('a').obj()], ...owners }), options());
    expect(plan.verdict).toBe('clear');
    expect(plan.outages).toEqual([]);
  });

  it('a blocked drain stays blocked (exit 3); the outage is said after what blocks it', () => {
    const pdbs = [
      makePdb()
        .name('web')
        .ns('shop')
        .selector({ app: 'web' })
        .maxUnavailable(0)
        .status({ disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 })
        .obj(),
    ];
    const plan = buildPlan(
      makeIndex({ nodes, pods: [db().obj(), web('a').obj()], statefulSets, pdbs, ...owners }),
      options(),
    );
    expect(plan.verdict).toBe('blocked');
    expect(plan.verdictReasons[0]).toMatch(/^cannot evict shop\/a: budget shop\/web never allows/);
    expect(plan.verdictReasons.at(-1)).toMatch(/^StatefulSet demo\/db: 1 of 1 replica down until n1 returns/);
    expect(plan.outages?.map((o) => o.name)).toEqual(['db']);
    expect(planExitCode(plan, false)).toBe(3);
  });

  it('an outage found in what was read stands when a kind could not be read: disruptive, not incomplete', () => {
    const index = makeIndex({ nodes, pods: [db().obj()], statefulSets, kinds: ['Node', 'Pod', 'StatefulSet'] });
    const plan = buildPlan(index, options());
    expect(plan.unread.map((u) => u.kind)).toEqual(['PodDisruptionBudget']);
    expect(plan.verdict).toBe('disruptive');
    expect(planExitCode(plan, false)).toBe(5);
  });

  it('the pool plan ranks a disruptive batch above a slow one and below a blocked one', () => {
    const pool = buildPoolPlan(
      makeIndex({ nodes, pods: [db().obj(), web('a', 'n2').obj()], statefulSets, ...owners }),
      {
        ...options({ nodes: ['n1', 'n2'] }),
        maxUnavailable: 1,
      },
    );
    expect(pool.batches.map((b) => [b.nodes, b.verdict])).toContainEqual([['n1'], 'disruptive']);
    expect(pool.verdict).toBe('disruptive');
  });
});
