import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { Command } from 'commander';
import { register as registerRun, type RunCommandValues } from '../../../src/cli/commands/run.js';
import { connect } from '../../../src/cli/kube-connect.js';
import { runOptionsFrom } from '../../../src/cli/run-action.js';
import { runApi } from '../../../src/kube/run-api.js';
import { claimRun } from '../../../src/run/claim.js';
import { giveBack } from '../../../src/run/lease-keeper.js';
import type { RunOptions } from '../../../src/run/state.js';
import { auditMark, maintWritesSince } from '../audit.js';
import { kubectl, kubectlJson, labEnv } from '../lab.js';
import { described, finish, finishedOf, scratch, seedPool, start, type Started, untilEvent } from '../run-helpers.js';

// The run's Lease taken from it mid-run, by someone deleting it or by another holder: the run must stop
// before its next write and say why, so that a second operator taking its nodes (--take-over) never
// drains a node it is about to drain too. The API server's audit log says what was written.

const work = scratch();
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * The operator's command: records its node, then waits until the test opens the gate (a file), so the
 * test knows the run is inside a command (no write in flight) when it takes the Lease away.
 */
const gate = path.join(work, 'gate');
const calls = path.join(work, 'calls.log');
const command = ['bash', '-c', `echo "$0" >>${calls}; until [ -e ${gate} ]; do sleep 0.1; done`, '{node}'];
const RUN = ['run', 'pool-1', 'pool-2', '--max-unavailable', '1', '--ignore-daemonsets', '-o', 'json'];

/** Starts the run and returns once its first node's command runs: the run id and that node. */
async function runInItsFirstCommand(): Promise<{ run: Started; runId: string; first: string; second: string }> {
  const run = await start([...RUN, '--', ...command]);
  const started = await untilEvent(
    run,
    (events) => events.some((e) => e.type === 'phase' && e.phase === 'command-running') && events,
    120_000,
    'the first node of the run to be in its command',
  );
  const head = started.find((e) => e.type === 'run-started');
  const running = started.find((e) => e.type === 'phase' && e.phase === 'command-running');
  if (head?.type !== 'run-started' || running?.type !== 'phase') throw new Error('no run-started event');
  const first = running.node;
  return { run, runId: head.runId, first, second: head.batches.flat().find((n) => n !== first)! };
}

const callsOf = () =>
  readFileSync(calls, 'utf8')
    .split('\n')
    .filter((l) => l !== '');

