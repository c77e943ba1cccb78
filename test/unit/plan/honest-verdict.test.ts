import { describe, expect, it } from 'vitest';
import { planExitCode } from '../../../src/cli/exit-codes.js';
import { buildPlan } from '../../../src/plan/build-plan.js';
import { ClusterIndex } from '../../../src/snapshot/cluster-index.js';
import { isVolumeKindWarning, SNAPSHOT_KINDS, type Snapshot } from '../../../src/snapshot/types.js';
import { makeIndex, makePdb, makePod, makeSnapshot, type SnapshotInput } from '../builders.js';
import { nodes, options, owners, web } from './rules-fixture.js';

// The verdict tells what the plan could not read and what the drain destroys for good, before anything
// else; the caveats are only those that can apply to the plan, each with its pods.

const bare = (name: string) => makePod().name(name).ns('tools').node('n1');
const fromFile = (input: SnapshotInput): ClusterIndex =>
  new ClusterIndex({ ...makeSnapshot(input), source: { type: 'file', path: 'cluster.json' } });
const live = (input: SnapshotInput, warnings: string[] = []): ClusterIndex =>
  new ClusterIndex({
    ...makeSnapshot(input),
    source: { type: 'live', context: 'lab', server: 'https://127.0.0.1:6443' },
    warnings,
  } satisfies Snapshot);

describe('warnings: what the drain destroys for good', () => {
  it('--force on pods with no controller: still clear, with a warning that counts and names them', () => {
    const pods = [bare('debug-a').obj(), bare('debug-b').obj(), bare('debug-c').obj(), web('a').obj()];
    const plan = buildPlan(makeIndex({ nodes, pods, ...owners }), options({ force: true }));
    expect(plan.verdict).toBe('clear');
    expect(plan.warnings).toEqual([
      {
        reason: 'PodsNotRecreated',
        message:
          '3 pods are deleted for good, no controller recreates them: tools/debug-a, tools/debug-b, tools/debug-c',
        pods: ['tools/debug-a', 'tools/debug-b', 'tools/debug-c'],
      },
    ]);
  });

  it('--delete-emptydir-data: the pods that lose their emptyDir data, counted', () => {
    const plan = buildPlan(
      makeIndex({ nodes, pods: [web('a').emptyDir().obj(), web('b').obj()], ...owners }),
      options({ deleteEmptyDirData: true }),
    );
    expect(plan.warnings).toEqual([
      {
        reason: 'EmptyDirDataLost',
        message: '1 pod loses the data in its emptyDir volumes: shop/a',
        pods: ['shop/a'],
      },
    ]);
  });

  it('a pod whose owner is gone is lost too; a finished pod loses nothing that runs', () => {
    const pods = [
      makePod().name('orphan').ns('shop').node('n1').owner('ReplicaSet', 'gone-1').obj(),
      bare('done').phase('Succeeded').obj(),
    ];
    const plan = buildPlan(makeIndex({ nodes, pods, ...owners }), options());
    expect(plan.warnings.map((w) => [w.reason, w.pods])).toEqual([['PodsNotRecreated', ['shop/orphan']]]);
  });

  it('nothing is destroyed: no warning', () => {
    const plan = buildPlan(makeIndex({ nodes, pods: [web('a').obj()], ...owners }), options());
    expect(plan.warnings).toEqual([]);
  });
});

