import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { kubectl, seedScenario } from './lab.js';
import { autoscalerAnnotations, KARPENTER, maintNodeTrail, RECORD, SCALE_DOWN } from './node-maintenance.js';
import { described, finish, finishedOf, POOL, scratch, start, type Started, untilEvent } from './run-helpers.js';

// A run under the autoscaler annotations leaves none behind, whichever way it ends: done, stopped and
// resumed, stopped and abandoned. An annotation a node had before the run is not the run's, and stays.
// Each node's trail of events shows in `kubectl describe node`.

const work = scratch();
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The operator's command: waits until the test opens the gate (a file), so the test sees a node mid-run. */
const gate = path.join(work, 'gate');
const command = ['bash', '-c', `until [ -e ${gate} ]; do sleep 0.1; done`];
const FLAGS = ['--ignore-daemonsets', '-o', 'json'];

/** Starts a run and returns once a node of it is in its command: the run, its id and that node. */
async function inCommand(args: readonly string[]): Promise<{ run: Started; runId: string; node: string }> {
  const run = await start([...args, ...FLAGS, '--', ...command]);
  const running = await untilEvent(
    run,
    (events) => events.find((e) => e.type === 'phase' && e.phase === 'command-running'),
    120_000,
    'a node of the run in its command',
  );
  const head = run.events.find((e) => e.type === 'run-started');
  if (head?.type !== 'run-started' || running.type !== 'phase') throw new Error('no run-started event');
  return { run, runId: head.runId, node: running.node };
}

/** Every pool node's autoscaler annotations, by node, leaving out the nodes that have none. */
async function poolAnnotations(): Promise<Record<string, Record<string, string>>> {
  const all = await Promise.all(POOL.map(async (node) => [node, await autoscalerAnnotations(node)] as const));
  return Object.fromEntries(all.filter(([, a]) => Object.keys(a).length > 0));
}

const PROTECTED_BY_RUN = {
  [SCALE_DOWN]: 'true',
  [KARPENTER]: 'true',
  [RECORD]: JSON.stringify({ [SCALE_DOWN]: null, [KARPENTER]: null }),
};

describe('a run and the autoscalers', () => {
  beforeEach(async () => {
    await seedScenario('pool');
    await kubectl(['delete', 'leases', '-n', 'kubectl-maint', '-l', 'maint.kubectl.io/run', '--ignore-not-found']);
    rmSync(gate, { force: true });
  });

  it('protects each node from its cordon until it is done, gives back only what it set, and leaves its trail', async () => {
    // pool-1 had Karpenter's annotation before the run: the run does not record it, and it stays.
    await kubectl(['annotate', 'node', 'pool-1', `${KARPENTER}=true`]);
    const { run, node } = await inCommand(['run', 'pool-1', 'pool-2', '--max-unavailable', '1']);
    expect(await autoscalerAnnotations(node)).toEqual(
      node === 'pool-1'
        ? { [SCALE_DOWN]: 'true', [KARPENTER]: 'true', [RECORD]: JSON.stringify({ [SCALE_DOWN]: null }) }
        : PROTECTED_BY_RUN,
    );
    writeFileSync(gate, '');
    const r = await finish(run);
    expect(r.exitCode, described(r)).toBe(0);
    expect(await poolAnnotations()).toEqual({ 'pool-1': { [KARPENTER]: 'true' } });
    expect(await maintNodeTrail(node)).toEqual([
      expect.stringMatching(/^Normal Cordoned: cordoned by kubectl maint run \S+ \(\S+@\S+ pid \d+\)$/),
      expect.stringMatching(/^Normal Drained: drained by kubectl maint run /),
      expect.stringMatching(/^Normal CommandStarted: command of kubectl maint run .* started: \S*bash -c until /),
      expect.stringMatching(/^Normal CommandSucceeded: .* exited 0$/),
      expect.stringMatching(/^Normal Returned: .*: Ready$/),
      expect.stringMatching(/^Normal Uncordoned: .*its maintenance is done$/),
    ]);
  });

  it('stopped, then resumed: none left; stopped, then abandoned: none left, the node still cordoned', async () => {
    // Stopped mid-command (Ctrl-C: the command finishes, the node stays out), then resumed.
    const first = await inCommand(['run', 'pool-1']);
    first.run.child.kill('SIGINT');
    writeFileSync(gate, '');
    const stopped = await finish(first.run);
    expect(stopped.exitCode, described(stopped)).toBe(130);
    expect(await poolAnnotations()).toEqual({ 'pool-1': PROTECTED_BY_RUN });
    const resumed = await finish(await start(['run', '--resume', first.runId, ...FLAGS]));
    expect(resumed.exitCode, described(resumed)).toBe(0);
    expect(finishedOf(resumed.events)?.result).toBe('done');
    expect(await poolAnnotations()).toEqual({});

    rmSync(gate, { force: true });
    const second = await inCommand(['run', 'pool-2']);
    second.run.child.kill('SIGINT');
    writeFileSync(gate, '');
    expect((await finish(second.run)).exitCode).toBe(130);
    expect(await poolAnnotations()).toEqual({ 'pool-2': PROTECTED_BY_RUN });
    const abandoned = await finish(await start(['run', '--abandon', second.runId]));
    expect(abandoned.exitCode, abandoned.stderr).toBe(0);
    expect(await poolAnnotations()).toEqual({});
    const cordoned = await kubectl(['get', 'node', 'pool-2', '-o', 'jsonpath={.spec.unschedulable}']);
    expect(String(cordoned.stdout)).toBe('true');
  });
});