describe('a run whose Lease is taken from it', () => {
  beforeEach(async () => {
    await seedPool();
    rmSync(gate, { force: true });
    writeFileSync(calls, '');
  });

  it('deleted by someone else: the run stops before its next write and says so; a take-over then drains the other node once', async () => {
    const { run, runId, first, second } = await runInItsFirstCommand();
    await kubectl(['delete', 'lease', '-n', 'kubectl-maint', `maint-run-${runId}`]);
    const mark = await auditMark();
    writeFileSync(gate, '');
    const r = await finish(run);
    const why = described(r);

    expect(r.exitCode, why).toBe(1);
    expect(r.stderr, why).toBe(
      `error: run ${runId} lost its Lease kubectl-maint/maint-run-${runId} (deleted by someone else): it stopped before its next write, and each node keeps its last recorded phase (kubectl maint runs shows them)`,
    );
    const finished = finishedOf(r.events)!;
    expect(finished.result, why).toBe('failed');
    expect(finished.resumeCommand, why).toBeNull();
    expect((await maintWritesSince(mark)).nodePatches, why).toEqual([]);

    // The second operator takes the node the first run had not reached, once a Lease's duration has passed
    // since it saw the Lease gone: drained, its command run, once.
    const other = await finish(
      await start(['run', second, '--take-over', '--ignore-daemonsets', '-o', 'json', '--', ...command]),
    );
    expect(other.exitCode, described(other)).toBe(0);
    expect(other.stderr).toContain(
      `note: the Lease of run ${runId} is gone: waiting 30s (a Lease's duration) before taking its nodes, in case a process still works on them`,
    );
    expect(callsOf().sort()).toEqual([first, second].sort());
  });

  it('deleted while a command runs: a take-over refuses that node without --rerun-command, writes nothing, and the node stays cordoned', async () => {
    const { run, runId, first, second } = await runInItsFirstCommand();
    await kubectl(['delete', 'lease', '-n', 'kubectl-maint', `maint-run-${runId}`]);
    const mark = await auditMark();
    const takeOver = await finish(
      await start([
        'run',
        first,
        second,
        '--take-over',
        '--force-start',
        '--ignore-daemonsets',
        '-o',
        'json',
        '--',
        ...command,
      ]),
    );
    const why = described(takeOver);
    expect(takeOver.exitCode, why).toBe(1);
    expect(takeOver.stderr, why).toBe(
      `error: node "${first}" is in run ${runId} in phase command-running (its command may still be running): a take-over starts it over and runs its command again, only with --take-over --rerun-command; or resume that run with kubectl maint run --resume ${runId}; nothing was changed`,
    );
    const writes = await maintWritesSince(mark);
    expect(writes.nodePatches, why).toEqual([]);
    expect(writes.leases, why).toEqual([]);
    expect(callsOf()).toEqual([first]);
    const node = await kubectlJson<{ spec: { unschedulable?: boolean } }>(['get', 'node', first]);
    expect(node.spec.unschedulable).toBe(true);
    writeFileSync(gate, '');
    expect((await finish(run)).exitCode).toBe(1);
  });

  it('deleted while a command runs: runs names the command that continues it, and --resume does, from what its nodes record, each command run once', async () => {
    const { run, runId, first, second } = await runInItsFirstCommand();
    await kubectl(['delete', 'lease', '-n', 'kubectl-maint', `maint-run-${runId}`]);
    writeFileSync(gate, '');
    expect((await finish(run)).exitCode).toBe(1);

    const listed = await finish(await start(['runs', '-o', 'json']));
    const [item] = (JSON.parse(listed.stdout) as { items: Array<Record<string, unknown>> }).items;
    expect(item).toMatchObject({
      id: runId,
      state: 'no-lease',
      nodes: { 'command-running': [first], pending: [second] },
      next: `kubectl maint run --resume ${runId}`,
    });
    expect((item!.command as string[]).at(-1)).toBe('{node}');
    const text = await finish(await start(['runs']));
    expect(text.stderr).toBe(`note: run ${runId} lost its Lease: continue it with kubectl maint run --resume ${runId}`);

    const resumed = await finish(await start(['run', '--resume', runId, '-o', 'json']));
    const why = described(resumed);
    expect(resumed.exitCode, why).toBe(0);
    expect(resumed.stderr, why).toBe(
      `note: run ${runId} lost its Lease: waiting 30s (a Lease's duration) before taking it again, in case a process still works on its nodes`,
    );
    // The first command's result, which the stopped run could not write, is this machine's to write.
    expect(
      resumed.events.some(
        (e) => e.type === 'warning' && e.message.startsWith(`node "${first}": its command ended (exit 0) at `),
      ),
      why,
    ).toBe(true);
    expect(finishedOf(resumed.events)?.result, why).toBe('done');
    expect(callsOf().sort()).toEqual([first, second].sort());
    const nodes = await kubectlJson<{
      items: Array<{ metadata: { annotations?: Record<string, string> }; spec: { unschedulable?: boolean } }>;
    }>(['get', 'nodes', first, second]);
    for (const node of nodes.items) {
      expect(node.spec.unschedulable ?? false, why).toBe(false);
      expect(Object.keys(node.metadata.annotations ?? {}).filter((k) => k.startsWith('maint.kubectl.io/'))).toEqual([]);
    }
  });

  it('a second run over a node of a running one is refused before it writes anything', async () => {
    const { run, runId } = await runInItsFirstCommand();
    const mark = await auditMark();
    const second = await finish(
      await start(['run', 'pool-2', 'pool-3', '--ignore-daemonsets', '-o', 'json', '--', ...command]),
    );
    expect(second.exitCode, described(second)).toBe(1);
    expect(second.stderr).toMatch(
      new RegExp(
        `^error: node "pool-2" is in run ${runId} held by \\S+@\\S+ pid \\d+ \\(its lease expires in \\d+s unless renewed\\): nothing was changed$`,
      ),
    );
    // The first run, in its command, only renews its own Lease meanwhile.
    const writes = await maintWritesSince(mark);
    expect(writes.nodePatches).toEqual([]);
    expect(writes.leases.filter((w) => !w.startsWith(`update maint-run-${runId} `))).toEqual([]);
    run.child.kill('SIGINT');
    writeFileSync(gate, '');
    await finish(run);
  });

  it('held by another process: the run stops before its next write, naming the holder', async () => {
    const { run, runId } = await runInItsFirstCommand();
    await kubectl([
      'patch',
      'lease',
      '-n',
      'kubectl-maint',
      `maint-run-${runId}`,
      '--type=merge',
      '-p',
      '{"spec":{"holderIdentity":"someone@elsewhere pid 1"}}',
    ]);
    const mark = await auditMark();
    writeFileSync(gate, '');
    const r = await finish(run);
    const why = described(r);

    expect(r.exitCode, why).toBe(1);
    expect(r.stderr, why).toContain(
      `error: run ${runId} lost its Lease kubectl-maint/maint-run-${runId} (now held by someone@elsewhere pid 1): it stopped before its next write`,
    );
    expect(finishedOf(r.events)?.result, why).toBe('failed');
    expect((await maintWritesSince(mark)).nodePatches, why).toEqual([]);
  });
});

