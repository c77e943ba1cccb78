import type { V1Lease } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { liveClaimRefusal, type LeaseRead } from '../../../src/run/live-claim.js';
import { ANNOTATION } from '../../../src/run/state.js';

const NOW = Date.parse('2026-12-04T12:00:00Z');

function claimed(annotations: Record<string, string>) {
  return { metadata: { name: 'pool-4', annotations } };
}

function lease(holder: string | undefined, renewedSecondsAgo: number): V1Lease {
  return {
    metadata: { name: 'maint-run-r1', namespace: 'kubectl-maint' },
    spec: {
      holderIdentity: holder,
      leaseDurationSeconds: 30,
      renewTime: new Date(NOW - renewedSecondsAgo * 1000),
    },
  };
}

/** A Lease reader that holds one Lease and records where it was asked. */
function reader(found: V1Lease | null | Error) {
  const asked: string[] = [];
  const read: LeaseRead = async (namespace, name) => {
    asked.push(`${namespace}/${name}`);
    if (found instanceof Error) throw found;
    return found;
  };
  return { read, asked };
}

const forbidden = Object.assign(new Error('forbidden'), { kind: 'forbidden' });
const OVERRIDE = 'nothing was changed (kubectl maint runs shows the run; --ignore-run-claim acts on it anyway)';

interface Case {
  readonly name: string;
  readonly annotations: Record<string, string>;
  readonly found: V1Lease | null | Error;
  readonly refusal: string | null;
  readonly asked: readonly string[];
}

describe('liveClaimRefusal', () => {
  it.each<Case>([
    {
      name: 'A node in a run whose Lease is held is refused, naming the run, its holder and the phase',
      annotations: {
        [ANNOTATION.run]: 'r1',
        [ANNOTATION.runNamespace]: 'kubectl-maint',
        [ANNOTATION.phase]: 'command-running',
      },
      found: lease('ops@host pid 7', 10),
      refusal: `node "pool-4" is in run r1 held by ops@host pid 7, phase command-running (its lease expires in 20s unless renewed): ${OVERRIDE}`,
      asked: ['kubectl-maint/maint-run-r1'],
    },
    {
      name: 'A node in a run whose Lease expired is left to the operator',
      annotations: { [ANNOTATION.run]: 'r1', [ANNOTATION.runNamespace]: 'kubectl-maint' },
      found: lease('ops@host pid 7', 31),
      refusal: null,
      asked: ['kubectl-maint/maint-run-r1'],
    },
    {
      name: 'A node in a run that stopped (its Lease released) is left to the operator',
      annotations: { [ANNOTATION.run]: 'r1', [ANNOTATION.runNamespace]: 'kubectl-maint' },
      found: lease(undefined, 1),
      refusal: null,
      asked: ['kubectl-maint/maint-run-r1'],
    },
    {
      name: 'A node whose run has no Lease any more is left to the operator',
      annotations: { [ANNOTATION.run]: 'r1', [ANNOTATION.runNamespace]: 'kubectl-maint' },
      found: null,
      refusal: null,
      asked: ['kubectl-maint/maint-run-r1'],
    },
    {
      name: 'A node that does not name its Lease namespace is looked up where runs kept their Leases before',
      annotations: { [ANNOTATION.run]: 'r1', [ANNOTATION.phase]: 'pending' },
      found: lease('ops@host pid 7', 0),
      refusal: `node "pool-4" is in run r1 held by ops@host pid 7, phase pending (its lease expires in 30s unless renewed): ${OVERRIDE}`,
      asked: ['kube-system/maint-run-r1'],
    },
    {
      name: 'A node whose run Lease may not be read is refused: the run may be live',
      annotations: {
        [ANNOTATION.run]: 'r1',
        [ANNOTATION.runNamespace]: 'kubectl-maint',
        [ANNOTATION.phase]: 'drained',
      },
      found: forbidden,
      refusal: `node "pool-4" is in run r1, phase drained, whose Lease kubectl-maint/maint-run-r1 may not be read to tell whether the run is live: ${OVERRIDE}`,
      asked: ['kubectl-maint/maint-run-r1'],
    },
    {
      name: 'A node in no run is not refused, and no Lease is read',
      annotations: {},
      found: new Error('not asked'),
      refusal: null,
      asked: [],
    },
  ])('$name', async ({ annotations, found, refusal, asked }) => {
    const lookup = reader(found);
    expect(await liveClaimRefusal(claimed(annotations), lookup.read, NOW)).toBe(refusal);
    expect(lookup.asked).toEqual(asked);
  });

  it('passes on a failure to read the Lease other than a refusal', async () => {
    const down = Object.assign(new Error('connection refused'), { kind: 'unreachable' });
    await expect(liveClaimRefusal(claimed({ [ANNOTATION.run]: 'r1' }), reader(down).read, NOW)).rejects.toBe(down);
  });
});

describe('the claim annotation cordon reads without loading run/', () => {
  it('is the run annotation', async () => {
    const { CLAIM_ANNOTATION } = await import('../../../src/cli/cordon-nodes.js');
    expect(CLAIM_ANNOTATION).toBe(ANNOTATION.run);
  });
});
