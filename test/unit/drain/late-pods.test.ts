import { readFileSync } from 'node:fs';
import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { findLatePods, latePodsClassifier } from '../../../src/drain/late-pods.js';
import { UNMANAGED_FATAL } from '../../../src/plan/drain-filters/unreplicated.js';
import type { PlanOptions } from '../../../src/plan/types.js';
import { snapshotFromText } from '../../../src/snapshot/load-file.js';
import { makePod } from '../builders.js';
import { options as ruleOptions } from '../plan/rules-fixture.js';

// The hello scenario as the lab serves it (two hello pods on k8s-node-1, budget demo/hello), and pods
// bound to k8s-node-1 after that read: what the drain finds when it lists the node again.

const NOW = Date.parse('2026-11-30T12:00:00Z') / 1000;
const path = new URL('../../fixtures/plan/hello.json', import.meta.url);
const hello = snapshotFromText(readFileSync(path, 'utf8'), { type: 'file', path: path.pathname }, 'hello');

const options = (overrides: Partial<PlanOptions> = {}) => ruleOptions({ nodes: ['k8s-node-1'], ...overrides });

/** A replacement of hello's ReplicaSet, bound to k8s-node-1 by a scheduler that had not seen the cordon. */
const lateHello = makePod()
  .ns('demo')
  .name('hello-7d4b9c8f6d-late1')
  .uid('uid-late-hello')
  .labels({ app: 'hello', 'pod-template-hash': '7d4b9c8f6d' })
  .owner('ReplicaSet', 'hello-7d4b9c8f6d')
  .node('k8s-node-1')
  .obj();
/** A pod created with spec.nodeName and no controller: the scheduler and the cordon never saw it. */
const barePod = makePod().ns('demo').name('debug').uid('uid-bare').node('k8s-node-1').obj();
/** The pod of a DaemonSet created after the plan read the cluster: the plan's state has no such DaemonSet. */
const newDaemonPod = makePod()
  .ns('kube-system')
  .name('node-agent-x1')
  .uid('uid-agent')
  .owner('DaemonSet', 'node-agent')
  .node('k8s-node-1')
  .obj();

describe('latePodsClassifier: a pod found on a drained node after the plan, treated as the plan would have', () => {
  it('a replacement of a planned workload is evicted, under the budget that selects it, with its own grace period', () => {
    const work = latePodsClassifier(hello, options())([lateHello], NOW);
    expect(work.refused).toEqual([]);
    expect(work.skipped).toEqual([]);
    expect(work.targets).toEqual([
      {
        ref: { namespace: 'demo', name: 'hello-7d4b9c8f6d-late1', uid: 'uid-late-hello', node: 'k8s-node-1' },
        method: 'evict',
        pdbs: ['demo/hello'],
        ownGraceSeconds: 30,
        labels: { app: 'hello', 'pod-template-hash': '7d4b9c8f6d' },
      },
    ]);
  });

  it('--disable-eviction deletes it instead', () => {
    const work = latePodsClassifier(hello, options({ disableEviction: true }))([lateHello], NOW);
    expect(work.targets.map((t) => t.method)).toEqual(['delete']);
  });

  it("a pod without a controller is refused with kubectl's reason, and --force lets it go", () => {
    const refused = latePodsClassifier(hello, options())([barePod], NOW);
    expect(refused.targets).toEqual([]);
    expect(refused.refused).toEqual([
      { ref: { namespace: 'demo', name: 'debug', uid: 'uid-bare', node: 'k8s-node-1' }, reason: UNMANAGED_FATAL },
    ]);
    const forced = latePodsClassifier(hello, options({ force: true }))([barePod], NOW);
    expect(forced.targets.map((t) => t.ref.name)).toEqual(['debug']);
    expect(forced.refused).toEqual([]);
  });

  it('with --ignore-daemonsets, the pod of a DaemonSet the plan never saw is left alone, not refused as "not found"', () => {
    const work = latePodsClassifier(hello, options())([newDaemonPod], NOW);
    expect(work.targets).toEqual([]);
    expect(work.refused).toEqual([]);
    expect(work.skipped.map((s) => [s.ref.name, s.reason])).toEqual([['node-agent-x1', 'DaemonSet-managed pod']]);
  });

  it('without --ignore-daemonsets such a pod is refused, as kubectl refuses a DaemonSet pod', () => {
    const work = latePodsClassifier(hello, options({ ignoreDaemonSets: false }))([newDaemonPod], NOW);
    expect(work.targets).toEqual([]);
    expect(work.refused.map((r) => r.ref.name)).toEqual(['node-agent-x1']);
  });

  it('--pod-selector leaves out the pods it does not select, as kubectl never lists them', () => {
    const work = latePodsClassifier(hello, options({ podSelector: 'app=other' }))([lateHello, barePod], NOW);
    expect(work).toEqual({ targets: [], skipped: [], refused: [] });
  });
});

describe('findLatePods: the drained nodes listed again, less the pods the drain knows', () => {
  const planned = hello.pods.filter((p) => p.spec?.nodeName === 'k8s-node-1');
  const known = new Set(planned.map((p) => p.metadata?.uid ?? ''));
  const listing = (byNode: Record<string, V1Pod[]>) => ({
    listPodsOnNode: async (node: string) => byNode[node] ?? [],
  });

  it('finds only the pods bound since the plan, on every drained node', async () => {
    const onNode2 = makePod().ns('demo').name('debug-2').uid('uid-bare-2').node('k8s-node-2').obj();
    const api = listing({ 'k8s-node-1': [...planned, lateHello], 'k8s-node-2': [onNode2] });
    const work = await findLatePods(
      api,
      ['k8s-node-1', 'k8s-node-2'],
      known,
      latePodsClassifier(hello, options({ nodes: ['k8s-node-1', 'k8s-node-2'], force: true })),
      NOW,
    );
    expect(work.targets.map((t) => `${t.ref.node}/${t.ref.name}`)).toEqual([
      'k8s-node-1/hello-7d4b9c8f6d-late1',
      'k8s-node-2/debug-2',
    ]);
  });

  it('finds nothing when the node holds only the planned pods', async () => {
    const work = await findLatePods(
      listing({ 'k8s-node-1': planned }),
      ['k8s-node-1'],
      known,
      latePodsClassifier(hello, options()),
      NOW,
    );
    expect(work).toEqual({ targets: [], skipped: [], refused: [] });
  });

  it('a failed list is the caller’s to report: it is not taken for an empty node', async () => {
    const failing = {
      listPodsOnNode: async () => {
        throw new Error('connect ECONNREFUSED 127.0.0.1:6443');
      },
    };
    await expect(
      findLatePods(failing, ['k8s-node-1'], known, latePodsClassifier(hello, options()), NOW),
    ).rejects.toThrow('ECONNREFUSED');
  });
});
