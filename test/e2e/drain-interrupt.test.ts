import { describe, expect, it } from 'vitest';
import { seedScenario } from './lab.js';
import {
  admitted,
  podsIn,
  runMaint,
  setHelloMaxUnavailable,
  signalWhen,
  unschedulable,
  waitingPods,
} from './drain-run.js';
import type { DrainEvent } from '../../src/drain/events.js';

// Ctrl-C in the middle of a drain: no new eviction is sent, the node stays cordoned, the summary says
// what was done and what remains, the exit code is 130; a rerun finishes the job.

/** Starts a JSON drain and sends SIGINT (Ctrl-C) once `ready` holds for the events so far. */
const interruptWhen = (args: string[], ready: (events: DrainEvent[]) => boolean) => signalWhen(args, 'SIGINT', ready);

describe('kubectl maint drain interrupted', () => {
  it('on hello-ignore: leaves the node cordoned, removes only the pod it evicted, and summarizes', async () => {
    await seedScenario('hello-ignore');
    const before = await podsIn('demo');
    const run = await interruptWhen(['drain', 'k8s-node-1', '--ignore-daemonsets', '-o', 'json'], (events) => {
      // One pod evicted, the other waiting for the budget its blocked replacement never gives back.
      return waitingPods(events).size === 1 && events.some((e) => e.type === 'pod' && e.state.phase === 'gone');
    });

    expect(run.exitCode, run.stderr).toBe(130);
    expect(run.finished?.result).toBe('interrupted');
    expect(run.finished?.gone).toHaveLength(1);
    expect(run.finished?.remaining).toHaveLength(1);
    // The plan said no node takes the replacement: no flag finishes it, and the summary says what to change.
    expect(run.finished?.clusterState).toMatch(
      /^node k8s-node-1 cordoned; 1 gone, 1 not evicted; no flag lets it finish: .*make room for the replacement.*: once that changes, run `kubectl maint drain k8s-node-1 --ignore-daemonsets -o json` again$/,
    );
    expect(await unschedulable('k8s-node-1')).toBe(true);
    // Pods disappeared only through the evictions the engine reported.
    const after = new Set((await podsIn('demo')).map((p) => p.uid));
    const disappeared = before.filter((p) => !after.has(p.uid)).map((p) => p.uid);
    expect(disappeared).toEqual(admitted(run).map((p) => p.uid));
    expect(run.finished?.remaining.every((p) => after.has(p.uid))).toBe(true);
  });

  it('on hello with the budget closed: nothing evicted, and a rerun once the budget opens finishes the job', async () => {
    await seedScenario('hello');
    await setHelloMaxUnavailable(0);
    const before = await podsIn('demo');
    const run = await interruptWhen(
      ['drain', 'k8s-node-1', '--ignore-daemonsets', '-o', 'json'],
      (events) => waitingPods(events).size === 2,
    );
    expect(run.exitCode, run.stderr).toBe(130);
    expect(run.finished).toMatchObject({ result: 'interrupted', gone: [], terminating: [] });
    expect(run.finished?.remaining).toHaveLength(2);
    expect(await unschedulable('k8s-node-1')).toBe(true);
    expect((await podsIn('demo')).map((p) => p.uid).sort()).toEqual(before.map((p) => p.uid).sort());

    await setHelloMaxUnavailable(1);
    const rerun = await runMaint(['drain', 'k8s-node-1', '--ignore-daemonsets', '-o', 'json']);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(rerun.events.find((e) => e.type === 'cordoned')).toMatchObject({ already: true });
    expect(rerun.finished).toMatchObject({ result: 'drained', remaining: [] });
    expect(rerun.finished?.gone.map((p) => p.uid).sort()).toEqual(run.finished?.remaining.map((p) => p.uid).sort());
  });
});
