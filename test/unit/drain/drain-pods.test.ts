import { describe, expect, it } from 'vitest';
import { DrainPods } from '../../../src/drain/drain-pods.js';
import type { DrainEvent, PodDrainState } from '../../../src/drain/events.js';
import { budgetChanged, type PodMachine } from '../../../src/drain/pod-machine.js';
import type { DrainTarget } from '../../../src/drain/targets.js';
import { waitingForHello } from './states.js';

const target = (name: string, namespace = 'demo'): DrainTarget => ({
  ref: { namespace, name, uid: `uid-${name}`, node: 'n1' },
  method: 'evict',
  pdbs: [],
  ownGraceSeconds: 30,
});

function pods(targets: DrainTarget[]) {
  const events: DrainEvent[] = [];
  const explained: string[] = [];
  const explainer = {
    explain: (key: string) => explained.push(key),
    explained: (_target: DrainTarget, state: PodDrainState) => state,
  };
  const book = new DrainPods(
    { targets, dryRun: 'none', gracePeriodSeconds: -1 },
    10,
    () => explainer,
    { now: () => 42 },
    (e) => events.push(e),
  );
  const entry = (name: string) => book.get(`uid-${name}`)!;
  return { book, events, explained, entry };
}

const withState = (machine: PodMachine, state: PodDrainState): PodMachine => ({ ...machine, state });
const numbers = { disruptionsAllowed: 1, currentHealthy: 4, desiredHealthy: 3, observed: true };

describe('DrainPods', () => {
  it('starts each pod queued, with its grace period, and says nothing until a state changes', () => {
    const { book, events, entry } = pods([target('hello-1')]);
    expect(book.states().map((s) => s.state)).toEqual([{ phase: 'queued' }]);
    expect(entry('hello-1').config.graceSeconds).toBe(30);
    book.update(entry('hello-1'), { ...entry('hello-1').machine, attempts: 1 });
    expect(events).toEqual([]);
  });

  it('says each new state, and has a budget wait explained by its budget’s key', () => {
    const { book, events, explained, entry } = pods([target('hello-1')]);
    book.update(entry('hello-1'), withState(entry('hello-1').machine, { phase: 'evicting', attempt: 1 }));
    book.update(entry('hello-1'), withState(entry('hello-1').machine, waitingForHello));
    expect(explained).toEqual(['demo/hello']);
    expect(events).toEqual([
      { type: 'pod', atMs: 42, pod: target('hello-1').ref, state: { phase: 'evicting', attempt: 1 } },
      { type: 'pod', atMs: 42, pod: target('hello-1').ref, state: waitingForHello },
    ]);
  });

  it('a budget’s news reaches only the pods waiting for that budget in its namespace', () => {
    const { book, entry } = pods([target('hello-1'), target('hello-2', 'other'), target('web-1')]);
    book.update(entry('hello-1'), withState(entry('hello-1').machine, waitingForHello));
    book.update(entry('hello-2'), withState(entry('hello-2').machine, waitingForHello));
    book.update(entry('web-1'), withState(entry('web-1').machine, { phase: 'evicting', attempt: 1 }));
    book.forWaiters('demo/hello', (machine) => budgetChanged(machine, numbers));
    expect(entry('hello-1').machine.state).toMatchObject({ disruptionsAllowed: 1, currentHealthy: 4 });
    expect(entry('hello-2').machine.state).toMatchObject({ disruptionsAllowed: 0, currentHealthy: 3 });
    expect(entry('web-1').machine.state).toEqual({ phase: 'evicting', attempt: 1 });
  });

  it('notes the finalizers of a terminating pod the watch reports deleted, and of no other', () => {
    const { book, entry } = pods([target('hello-1'), target('hello-2')]);
    book.update(entry('hello-1'), withState(entry('hello-1').machine, { phase: 'terminating', deadlineMs: 0 }));
    const deleting = (name: string) => ({
      metadata: { uid: `uid-${name}`, deletionTimestamp: new Date(0), finalizers: ['example.com/keep'] },
    });
    book.noteFinalizers(deleting('hello-1'));
    book.noteFinalizers(deleting('hello-2'));
    book.noteFinalizers({ metadata: { uid: 'uid-hello-1', finalizers: ['example.com/other'] } });
    book.noteFinalizers(deleting('unknown'));
    expect(entry('hello-1').machine.state).toEqual({
      phase: 'terminating',
      deadlineMs: 0,
      finalizers: ['example.com/keep'],
    });
    expect(entry('hello-2').machine.state).toEqual({ phase: 'queued' });
  });
});
