import type { V1Node } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { RunApi } from '../../../src/kube/run-api.js';
import { PhaseStore } from '../../../src/run/phase-store.js';
import { ANNOTATION, type RunDefinition } from '../../../src/run/state.js';

const RUN = 'r-1';
const definition = { id: RUN, batches: [['n1']] } as unknown as RunDefinition;

/** An answer the test hands over when it chooses. */
function later<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const flush = () => new Promise((r) => setImmediate(r));

/**
 * A PhaseStore over node n1 of run r-1 whose status patches (the lifecycle conditions) and Lease reads
 * wait for the test; the node reads and the phase patches answer at once. Every call is recorded in order.
 */
function store() {
  const calls: string[] = [];
  const statusPatches: Array<ReturnType<typeof later<V1Node>>> = [];
  const leaseReads: Array<ReturnType<typeof later<void>>> = [];
  let rv = 1;
  const node = (): V1Node => ({
    metadata: { name: 'n1', resourceVersion: String(rv), annotations: { [ANNOTATION.run]: RUN } },
  });
  const api = {
    readNode: () => Promise.resolve(node()),
    annotateNodeIfUnchanged: (_name: string, annotations: Record<string, string>) => {
      calls.push(`phase ${annotations[ANNOTATION.phase]}`);
      rv += 1;
      return Promise.resolve(node());
    },
    setNodeConditions: (_name: string, conditions: Array<{ message: string }>) => {
      calls.push(`conditions of ${conditions[0]!.message.replace(/.* /, '')}`);
      const patch = later<V1Node>();
      statusPatches.push(patch);
      return patch.promise;
    },
  } as unknown as RunApi;
  const confirmHeld = () => {
    calls.push('get lease');
    const read = later<void>();
    leaseReads.push(read);
    return read.promise;
  };
  const clock = { now: () => 1_000_000, sleep: () => Promise.resolve(true) };
  const phases = new PhaseStore(
    definition,
    { api, clock, confirmHeld, writeConditions: true },
    () => ({ clock, heldUntil: () => 2_000_000, onAway: () => {} }),
    () => {},
  );
  /** Answers each Lease read asked so far: the run still holds its Lease. */
  const held = () => leaseReads.splice(0).forEach((read) => read.resolve());
  /** A phase write whose Lease read answers that the run holds it. */
  const writeHeld = async (write: Promise<void>) => {
    await flush();
    held();
    await write;
  };
  return { phases, calls, statusPatches, held, writeHeld };
}

describe('PhaseStore: the lifecycle conditions behind the phases', () => {
  it('Writes only the later conditions when a step goes on at once to its next phase, which waits for no status patch', async () => {
    const { phases, calls, statusPatches, writeHeld } = store();
    await writeHeld(phases.set('n1', 1, 'returned'));
    // The step goes on at once: done is written before returned's conditions were sent.
    await writeHeld(phases.set('n1', 1, 'done', undefined, { uncordon: true }));
    await flush();
    expect(calls).toEqual(['get lease', 'phase returned', 'get lease', 'phase done', 'conditions of done']);
    statusPatches[0]!.resolve({});
    await phases.settled();
  });

  it('Writes the conditions of a phase that stays put, and the next phase reads its Lease while they are on their way', async () => {
    const { phases, calls, statusPatches, held, writeHeld } = store();
    await writeHeld(phases.set('n1', 1, 'command-running'));
    await flush();
    expect(calls).toEqual(['get lease', 'phase command-running', 'conditions of command-running']);
    // The command ends while the status patch is still on its way: the Lease is read meanwhile, and the
    // phase written once the patch and the Lease have both answered.
    const done = phases.set('n1', 1, 'command-done');
    await flush();
    expect(calls.at(-1)).toBe('get lease');
    held();
    await flush();
    expect(calls).not.toContain('phase command-done');
    statusPatches[0]!.resolve({});
    await done;
    expect(calls.slice(3)).toEqual(['get lease', 'phase command-done']);
    await flush();
    statusPatches[1]!.resolve({});
    await phases.settled();
    expect(calls.at(-1)).toBe('conditions of command-done');
  });
});
