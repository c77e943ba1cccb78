import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { described, finish, finishedOf, poolNodes, scratch, seedPool, start } from './run-helpers.js';

// Two operators, two runs at once: the lock is each node's claim, not the cluster. Over disjoint pools
// both proceed and finish (their drains share the budgets, so each waits for what the other's drains
// hold); over pools that share a node exactly one does, the other refused before it writes anything.

const work = scratch();
afterAll(() => rmSync(work, { recursive: true, force: true }));
const calls = path.join(work, 'calls.log');
/** The operator's command: records its node (the log of every call). */
const command = ['bash', '-c', `echo "$0" >>${calls}`, '{node}'];
// The two pools share the scenario's workloads: one run's cordon can leave the other's plan of a batch
// blocked (a replacement with no room until that node is back), which is the cluster, not the lock. Each
// run starts anyway and bounds its drains, so a batch waits for the other run's node to come back.
const RUN = ['run', '--max-unavailable', '1', '--ignore-daemonsets', '--force-start', '--timeout', '5m', '-o', 'json'];

const callsOf = () =>
  readFileSync(calls, 'utf8')
    .split('\n')
    .filter((l) => l !== '');

describe('two runs at once', () => {
  beforeEach(async () => {
    await seedPool();
    writeFileSync(calls, '');
  });

  it('over disjoint pools of three: both proceed side by side and finish, each command run once', async () => {
    const [a, b] = await Promise.all([
      start([...RUN, 'pool-1', 'pool-2', 'pool-3', '--', ...command]),
      start([...RUN, 'pool-4', 'pool-5', 'pool-6', '--', ...command]),
    ]);
    const [ra, rb] = await Promise.all([finish(a), finish(b)]);
    const why = `${described(ra)}\n---\n${described(rb)}`;
    expect([ra.exitCode, rb.exitCode], why).toEqual([0, 0]);
    expect([finishedOf(ra.events)?.result, finishedOf(rb.events)?.result], why).toEqual(['done', 'done']);
    expect(callsOf().sort(), why).toEqual(['pool-1', 'pool-2', 'pool-3', 'pool-4', 'pool-5', 'pool-6']);
    // Side by side: the second run's first command ran before the first run's last (or the other way round).
    const commandTimes = (events: typeof ra.events) =>
      events.flatMap((e) => (e.type === 'command-finished' ? [e.atMs] : []));
    const [ta, tb] = [commandTimes(ra.events), commandTimes(rb.events)];
    expect(Math.min(...tb) < Math.max(...ta) && Math.min(...ta) < Math.max(...tb), why).toBe(true);
    for (const node of await poolNodes()) {
      expect(node.spec.unschedulable ?? false, node.metadata.name).toBe(false);
      expect(Object.keys(node.metadata.annotations ?? {}).filter((k) => k.startsWith('maint.kubectl.io/'))).toEqual([]);
    }
  });

  it('over pools that share a node: exactly one proceeds, the other is refused naming that node', async () => {
    const [a, b] = await Promise.all([
      start([...RUN, 'pool-1', 'pool-2', 'pool-3', '--', ...command]),
      start([...RUN, 'pool-3', 'pool-4', 'pool-5', '--', ...command]),
    ]);
    const results = await Promise.all([finish(a), finish(b)]);
    const why = results.map(described).join('\n---\n');
    expect(results.map((r) => r.exitCode).sort(), why).toEqual([0, 1]);
    const refused = results.find((r) => r.exitCode === 1)!;
    expect(refused.stderr, why).toMatch(/^error: node "pool-3" is in run \S+ /m);
    const done = results.find((r) => r.exitCode === 0)!;
    const nodes = finishedOf(done.events)!.nodes.map((n) => n.node);
    expect(callsOf().sort(), why).toEqual([...nodes].sort());
  });
});
