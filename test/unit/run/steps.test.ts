import type { V1Node, V1PodDisruptionBudget } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { BudgetKey } from '../../../src/plan/budgets.js';
import { budgetsShort } from '../../../src/run/budget-recovery.js';
import { commandDue } from '../../../src/run/command-step.js';
import { needsDrain, planVerdict } from '../../../src/run/drain-step.js';
import { nodesToPause } from '../../../src/run/pause-step.js';
import { NOT_WRITTEN, startingPhases, unwrittenEntry } from '../../../src/run/phase-store.js';
import { isBack, notBackReason } from '../../../src/run/return-step.js';
import { ANNOTATION, phaseSeal, type NodePhase, type RunDefinition } from '../../../src/run/state.js';

/** A node as the API server returns it: its phase annotations, its cordon, Ready or not, its bootID. */
const node = (
  name: string,
  o: {
    phase?: string;
    seal?: string;
    since?: string;
    cordoned?: boolean;
    ready?: boolean;
    bootId?: string;
    bootBefore?: string;
  } = {},
): V1Node => ({
  metadata: {
    name,
    annotations: {
      ...(o.phase ? { [ANNOTATION.phase]: o.phase } : {}),
      ...(o.since ? { [ANNOTATION.since]: o.since } : {}),
      ...(o.seal ? { [ANNOTATION.seal]: o.seal } : {}),
      ...(o.bootBefore ? { [ANNOTATION.bootId]: o.bootBefore } : {}),
    },
  },
  spec: { unschedulable: o.cordoned ?? false },
  status: {
    conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }],
    ...(o.bootId ? { nodeInfo: { bootID: o.bootId } as never } : {}),
  },
});

const pdb = (allowed: number, generation = 1, observed = 1): V1PodDisruptionBudget => ({
  metadata: { generation },
  status: { disruptionsAllowed: allowed, observedGeneration: observed } as never,
});

describe('startingPhases: where each node starts a run or a resume', () => {
  const definition = { id: 'r1', batches: [['a', 'b'], ['c']], released: ['c'] } as const;

  it('takes each node phase and cordon in batch order, and a released node stays done', () => {
    const reads = [
      node('a', { phase: 'drained', cordoned: true }),
      node('b'),
      node('c', { phase: 'drained', cordoned: true }),
    ];
    expect(startingPhases(definition, reads)).toEqual([
      { node: 'a', batch: 1, phase: 'drained', distrusted: undefined, cordoned: true },
      { node: 'b', batch: 1, phase: 'pending', distrusted: undefined, cordoned: false },
      { node: 'c', batch: 2, phase: 'done', cordoned: false },
    ]);
  });

  it('starts over a node whose phase the run did not seal, and keeps one it did', () => {
    const since = '2026-01-01T00:00:00.000Z';
    const sealed = { ...definition, sealKey: 'k', released: [] };
    const seal = phaseSeal('k', 'r1', 'a', 'command-running', since);
    const reads = [
      node('a', { phase: 'command-running', since, seal }),
      node('b', { phase: 'command-running', since, seal }),
      node('c'),
    ];
    const [a, b] = startingPhases(sealed, reads);
    expect(a).toMatchObject({ phase: 'command-running', distrusted: undefined });
    expect(b).toMatchObject({ phase: 'pending', distrusted: 'command-running' });
  });
});

describe('unwrittenEntry: where a node is when the API server never took its phase', () => {
  const was = { batch: 2, phase: 'drained' as NodePhase, problem: undefined };

  it('a step that never started leaves the node where it was, naming the phase not written', () => {
    expect(unwrittenEntry(was, 2, 'command-running', undefined)).toEqual({
      batch: 2,
      phase: 'drained',
      problem: `command-running: ${NOT_WRITTEN}`,
    });
    expect(unwrittenEntry(undefined, 2, 'draining', undefined)).toBeUndefined();
  });

  it('a step that ended is at its end, its own problem kept before the note', () => {
    expect(unwrittenEntry(was, 2, 'command-failed', 'command exit 3')).toEqual({
      batch: 2,
      phase: 'command-failed',
      problem: `command exit 3; ${NOT_WRITTEN}`,
    });
  });
});

describe('needsDrain and commandDue: which steps a (resumed) node goes through', () => {
  it.each<[NodePhase, boolean]>([
    ['pending', true],
    ['draining', true],
    ['drain-failed', true],
    ['drained', false],
    ['command-failed', false],
    ['not-returned', false],
    ['done', false],
  ])('%s drains first: %s', (phase, expected) => expect(needsDrain(phase)).toBe(expected));

  it.each<[NodePhase, boolean, boolean]>([
    ['drained', false, true],
    ['command-running', false, false],
    ['command-running', true, true],
    ['command-failed', true, true],
    ['command-killed', true, true],
    ['command-done', true, false],
    ['returning', true, false],
  ])('%s (--rerun-command %s) runs the command: %s', (phase, rerun, expected) =>
    expect(commandDue(phase, rerun)).toBe(expected),
  );
});

