import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { auditMark, maintWritesSince } from '../audit.js';
import { runMaint, unschedulable } from '../drain-run.js';
import { described, finish, finishedOf, scratch, seedPool, start, untilEvent } from '../run-helpers.js';

// `drain`, `cordon` and `uncordon` of a node a live run has claimed: refused, naming the run and its
// holder, nothing written; --ignore-run-claim acts on it anyway. Without the refusal an operator could put
// a node back in service in the middle of its command, and the run would go on to `done` with no word.

const work = scratch();
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The operator's command waits until the test opens the gate (a file): the run is inside it meanwhile. */
const gate = path.join(work, 'gate');
const command = ['bash', '-c', `until [ -e ${gate} ]; do sleep 0.1; done`];

describe('a node claimed by a live run', () => {
  beforeEach(async () => {
    await seedPool();
    rmSync(gate, { force: true });
  });

  it('is refused to drain, cordon and uncordon, naming the run; --ignore-run-claim acts on it', async () => {
    const run = await start([
      ...['run', 'pool-1', 'pool-2', '--max-unavailable', '1', '--ignore-daemonsets', '-o', 'json'],
      ...['--', ...command],
    ]);
    const events = await untilEvent(
      run,
      (events) => events.some((e) => e.type === 'phase' && e.phase === 'command-running') && events,
      120_000,
      'the first node of the run to be in its command',
    );
    const head = events.find((e) => e.type === 'run-started');
    const running = events.find((e) => e.type === 'phase' && e.phase === 'command-running');
    if (head?.type !== 'run-started' || running?.type !== 'phase') throw new Error('no run-started event');
    const inCommand = running.node;
    const pending = head.batches.flat().find((n) => n !== inCommand)!;
    const refusal = (node: string, phase: string) =>
      new RegExp(
        `^error: node "${node}" is in run ${head.runId} held by \\S+@\\S+ pid \\d+, phase ${phase} \\(its lease expires in \\d+s unless renewed\\): nothing was changed \\(kubectl maint runs shows the run; --ignore-run-claim acts on it anyway\\)$`,
        'm',
      );

    const mark = await auditMark();
    const drain = await runMaint(['drain', inCommand, '--ignore-daemonsets', '-o', 'json']);
    expect(drain.exitCode, drain.stderr).toBe(1);
    expect(drain.stderr).toMatch(refusal(inCommand, 'command-running'));
    const uncordon = await runMaint(['uncordon', inCommand]);
    expect(uncordon.exitCode, uncordon.stderr).toBe(1);
    expect(uncordon.stderr).toMatch(refusal(inCommand, 'command-running'));
    expect(uncordon.stdout).toBe('');
    const cordon = await runMaint(['cordon', pending]);
    expect(cordon.exitCode, cordon.stderr).toBe(1);
    expect(cordon.stderr).toMatch(refusal(pending, 'pending'));
    // Nothing written: the node in its command stays cordoned, the pending one untouched.
    expect((await maintWritesSince(mark)).nodePatches).toEqual([]);
    expect(await unschedulable(inCommand)).toBe(true);

    const forced = await runMaint(['uncordon', inCommand, '--ignore-run-claim']);
    expect(forced.exitCode, forced.stderr).toBe(0);
    expect(forced.stdout).toBe(`node/${inCommand} uncordoned`);
    expect(await unschedulable(inCommand)).toBe(false);

    writeFileSync(gate, '');
    const r = await finish(run);
    expect(r.exitCode, described(r)).toBe(0);
    expect(finishedOf(r.events)?.result).toBe('done');
    // Released at the end: the nodes are the operator's again.
    const after = await runMaint(['cordon', pending]);
    expect(after.exitCode, after.stderr).toBe(0);
    await runMaint(['uncordon', pending]);
  });
});