describe('incomplete: a kind the plan needs could not be read', () => {
  it('a snapshot without budgets is never clear: incomplete, with what it would have said, and exit 4', () => {
    const plan = buildPlan(
      fromFile({ nodes, pods: [web('a').obj()], ...owners, kinds: ['Node', 'Pod', 'ReplicaSet', 'Deployment'] }),
      options(),
    );
    expect(plan.verdict).toBe('incomplete');
    expect(plan.assumedVerdict).toBe('clear');
    expect(plan.unread).toEqual([
      {
        kind: 'PodDisruptionBudget',
        why: 'snapshot "cluster.json" holds no PodDisruptionBudget object',
        effect: 'budgets are unknown, so evictions the plan calls immediate may wait or be refused',
        pods: ['shop/a'],
      },
    ]);
    expect(plan.verdictReasons[0]).toBe(
      'PodDisruptionBudgets not read: snapshot "cluster.json" holds no PodDisruptionBudget object; budgets are ' +
        'unknown, so evictions the plan calls immediate may wait or be refused (pod shop/a)',
    );
    expect(planExitCode(plan, false)).toBe(4);
    expect(planExitCode(plan, true)).toBe(0);
  });

  it('a user who may not list budgets: the API server refusal is the reason', () => {
    const forbidden =
      'forbidden: user "ro" cannot list poddisruptionbudgets.policy at the cluster scope (PodDisruptionBudget objects not loaded)';
    const plan = buildPlan(
      live({ nodes, pods: [web('a').obj()], ...owners, kinds: ['Node', 'Pod', 'ReplicaSet', 'Deployment'] }, [
        forbidden,
      ]),
      options(),
    );
    expect(plan.verdict).toBe('incomplete');
    expect(plan.unread[0]?.why).toBe(
      'forbidden: user "ro" cannot list poddisruptionbudgets.policy at the cluster scope',
    );
  });

  it('a slow plan that could not read an owner kind of a drained pod is incomplete; --allow-incomplete gives 0', () => {
    const pdb = makePdb()
      .name('web')
      .ns('shop')
      .selector({ app: 'web' })
      .maxUnavailable(1)
      .status({ disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3 })
      .obj();
    const plan = buildPlan(
      fromFile({
        nodes,
        pods: [web('a').obj(), web('b').obj(), web('c', 'n2').obj()],
        pdbs: [pdb],
        kinds: ['Node', 'Pod', 'PodDisruptionBudget'],
      }),
      options(),
    );
    expect([plan.verdict, plan.assumedVerdict]).toEqual(['incomplete', 'slow']);
    expect(plan.unread.map((u) => [u.kind, u.pods])).toEqual([['ReplicaSet', ['shop/a', 'shop/b']]]);
    expect(planExitCode(plan, true)).toBe(0);
  });

  it('an owner kind that owns no drained pod is not needed', () => {
    const plan = buildPlan(
      fromFile({
        nodes,
        pods: [web('a').obj()],
        ...owners,
        kinds: ['Node', 'Pod', 'PodDisruptionBudget', 'ReplicaSet'],
      }),
      options(),
    );
    expect([plan.verdict, plan.unread]).toEqual(['clear', []]);
  });

  it('a blocked plan stays blocked (exit 3) and still says what it could not read', () => {
    const plan = buildPlan(fromFile({ nodes, pods: [bare('debug').obj()], kinds: ['Node', 'Pod'] }), options());
    expect(plan.verdict).toBe('blocked');
    expect(plan.unread).toEqual([]); // a refused pod is not removed: budgets cannot change it
    const withBudgetsUnread = buildPlan(
      fromFile({ nodes, pods: [bare('debug').obj(), web('a').obj()], ...owners, kinds: ['Node', 'Pod', 'ReplicaSet'] }),
      options(),
    );
    expect(withBudgetsUnread.verdict).toBe('blocked');
    expect(planExitCode(withBudgetsUnread, false)).toBe(3);
  });

  it('a file that holds no Pod object cannot tell an empty node from pods not asked for: incomplete', () => {
    const plan = buildPlan(fromFile({ nodes, kinds: ['Node'] }), options());
    expect(plan.verdict).toBe('incomplete');
    expect(plan.assumedVerdict).toBe('clear');
    expect(plan.unread.map((u) => u.kind)).toEqual(['Pod']);
    expect(plan.verdictReasons[0]).toContain('cannot tell an empty cluster from pods not asked for');
  });

  it('live, an empty node is a clear plan (kubectl drains it)', () => {
    const plan = buildPlan(live({ nodes }), options());
    expect([plan.verdict, plan.unread, plan.verdictReasons]).toEqual(['clear', [], ['nothing to evict']]);
    expect(planExitCode(plan, false)).toBe(0);
  });
});