/** The flags `kubectl maint run NODE -- true` records on its Lease: every one its default. */
function defaultRunOptions(): RunOptions {
  let values: RunCommandValues | undefined;
  const program = new Command('kubectl-maint').exitOverride();
  registerRun(program);
  program.commands[0]!.action((_nodes: unknown, opts: RunCommandValues) => void (values = opts));
  program.parse(['run', 'pool-1', '--', 'true'], { from: 'user' });
  return runOptionsFrom(values!);
}

/** A run over `nodes` claimed by another process that stopped (its Lease released), as a Ctrl-C leaves one. */
async function stoppedRun(id: string, nodes: string[], stopped = true): Promise<void> {
  const api = runApi(await connect({ kubeconfig: (await labEnv()).KUBECONFIG }));
  const ctx = { api, namespace: 'kubectl-maint', holder: 'e2e@elsewhere pid 1', nowMs: Date.now() };
  await claimRun(ctx, { id, batches: [nodes], command: ['true'], options: defaultRunOptions() }, false);
  if (stopped) await giveBack(ctx, `maint-run-${id}`);
}

const holderOf = async (id: string) =>
  (await kubectlJson<{ spec: { holderIdentity?: string } }>(['get', 'lease', '-n', 'kubectl-maint', `maint-run-${id}`]))
    .spec.holderIdentity ?? '';

describe('--resume of a run that cannot go on', () => {
  beforeEach(async () => {
    await seedPool();
  });

  it('a resume that fails names the run it took and gives its Lease back: the next try is not refused as held', async () => {
    await stoppedRun('stale-a', ['pool-1', 'pool-2']);
    await kubectl(['delete', 'node', 'pool-1']);
    for (const attempt of [1, 2]) {
      const r = await finish(await start(['run', '--resume', '-o', 'json']));
      const why = `attempt ${attempt}: ${described(r)}`;
      expect(r.exitCode, why).toBe(1);
      expect(r.stderr, why).toMatch(
        /^note: resuming stale-a \(started \S+Z, stopped\), the only run to resume\nerror: run stale-a: not found: .*"pool-1".*$/,
      );
      expect(await holderOf('stale-a'), why).toBe('');
    }
  });

  it('without an id and several runs stopped: lists them, refuses, and writes nothing', async () => {
    await stoppedRun('stale-a', ['pool-1']);
    await stoppedRun('stale-b', ['pool-2']);
    const mark = await auditMark();
    const r = await finish(await start(['run', '--resume', '-o', 'json']));
    expect(r.exitCode, described(r)).toBe(1);
    expect(r.stderr).toMatch(
      /^error: 2 unfinished runs in namespace "kubectl-maint": stale-a \(started \S+, stopped\); stale-b \(started \S+, stopped\); name one with --resume RUN \(kubectl maint runs shows them\)$/,
    );
    const writes = await maintWritesSince(mark);
    expect(writes.leases).toEqual([]);
    expect(writes.nodePatches).toEqual([]);
  });
});

