import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/cli/kube-connect.js';
import { ClusterCache } from '../../src/kube/cluster-cache.js';
import { permissionsOf } from '../../src/kube/permissions.js';
import { leaseName } from '../../src/run/state.js';
import {
  auditMark,
  auditSince,
  maintReads,
  nodeConflicts,
  nodeGets,
  nodePodLists,
  nodeRequests,
  type MaintReads,
} from './audit.js';
import { LATE_LISTS } from '../../src/drain/engine.js';
import { runMaint } from './drain-run.js';
import { labComponent, restartedApiServer } from './faults/faults.js';
import { eventually, kubectl, kubectlJson, labEnv, labUserKubeconfig, seedScenario } from './lab.js';
import { poolRunArgs } from '../../scripts/lab/pool-run.js';
import { described, finish, POOL, scratch, start } from './run-helpers.js';

// How the plugin reads the cluster, as the lab's API server saw it (its audit log logs every list and
// watch): a drain and a run list each kind once and follow it from watches after; one consistent LIST
// from a server that answers it from its watch cache, else the streaming list where the server serves it
// and a LIST where it refuses it; a read throttled by API priority and fairness waits and goes on.

const work = scratch();
afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
  await kubectl(['delete', 'flowschema', THROTTLED, '--ignore-not-found']);
  await kubectl(['delete', 'prioritylevelconfiguration', THROTTLED, '--ignore-not-found']);
  await kubectl(['delete', 'clusterrolebinding,clusterrole', LIST_ONLY, '--ignore-not-found']);
  await kubectl(['delete', 'clusterrolebinding,clusterrole', THROTTLED, '--ignore-not-found']);
});

const LIST_ONLY = 'maint-e2e-list-only';
const THROTTLED = 'maint-e2e-throttled';
/** The resources every plan lists: the plan's role, from the one list of rights (kube/permissions.ts). */
const PLAN_KINDS = permissionsOf('plan').map((p) => p.resource);

/**
 * Each kind the plan reads was read whole exactly once, as a consistent read from a server that answers it
 * from its watch cache: one LIST without a resourceVersion (the state of etcd now) and without pages.
 */
function expectOneConsistentListPerKind(reads: MaintReads): void {
  for (const kind of PLAN_KINDS) {
    expect(reads.whole.get(kind), `${kind}: ${JSON.stringify(reads.whole.get(kind))}`).toHaveLength(1);
  }
  const other = [...reads.whole.values()]
    .flat()
    .filter((read) => !read.startsWith('list ') || /[?&](limit|resourceVersion)=/.test(read));
  expect(other).toEqual([]);
}

