import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../src/run/events.js';
import { RunTrail } from '../../../src/run/node-trail.js';
import type { NodePhase } from '../../../src/run/state.js';

const BY = 'kubectl maint run 20261202-084800-ab12 (ops@bastion pid 4242)';
const trail = (command: readonly string[] = ['/opt/upgrade', '{node}'], uncordon = true) =>
  new RunTrail('20261202-084800-ab12', 'ops@bastion pid 4242', command, uncordon);

const phase = (p: NodePhase, problem?: string): RunEvent => ({
  type: 'phase',
  atMs: 0,
  node: 'pool-1',
  batch: 1,
  phase: p,
  problem,
});
const cordoned = (already: boolean): RunEvent => ({
  type: 'drain',
  atMs: 0,
  batch: 1,
  nodes: ['pool-1'],
  event: { type: 'cordoned', atMs: 0, node: 'pool-1', already, dryRun: false },
});
const commandFinished = (failure: string | null): RunEvent => ({
  type: 'command-finished',
  atMs: 0,
  node: 'pool-1',
  exitCode: failure === null ? 0 : 3,
  failure,
});

const reasons = (t: RunTrail, events: readonly RunEvent[]) =>
  events.flatMap((e) => t.eventsOf(e)).map((e) => `${e.type} ${e.reason} ${e.action}: ${e.note}`);

describe('RunTrail', () => {
  it('a node through the whole run', () => {
    const events = [
      phase('pending'),
      phase('draining'),
      cordoned(false),
      phase('drained'),
      phase('command-running'),
      commandFinished(null),
      phase('command-done'),
      phase('returning'),
      phase('returned'),
      phase('done'),
    ];
    expect(reasons(trail(), events)).toEqual([
      `Normal Cordoned Cordon: cordoned by ${BY}`,
      `Normal Drained Drain: drained by ${BY}`,
      `Normal CommandStarted Command: command of ${BY} started: /opt/upgrade pool-1`,
      `Normal CommandSucceeded Command: command of ${BY} exited 0`,
      `Normal Returned Return: back after the maintenance of ${BY}: Ready`,
      `Normal Uncordoned Uncordon: uncordoned by ${BY}: its maintenance is done`,
    ]);
  });

  it('what went wrong, as warnings', () => {
    const events = [
      phase('drain-failed', 'not cordoned or drained: the plan is blocked'),
      commandFinished('exited 3'),
      phase('not-returned', 'not Ready after 600s (--node-ready-timeout)'),
    ];
    expect(reasons(trail(), events)).toEqual([
      `Warning DrainFailed Drain: drain by ${BY} failed: not cordoned or drained: the plan is blocked`,
      `Warning CommandFailed Command: command of ${BY} exited 3`,
      `Warning NotReturned Return: not back after the maintenance of ${BY}: not Ready after 600s (--node-ready-timeout)`,
    ]);
  });

  it('no cordon it did not make, no command when there is none, no uncordon under --no-uncordon', () => {
    expect(reasons(trail([], false), [cordoned(true), phase('command-running'), phase('done')])).toEqual([]);
  });
});
