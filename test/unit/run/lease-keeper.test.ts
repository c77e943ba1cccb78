import type { V1Lease, V1Node } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { RunApi } from '../../../src/kube/run-api.js';
import { LeaseKeeper, LeaseLost, writeOwnNode } from '../../../src/run/lease-keeper.js';
import { ANNOTATION } from '../../../src/run/state.js';

const RUN = 'r-1';
const HOLDER = 'me@host/1';

const lease = (holder: string): V1Lease => ({
  metadata: { name: `run-${RUN}`, resourceVersion: '7' },
  spec: { holderIdentity: holder, leaseDurationSeconds: 40, renewTime: new Date(1_000_000).toISOString() as never },
});

const claimed: V1Node = { metadata: { name: 'n1', resourceVersion: '42', annotations: { [ANNOTATION.run]: RUN } } };

/** An answer the test hands over when it chooses. */
function later<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A RunApi whose Lease and node reads wait for the test, and which records every call in order. */
function fakeApi() {
  const calls: string[] = [];
  const leaseReads: Array<ReturnType<typeof later<V1Lease | null>>> = [];
  const nodeReads: Array<ReturnType<typeof later<V1Node>>> = [];
  const api = {
    readLease: () => {
      calls.push('get lease');
      const read = later<V1Lease | null>();
      leaseReads.push(read);
      return read.promise;
    },
    readNode: () => {
      calls.push('get node');
      const read = later<V1Node>();
      nodeReads.push(read);
      return read.promise;
    },
    annotateNodeIfUnchanged: (_name: string, _annotations: unknown, rv: string | undefined) => {
      calls.push(`patch node at ${rv}`);
      return Promise.resolve(claimed);
    },
  } as unknown as RunApi;
  return { api, calls, leaseReads, nodeReads };
}

const keeperOf = (api: RunApi) =>
  new LeaseKeeper({ api, namespace: 'kubectl-maint', holder: HOLDER, now: () => 1_000_000 }, lease(HOLDER), () => {});

const flush = () => new Promise((r) => setImmediate(r));

describe('LeaseKeeper confirm', () => {
  it('Confirms asked while a read of the Lease is on its way share that read', async () => {
    const { api, calls, leaseReads } = fakeApi();
    const keeper = keeperOf(api);
    const confirms = Promise.all([keeper.confirm(), keeper.confirm(), keeper.confirm()]);
    await flush();
    expect(calls).toEqual(['get lease']);
    leaseReads[0]!.resolve(lease(HOLDER));
    await confirms;
    // Asked after that read answered: a read of its own.
    const next = keeper.confirm();
    await flush();
    expect(calls).toEqual(['get lease', 'get lease']);
    leaseReads[1]!.resolve(lease('other@host/2'));
    await expect(next).rejects.toBeInstanceOf(LeaseLost);
  });
});

/** A phase written on node n1 by run r-1, its Lease confirmed by its keeper. */
function phaseWrite() {
  const fake = fakeApi();
  const keeper = keeperOf(fake.api);
  const write = writeOwnNode(
    fake.api,
    RUN,
    'n1',
    { [ANNOTATION.phase]: 'draining' },
    { confirm: () => keeper.confirm() },
  );
  return { ...fake, write };
}

describe('writeOwnNode', () => {
  it('Reads the Lease and the node side by side, and writes once both have answered', async () => {
    const { calls, leaseReads, nodeReads, write } = phaseWrite();
    await flush();
    expect(calls.toSorted()).toEqual(['get lease', 'get node']);
    nodeReads[0]!.resolve(claimed);
    await flush();
    expect(calls).not.toContain('patch node at 42');
    leaseReads[0]!.resolve(lease(HOLDER));
    await write;
    expect(calls.at(-1)).toBe('patch node at 42');
  });

  it('Writes nothing when the Lease read beside the node is held by another process', async () => {
    const { calls, leaseReads, nodeReads, write } = phaseWrite();
    await flush();
    nodeReads[0]!.resolve(claimed);
    leaseReads[0]!.resolve(lease('other@host/2'));
    await expect(write).rejects.toBeInstanceOf(LeaseLost);
    expect(calls.filter((c) => c.startsWith('patch'))).toEqual([]);
  });
});