describe('the reads of kubectl maint, in the API server audit log', () => {
  it('a run over six nodes in three batches reads each kind once and plans from watches after', async () => {
    await seedScenario('pool');
    await kubectl(['delete', 'leases', '-n', 'kubectl-maint', '-l', 'maint.kubectl.io/run', '--ignore-not-found']);
    const mark = await auditMark();
    const r = await finish(await start(poolRunArgs(['true'], { expectReboot: false })));
    const why = described(r);
    expect(r.exitCode, why).toBe(0);
    const started = r.events.find((e) => e.type === 'run-started');
    const batches = started?.type === 'run-started' ? started.batches : [];
    expect(batches.flat().sort(), why).toEqual(POOL);
    expect(batches.length, why).toBeGreaterThanOrEqual(3);
    const events = await auditSince(mark);
    const reads = maintReads(events);
    expectOneConsistentListPerKind(reads);
    // A node is read (GET) only where the run's watch of nodes cannot answer: its claim, the drain's cordon,
    // the node's uid for its Events, and a write after a drain mark's renewal; each phase's write starts
    // from the watch's copy, or from the answer to the run's last write. A guarded write refused with 409
    // (the node changed meanwhile, as a loaded lab makes likelier) costs one more GET.
    const gets = nodeGets(events);
    const conflicts = nodeConflicts(events);
    const overRead = POOL.filter((node) => (gets.get(node) ?? 0) > 5 + (conflicts.get(node) ?? 0));
    expect(
      overRead.map((node) => `${node}: ${nodeRequests(events, node).join(', ')}`),
      JSON.stringify([...gets]),
    ).toEqual([]);
    // The drains of the run follow their pods and budgets from the cache, the run its nodes and budgets:
    // no watch of one node's pods, one namespace's budgets, one node. Each drain lists its nodes' pods from
    // the API server once they are cordoned and once they are empty, as kubectl lists them after its
    // cordon. The one other read is the run's check, before it writes, that its state namespace exists.
    const lists = nodePodLists(reads.other);
    expect([...lists.byNode.keys()].sort()).toEqual(POOL);
    const listed = [...lists.byNode.values()];
    expect(
      listed.every((n) => n >= 2 && n <= 1 + LATE_LISTS),
      JSON.stringify([...lists.byNode]),
    ).toBe(true);
    const stateNamespace = `list /api/v1/namespaces?${`fieldSelector=${encodeURIComponent('metadata.name=kubectl-maint')}`}`;
    expect(lists.rest.filter((read) => read !== stateNamespace)).toEqual([]);
    expect(lists.rest.filter((read) => read === stateNamespace)).toHaveLength(1);
    // The run's own state, apart from the cluster's kinds: its one Lease in the state namespace, listed
    // once and watched by name (client-node's ListWatch), however many batches.
    const runId = started?.type === 'run-started' ? started.runId : '';
    const own = `/namespaces/kubectl-maint/leases?`;
    const byName = `fieldSelector=${encodeURIComponent(`metadata.name=${leaseName(runId)}`)}`;
    expect(reads.leases.filter((read) => !read.includes(own) || !read.includes(byName))).toEqual([]);
    expect(reads.leases.filter((read) => read.startsWith('list '))).toHaveLength(1);
    expect(reads.leases.filter((read) => read.startsWith('watch ')).length).toBeGreaterThan(0);
  });

  it('a drain reads each kind once and follows its pods and budgets from that read', async () => {
    await seedScenario('hello');
    const mark = await auditMark();
    const run = await runMaint(['drain', 'k8s-node-1', '--ignore-daemonsets', '-o', 'json']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.finished).toMatchObject({ result: 'drained', remaining: [], failed: [] });
    // A pod waited for budget hello: the drain followed the budget, and asked what holds it, from the cache.
    expect(run.events.some((e) => e.type === 'pod' && e.state.phase === 'waiting-for-budget')).toBe(true);
    const reads = maintReads(await auditSince(mark));
    expectOneConsistentListPerKind(reads);
    // Besides: the node's pods, listed from the API server once it is cordoned and once it is empty.
    const lists = nodePodLists(reads.other);
    expect(lists.rest).toEqual([]);
    expect(lists.byNode).toEqual(new Map([['k8s-node-1', 2]]));
    expect(reads.leases).toEqual([]);
    // Only the pods and the budgets are followed after their read (a drain plans once).
    expect([...reads.resumed.keys()].filter((r) => r !== 'pods' && r !== 'poddisruptionbudgets')).toEqual([]);
  });

  it('a consistent read is one LIST where the server answers it from its watch cache, else streamed, or LISTs for a user who may not watch; the objects are the same', async () => {
    await seedScenario('hello');
    const rules = PLAN_KINDS.map((kind) => `--resource=${kind}`);
    await kubectl(['create', 'clusterrole', LIST_ONLY, '--verb=list', ...rules]);
    await kubectl(['create', 'clusterrolebinding', LIST_ONLY, `--clusterrole=${LIST_ONLY}`, `--user=${LIST_ONLY}`]);
    // A consistent read (a drain's, a run's): one LIST from a server that answers it from its watch cache,
    // as this lab's does; from another, the streaming list where the user may watch, a LIST where not.
    const consistent = { ...readOptions(), freshness: 'consistent' as const };
    const adminClient = async () => connect({ kubeconfig: (await labEnv()).KUBECONFIG });
    const admin = await ClusterCache.open(await adminClient(), { ...consistent, consistentListFromCache: true });
    admin.stop();
    const streamed = await ClusterCache.open(await adminClient(), consistent);
    streamed.stop();
    const listOnly = await ClusterCache.open(
      await connect({ kubeconfig: await labUserKubeconfig(LIST_ONLY, work) }),
      consistent,
    );
    listOnly.stop();
    // A read from the watch cache as it is (a plan's): a LIST, whoever reads.
    const cached = await ClusterCache.open(await connect({ kubeconfig: (await labEnv()).KUBECONFIG }), readOptions());
    cached.stop();
    const methods = (cache: ClusterCache) => new Set([...cache.reads().values()].map((r) => r.method));
    expect(methods(admin)).toEqual(new Set(['list']));
    expect(methods(streamed)).toEqual(new Set(['stream']));
    expect(methods(listOnly)).toEqual(new Set(['list']));
    expect(methods(cached)).toEqual(new Set(['list']));
    const names = (cache: ClusterCache) =>
      [...cache.objects()].map(([kind, objects]) => [kind, objects.length] as const);
    expect(names(streamed)).toEqual(names(admin));
    expect(names(listOnly)).toEqual(names(admin));
    expect(names(cached)).toEqual(names(admin));
  });

  it('a watch the API server can no longer resume (410 after its restart) reads its kind again, then follows it', async () => {
    await seedScenario('hello');
    const cache = await ClusterCache.open(await connect({ kubeconfig: (await labEnv()).KUBECONFIG }), {
      ...readOptions(),
      watch: true,
    });
    try {
      const podsRead = () => cache.reads().get('Pod')?.count ?? 0;
      expect(podsRead()).toBe(1);
      // A restarted API server's watch cache starts at the revision of etcd then: older ones are gone (410).
      await labComponent('stop', 'kube-apiserver');
      await restartedApiServer();
      await eventually(async () => podsRead() >= 2, 120_000, 'the pods read again');
      await kubectl(['run', 'after-relist', '-n', 'demo', '--image=registry.k8s.io/pause:3.10']);
      await eventually(
        async () =>
          cache.objectsOf('Pod').some((p) => (p as { metadata?: { name?: string } }).metadata?.name === 'after-relist'),
        60_000,
        'the pod created after the relist, seen by the watch',
      );
    } finally {
      cache.stop();
    }
  });

  it('reads that API priority and fairness throttles (429) are sent again after Retry-After, not failed', async () => {
    await seedScenario('hello');
    // A priority level with no nominal seats that rejects what it cannot serve at once, for one user: of
    // the plan's reads sent side by side, all but one are answered 429 each time.
    await kubectl(['apply', '-f', '-'], { input: throttling() });
    await kubectl([
      'create',
      'clusterrole',
      THROTTLED,
      '--verb=list,watch',
      ...PLAN_KINDS.map((k) => `--resource=${k}`),
    ]);
    await kubectl(['create', 'clusterrolebinding', THROTTLED, `--clusterrole=${THROTTLED}`, `--user=${THROTTLED}`]);
    const kubeconfig = await labUserKubeconfig(THROTTLED, work);
    // The API server's APF configuration controller has taken the FlowSchema in once it writes its status.
    await eventually(
      async () =>
        (
          await kubectlJson<{ status?: { conditions?: Array<{ type: string; status: string }> } }>([
            'get',
            'flowschema',
            THROTTLED,
          ])
        ).status?.conditions?.some((c) => c.type === 'Dangling' && c.status === 'False'),
      60_000,
      'the FlowSchema taken in',
    );
    const mark = await auditMark();
    const r = await finish(
      await start(['plan', 'k8s-node-1', '--ignore-daemonsets', '-o', 'json'], { KUBECONFIG: kubeconfig }),
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({ verdict: expect.any(String) as unknown });
    const throttled = (await auditSince(mark)).filter(
      (e) => e.user?.username === THROTTLED && e.responseStatus?.code === 429,
    );
    expect(throttled.length).toBeGreaterThan(0);
  });
});

function readOptions() {
  return {
    kinds: ['Node', 'Pod', 'PodDisruptionBudget', 'ReplicaSet', 'Deployment'] as const,
    required: ['Node', 'Pod'] as const,
    watch: false,
    freshness: 'cache' as const,
  };
}

function throttling(): string {
  return `
apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: PriorityLevelConfiguration
metadata: {name: ${THROTTLED}}
spec:
  type: Limited
  limited:
    nominalConcurrencyShares: 0
    lendablePercent: 0
    borrowingLimitPercent: 0
    limitResponse: {type: Reject}
---
apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: FlowSchema
metadata: {name: ${THROTTLED}}
spec:
  priorityLevelConfiguration: {name: ${THROTTLED}}
  matchingPrecedence: 100
  distinguisherMethod: {type: ByUser}
  rules:
    - subjects: [{kind: User, user: {name: ${THROTTLED}}}]
      resourceRules: [{verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*']}]
      nonResourceRules: [{verbs: ['*'], nonResourceURLs: ['*']}]
`;
}