describe('--resume trusts only what the run wrote', () => {
  beforeEach(async () => {
    await seedPool();
  });

  it('a phase edited by hand to done is not trusted: the resume says so and drains that node', async () => {
    // --pause without a terminal: the run stops once its first node is drained, the other still pending.
    const RUN_PAUSED = [
      'run',
      'pool-1',
      'pool-2',
      '--max-unavailable',
      '1',
      '--ignore-daemonsets',
      '--pause',
      '-o',
      'json',
    ];
    const first = await finish(await start(RUN_PAUSED));
    const paused = finishedOf(first.events);
    expect(paused?.result, described(first)).toBe('paused');
    const pending = paused!.nodes.find((n) => n.phase === 'pending')!.node;
    await kubectl(['annotate', 'node', pending, 'maint.kubectl.io/phase=done', '--overwrite']);

    const resumed = await finish(await start(['run', '--resume', paused!.runId, '-o', 'json']));
    const why = described(resumed);
    expect(resumed.events.filter((e) => e.type === 'warning').map((e) => e.type === 'warning' && e.message)).toEqual([
      `node "${pending}": its phase "done" was not written by run ${paused!.runId} (edited by hand?): not trusted, the node starts over (drained again, its command run again)`,
    ]);
    expect(finishedOf(resumed.events)?.nodes.find((n) => n.node === pending)?.phase, why).toBe('drained');
    const cordoned = await kubectlJson<{ spec: { unschedulable?: boolean } }>(['get', 'node', pending]);
    expect(cordoned.spec.unschedulable, why).toBe(true);
  });
});

describe('kubectl maint runs and run --abandon', () => {
  beforeEach(async () => {
    await seedPool();
  });

  it('lists a stopped run with its nodes by phase; --abandon releases the Lease and the claims and says what each node is left in', async () => {
    await stoppedRun('stale-a', ['pool-1', 'pool-2']);
    await kubectl(['cordon', 'pool-1']);
    await kubectl(['annotate', 'node', 'pool-1', 'maint.kubectl.io/phase=drained', '--overwrite']);

    const listed = await finish(await start(['runs', '-o', 'json']));
    expect(listed.exitCode, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toMatchObject({
      kind: 'RunList',
      items: [
        {
          id: 'stale-a',
          state: 'stopped',
          holder: null,
          command: ['true'],
          nodes: { drained: ['pool-1'], pending: ['pool-2'] },
        },
      ],
    });
    const text = await finish(await start(['runs']));
    expect(text.stdout.split('\n')[0]).toMatch(/^RUN +STATE +HOLDER +AGE +NODES +COMMAND$/);
    expect(text.stdout.split('\n')[1]).toMatch(/^stale-a +stopped +- +\S+ +1 drained, 1 pending +true$/);

    const abandoned = await finish(await start(['run', '--abandon', 'stale-a']));
    expect(abandoned.exitCode, abandoned.stderr).toBe(0);
    expect(abandoned.stdout.trim().split('\n')).toEqual([
      'node/pool-1 released (was drained): left cordoned',
      'node/pool-2 released (was pending): schedulable',
      'run stale-a abandoned: Lease kubectl-maint/maint-run-stale-a deleted, 2 nodes released; to put the cordoned ones back in service: kubectl maint uncordon pool-1',
    ]);
    const nodes = await kubectlJson<{
      items: Array<{ metadata: { name: string; annotations?: Record<string, string> } }>;
    }>(['get', 'nodes', 'pool-1', 'pool-2']);
    expect(
      nodes.items.flatMap((n) => Object.keys(n.metadata.annotations ?? {}).filter((k) => k.startsWith('maint.'))),
    ).toEqual([]);
    const after = await finish(await start(['runs']));
    expect(after.stdout).toBe('');
    expect(after.stderr).toBe('No runs found in kubectl-maint namespace.');
  });

  it('--abandon of a run a live process holds is refused, naming it, and writes nothing', async () => {
    await stoppedRun('live-a', ['pool-1'], false);
    const mark = await auditMark();
    const r = await finish(await start(['run', '--abandon', 'live-a']));
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(
      /^error: run live-a is held by e2e@elsewhere pid 1 \(its lease expires in \d+s unless renewed\): stop it there \(Ctrl-C\), or abandon it once its lease has expired; nothing was changed$/,
    );
    const writes = await maintWritesSince(mark);
    expect(writes.leases).toEqual([]);
    expect(writes.nodePatches).toEqual([]);
  });
});
