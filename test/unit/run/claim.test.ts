import type { V1Lease, V1Node } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { DRAIN_MARK } from '../../../src/drain/drain-mark.js';
import type { RunApi } from '../../../src/kube/run-api.js';
import { claimRun, RunRefused } from '../../../src/run/claim.js';
import { ANNOTATION, leaseName, type RunDefinition } from '../../../src/run/state.js';

const NOW = Date.parse('2026-12-01T14:00:00Z');
const OTHER = '20261201-135900-cd34';
const OTHER_HOLDER = 'ops@elsewhere pid 9';

const definition = {
  id: '20261201-140000-ab12',
  batches: [['pool-1'], ['pool-3']],
  command: ['true'],
  options: {},
} as unknown as RunDefinition;

/** pool-3 as the other run's drain leaves it: claimed by that run, and marked by its drain. */
const drainedByOtherRun: V1Node = {
  metadata: {
    name: 'pool-3',
    resourceVersion: '9',
    annotations: {
      [ANNOTATION.run]: OTHER,
      [ANNOTATION.phase]: 'draining',
      [DRAIN_MARK]: JSON.stringify({
        holder: OTHER_HOLDER,
        run: OTHER,
        expires: new Date(NOW + 30_000).toISOString(),
      }),
    },
  },
};

/** A RunApi over pool-1 (free) and `pool3`, with the other run's Lease held; it records what it is asked. */
function fakeApi(pool3: V1Node) {
  const calls: string[] = [];
  const otherLease: V1Lease = {
    metadata: { name: leaseName(OTHER) },
    spec: { holderIdentity: OTHER_HOLDER, leaseDurationSeconds: 40, renewTime: new Date(NOW) as never },
  };
  const nodes: Record<string, V1Node> = {
    'pool-1': { metadata: { name: 'pool-1', resourceVersion: '5' } },
    'pool-3': pool3,
  };
  const api = {
    createLease: (_ns: string, lease: V1Lease) => (calls.push('create lease'), Promise.resolve(lease)),
    deleteLease: () => (calls.push('delete lease'), Promise.resolve()),
    readLease: (_ns: string, name: string) => Promise.resolve(name === leaseName(OTHER) ? otherLease : null),
    readNode: (name: string) => Promise.resolve(nodes[name]!),
    annotateNodeIfUnchanged: (name: string) => (calls.push(`claim ${name}`), Promise.resolve(nodes[name]!)),
    annotateNode: (name: string) => (calls.push(`release ${name}`), Promise.resolve()),
  } as unknown as RunApi;
  return { api, calls };
}

describe('claimRun', () => {
  it("refuses a node another run holds by naming that run, not its drain's mark, and undoes its claims", async () => {
    const { api, calls } = fakeApi(drainedByOtherRun);
    const ctx = { api, namespace: 'kubectl-maint', holder: 'me@here pid 1', nowMs: NOW };
    const claim = claimRun(ctx, definition, false);
    await expect(claim).rejects.toBeInstanceOf(RunRefused);
    await expect(claim).rejects.toThrow(
      new RegExp(
        `^node "pool-3" is in run ${OTHER} held by ${OTHER_HOLDER} \\(its lease expires in 40s unless renewed\\)`,
      ),
    );
    expect(calls).toEqual(['create lease', 'claim pool-1', 'release pool-1', 'delete lease']);
  });

  it('refuses a node a drain outside any run marks, naming that drain', async () => {
    const {
      [ANNOTATION.run]: _run,
      [ANNOTATION.phase]: _phase,
      ...onlyMark
    } = drainedByOtherRun.metadata!.annotations!;
    const { api } = fakeApi({ metadata: { ...drainedByOtherRun.metadata, annotations: onlyMark } });
    const ctx = { api, namespace: 'kubectl-maint', holder: 'me@here pid 1', nowMs: NOW };
    await expect(claimRun(ctx, definition, false)).rejects.toThrow(/^node "pool-3" is being drained by run /);
  });

  it('claims a node unchanged since the pool was planned on it without reading it again, and reads again one that changed', async () => {
    // The cluster now: pool-1 as planned (resourceVersion 5), pool-3 changed since (a label: 12, planned at 11).
    const now: Record<string, V1Node> = {
      'pool-1': { metadata: { name: 'pool-1', resourceVersion: '5' } },
      'pool-3': { metadata: { name: 'pool-3', resourceVersion: '12', labels: { rack: 'b' } } },
    };
    const calls: string[] = [];
    const api = {
      createLease: (_ns: string, lease: V1Lease) => Promise.resolve(lease),
      readNode: (name: string) => (calls.push(`read ${name}`), Promise.resolve(now[name]!)),
      // A patch guarded by a resourceVersion: refused (null) when the node changed since that read.
      annotateNodeIfUnchanged: (name: string, _annotations: unknown, resourceVersion: string) => {
        const taken = now[name]!.metadata!.resourceVersion === resourceVersion;
        calls.push(`claim ${name} at ${resourceVersion}: ${taken ? 'taken' : 'conflict'}`);
        return Promise.resolve(taken ? now[name]! : null);
      },
    } as unknown as RunApi;
    const planned = new Map<string, V1Node>([
      ['pool-1', now['pool-1']!],
      ['pool-3', { metadata: { name: 'pool-3', resourceVersion: '11' } }],
    ]);
    const ctx = { api, namespace: 'kubectl-maint', holder: 'me@here pid 1', nowMs: NOW };
    await claimRun(ctx, definition, false, planned);
    expect(calls).toEqual([
      'claim pool-1 at 5: taken',
      'claim pool-3 at 11: conflict',
      'read pool-3',
      'claim pool-3 at 12: taken',
    ]);
  });
});