describe('planVerdict: what a fresh plan read just now calls for', () => {
  const base = { blocked: true, slots: 2, inFlightAtRead: 2, inFlight: 2, pastDeadline: false, settled: () => false };

  it('takes a plan not blocked without asking whether the cluster settled', () => {
    const settled = () => {
      throw new Error('asked');
    };
    expect(planVerdict({ ...base, blocked: false, inFlight: 5, settled })).toBe('take');
  });

  it('reads again when a node of the window came back during the read', () => {
    expect(planVerdict({ ...base, inFlightAtRead: 3, inFlight: 2 })).toBe('read-again');
  });

  it('waits for the others while more nodes are out than the group', () => {
    expect(planVerdict({ ...base, inFlightAtRead: 3, inFlight: 3, pastDeadline: true })).toBe('others-out');
    // A node went out while the cluster was read: the plan saw fewer out than there are now.
    expect(planVerdict({ ...base, inFlightAtRead: 2, inFlight: 3 })).toBe('others-out');
  });

  it('asks whether the cluster settled only when that decides: not to read again, nor while others are out', () => {
    const settled = () => {
      throw new Error('asked');
    };
    expect(planVerdict({ ...base, inFlightAtRead: 3, inFlight: 2, settled })).toBe('read-again');
    expect(planVerdict({ ...base, inFlight: 3, settled })).toBe('others-out');
    expect(planVerdict({ ...base, pastDeadline: true, settled })).toBe('take');
  });

  it('trusts a blocked plan once settled or past --budget-timeout, else waits to settle', () => {
    expect(planVerdict(base)).toBe('wait-to-settle');
    expect(planVerdict({ ...base, settled: () => true })).toBe('take');
    expect(planVerdict({ ...base, pastDeadline: true })).toBe('take');
  });
});

describe('nodesToPause: the nodes a --pause waits on', () => {
  const phases = (m: Record<string, NodePhase>) => ({ phaseOf: (n: string) => m[n] ?? 'pending' }) as never;
  const def = (pause: boolean, command: string[] = []) => ({ options: { pause }, command }) as unknown as RunDefinition;
  const p = phases({ a: 'drained', b: 'drained', c: 'drain-failed' });

  it('waits on nodes this process drained, not those a resume found drained nor failed ones', () => {
    expect(nodesToPause({ definition: def(true), phases: p }, ['a', 'b', 'c'], new Set(['b']))).toEqual(['a']);
  });

  it('waits on none without --pause or with a command', () => {
    expect(nodesToPause({ definition: def(false), phases: p }, ['a'], new Set())).toEqual([]);
    expect(nodesToPause({ definition: def(true, ['/bin/true']), phases: p }, ['a'], new Set())).toEqual([]);
  });
});

describe('isBack and notBackReason: a node back in service after its command', () => {
  it('is back once Ready, and with --expect-reboot only with another bootID', () => {
    expect(isBack(node('a', { ready: false }), false)).toBe(false);
    expect(isBack(node('a'), false)).toBe(true);
    expect(isBack(node('a', { bootBefore: 'x', bootId: 'x' }), true)).toBe(false);
    expect(isBack(node('a', { bootBefore: 'x', bootId: 'y' }), true)).toBe(true);
    expect(isBack(node('a', { bootId: 'x' }), true)).toBe(true);
  });

  it('says which flag ran out: the bootID when Ready, Ready otherwise', () => {
    const options = { nodeReadyTimeoutMs: 90_400, expectReboot: true };
    expect(notBackReason(options, node('a'))).toBe(
      'still reports the bootID it had before the command after 90s (--expect-reboot)',
    );
    expect(notBackReason(options, node('a', { ready: false }))).toBe('not Ready after 90s (--node-ready-timeout)');
    expect(notBackReason({ ...options, expectReboot: false }, node('a'))).toBe(
      'not Ready after 90s (--node-ready-timeout)',
    );
  });
});

describe('budgetsShort: the budgets not yet back after a batch', () => {
  const before = new Map<BudgetKey, number>([
    ['ns/a', 1],
    ['ns/b', 2],
    ['ns/gone', 1],
  ]);

  it('names a budget below its allowance before, or whose status is behind its spec; not one gone', () => {
    const read = new Map<BudgetKey, V1PodDisruptionBudget | null>([
      ['ns/a', pdb(0)],
      ['ns/b', pdb(2, 3, 2)],
      ['ns/gone', null],
    ]);
    expect(budgetsShort(before, read)).toEqual([
      { name: 'ns/a', before: 1, now: 0 },
      { name: 'ns/b', before: 2, now: 2 },
    ]);
  });

  it('is empty once every budget is back, at or above where it was', () => {
    const read = new Map<BudgetKey, V1PodDisruptionBudget | null>([
      ['ns/a', pdb(1)],
      ['ns/b', pdb(3)],
    ]);
    expect(budgetsShort(before, read)).toEqual([]);
  });
});