describe('caveats: only those that can apply, each with its pods', () => {
  const pvc = { name: 'data', persistentVolumeClaim: { claimName: 'data-a' } };

  it('volume kinds not read only for the pods with claims, DRA only for the pods with resource claims', () => {
    const claimed = web('a').volume(pvc).obj();
    const gpu = web('b').obj();
    gpu.spec!.resourceClaims = [{ name: 'gpu', resourceClaimName: 'gpu-b' }];
    const kinds = SNAPSHOT_KINDS.filter((k) => k !== 'PersistentVolumeClaim' && k !== 'CSINode');
    const plan = buildPlan(makeIndex({ nodes, pods: [claimed, gpu, web('c').obj()], ...owners, kinds }), options());
    const scope = (prefix: string) => plan.caveatScopes.find((c) => c.caveat.startsWith(prefix));
    expect(scope('PersistentVolumeClaims were not read')?.pods).toEqual(['shop/a']);
    expect(scope('PersistentVolumeClaims were not read')?.caveat).toMatch(/\(pod shop\/a\)$/);
    expect(scope('CSINodes were not loaded: CSI attach limits')?.pods).toEqual(['shop/a']);
    expect(plan.pods.find((p) => p.name === 'a')?.replacement).toMatchObject({ schedulable: true, placedOn: null });
    expect(scope('DynamicResources')?.pods).toEqual(['shop/b']);
    expect(plan.caveats).toEqual(plan.caveatScopes.map((c) => c.caveat));
  });

  it('a volume kind the user may not list is a caveat on the pods with claims only, not on every pod', () => {
    const warning =
      'forbidden: user "u" cannot list persistentvolumeclaims at the cluster scope (PersistentVolumeClaim objects not loaded)';
    const kinds = SNAPSHOT_KINDS.filter((k) => k !== 'PersistentVolumeClaim');
    const snapshot = makeSnapshot({ nodes, pods: [web('a').volume(pvc).obj(), web('b').obj()], ...owners, kinds });
    const plan = buildPlan(new ClusterIndex({ ...snapshot, warnings: [warning] }), options());
    expect(isVolumeKindWarning(warning)).toBe(true);
    expect(plan.caveatScopes.find((c) => c.caveat.startsWith(`snapshot: ${warning}`))?.pods).toEqual(['shop/a']);
  });

  it('a plan with nothing that waits, no claims and no unschedulable replacement lists none of those rules', () => {
    const plan = buildPlan(makeIndex({ nodes, pods: [web('a').obj()], ...owners }), options());
    const rules = plan.caveats.map((c) => c.split(':')[0]);
    expect(rules).not.toContain('Readiness');
    expect(rules).not.toContain('VolumeRestrictions and NodeVolumeLimits');
    expect(rules).not.toContain('DynamicResources');
    expect(rules).not.toContain('DefaultPreemption');
    expect(rules).not.toContain('Pending pods');
  });

  it('preemption only for replacements that find no node; pending pods only when the cluster has some', () => {
    const big = web('a').requests('64').obj();
    const pending = makePod().name('queued').ns('other').requests('100m').obj();
    const plan = buildPlan(makeIndex({ nodes, pods: [big, pending], ...owners }), options());
    expect(plan.caveatScopes.find((c) => c.caveat.startsWith('DefaultPreemption'))?.pods).toEqual(['shop/a']);
    expect(plan.caveats.some((c) => c.startsWith('Pending pods'))).toBe(true);
  });

  it('a namespaceSelector is a caveat on the pods whose terms use one only when the Namespaces were not read', () => {
    const selecting = web('a').obj();
    selecting.spec!.affinity = {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          {
            topologyKey: 'kubernetes.io/hostname',
            labelSelector: { matchLabels: { app: 'db' } },
            namespaceSelector: { matchLabels: { team: 'data' } },
          },
        ],
      },
    };
    const pods = [selecting, web('b').obj()];
    const without = buildPlan(
      makeIndex({ nodes, pods, ...owners, kinds: SNAPSHOT_KINDS.filter((k) => k !== 'Namespace') }),
      options(),
    );
    const scope = without.caveatScopes.find((c) => c.caveat.startsWith('namespaceSelector in pod (anti-)affinity'));
    expect(scope?.pods).toEqual(['shop/a']);
    const a = without.pods.find((p) => p.name === 'a')!.replacement!;
    expect([a.placedOn, a.unknown]).toEqual([null, expect.stringContaining('namespaceSelector')]);
    const read = buildPlan(makeIndex({ nodes, pods, ...owners }), options());
    expect(read.caveats.some((c) => c.includes('namespaceSelector'))).toBe(false);
    expect(read.pods.find((p) => p.name === 'a')!.replacement).toMatchObject({ schedulable: true, placedOn: 'n2' });
  });

  it('an empty node has no caveat about pods at all', () => {
    const plan = buildPlan(live({ nodes }), options());
    expect(plan.caveats).toEqual([]);
  });
});
