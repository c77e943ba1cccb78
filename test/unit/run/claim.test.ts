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
});
