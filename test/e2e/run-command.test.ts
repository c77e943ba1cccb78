import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from './lab.js';
import {
  described,
  finish,
  finishedOf,
  poolNodes,
  scratch,
  seedPool,
  start,
  type Started,
  untilEvent,
} from './run-helpers.js';

// The operator's command under `kubectl maint run`: interrupted while it runs (the first SIGINT or SIGTERM
// lets it finish, the second kills its whole process group), and gone before it could start. The command
// here is a script that waits for a file the test creates, with a grandchild, and records its pids.

const work = scratch();
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A command that says it started, waits for `go` in its directory (a grandchild sleeping meanwhile), then says it finished. */
function waitingCommand(dir: string): string {
  const file = path.join(dir, 'flash.sh');
  writeFileSync(
    file,
    [
      '#!/bin/sh',
      'echo $$ > "$0.pid"',
      'sleep 600 & echo $! > "$0.child"',
      'echo "flashing $1"',
      `while [ ! -e "${dir}/go" ]; do sleep 0.1; done`,
      'kill $!',
      `echo "flashed $1"; touch "${dir}/finished-$1"`,
    ].join('\n'),
  );
  chmodSync(file, 0o755);
  return file;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const eventOf = <T extends Started['events'][number]['type']>(run: Started, type: T) =>
  run.events.find((e): e is Extract<Started['events'][number], { type: T }> => e.type === type);

/** The node whose command started first. */
async function commandRunning(run: Started): Promise<string> {
  return untilEvent(
    run,
    (events) => {
      const started = events.find((e) => e.type === 'command-output' && e.line.startsWith('flashing '));
      return started?.type === 'command-output' ? started.node : undefined;
    },
    120_000,
    'a command to start',
  );
}

describe('kubectl maint run interrupted while its command runs', () => {
  beforeEach(async () => {
    await seedPool();
  });

  it.each(['SIGINT', 'SIGTERM'] as const)(
    'a first %s lets the command finish, records its outcome, starts nothing new and ends with the resume command',
    async (signal) => {
      const dir = scratch();
      const command = waitingCommand(dir);
      const run = await start([
        'run',
        'pool-1',
        'pool-2',
        '--ignore-daemonsets',
        '-o',
        'json',
        '--',
        command,
        '{node}',
      ]);
      const first = await commandRunning(run);
      const other = first === 'pool-1' ? 'pool-2' : 'pool-1';
      run.child.kill(signal);
      await eventually(async () => eventOf(run, 'interrupt') !== undefined, 30_000, 'the run to say it stops');
      expect(eventOf(run, 'interrupt')).toMatchObject({ step: 'stop', commands: [first] });
      // The command goes on: still running until it is let go.
      expect(existsSync(path.join(dir, `finished-${first}`))).toBe(false);
      expect(alive(Number(readFileSync(`${command}.pid`, 'utf8')))).toBe(true);
      writeFileSync(path.join(dir, 'go'), '');
      const r = await finish(run);

      // The shell's convention, as drain's: 128 + the signal's number.
      expect(r.exitCode, described(r)).toBe(signal === 'SIGTERM' ? 143 : 130);
      expect(existsSync(path.join(dir, `finished-${first}`))).toBe(true);
      const finished = finishedOf(r.events)!;
      expect(finished.result).toBe('interrupted');
      expect(finished.nodes.find((n) => n.node === first)).toMatchObject({ phase: 'command-done' });
      // Nothing new started: the other node (the next batch) was never drained.
      expect(finished.nodes.find((n) => n.node === other)).toMatchObject({ phase: 'pending' });
      expect(finished.resumeCommand).toMatch(/^kubectl maint run --resume \S+$/);
      const nodes = await poolNodes();
      expect(nodes.find((n) => n.metadata.name === first)!.metadata.annotations?.['maint.kubectl.io/phase']).toBe(
        'command-done',
      );
      expect(nodes.find((n) => n.metadata.name === other)!.spec.unschedulable).toBeUndefined();
      rmSync(dir, { recursive: true, force: true });
    },
  );

  it('a second SIGINT kills the command with its whole process group; the node is command-killed, as `runs` says', async () => {
    const dir = scratch();
    const command = waitingCommand(dir);
    const run = await start(['run', 'pool-1', '--ignore-daemonsets', '-o', 'json', '--', command, '{node}']);
    await commandRunning(run);
    run.child.kill('SIGINT');
    await eventually(async () => eventOf(run, 'interrupt') !== undefined, 30_000, 'the run to say it stops');
    run.child.kill('SIGINT');
    const r = await finish(run);

    expect(r.exitCode, described(r)).toBe(130);
    expect(r.events.filter((e) => e.type === 'interrupt').map((e) => e.type === 'interrupt' && e.step)).toEqual([
      'stop',
      'kill',
    ]);
    const finished = finishedOf(r.events)!;
    expect(finished.nodes).toEqual([
      { node: 'pool-1', batch: 1, phase: 'command-killed', problem: 'command killed (interrupted)' },
    ]);
    expect(finished.resumeCommand).toMatch(/^kubectl maint run --resume \S+ --rerun-command$/);
    expect(existsSync(path.join(dir, 'finished-pool-1'))).toBe(false);
    // The script and its grandchild are both gone.
    for (const pidFile of [`${command}.pid`, `${command}.child`]) {
      const pid = Number(readFileSync(pidFile, 'utf8'));
      await eventually(async () => !alive(pid), 10_000, `process ${pid} (${path.basename(pidFile)}) to be gone`);
    }
    const node = (await poolNodes()).find((n) => n.metadata.name === 'pool-1')!;
    expect(node.metadata.annotations?.['maint.kubectl.io/phase']).toBe('command-killed');
    expect(node.spec.unschedulable).toBe(true);
    const runId = r.events.find((e) => e.type === 'run-started');
    const runs = JSON.parse((await finish(await start(['runs', '-o', 'json']))).stdout) as {
      items: Array<{ id: string; nodes: Record<string, string[]> }>;
    };
    const listed = runs.items.find((item) => runId?.type === 'run-started' && item.id === runId.runId);
    expect(listed?.nodes).toEqual({ 'command-killed': ['pool-1'] });
    rmSync(dir, { recursive: true, force: true });
  });

  it('a command that cannot start (its file removed mid-run) stops the run with one line; the node stays drained', async () => {
    const dir = scratch();
    const command = waitingCommand(dir);
    const run = await start(['run', 'pool-1', '--ignore-daemonsets', '-o', 'json', '--', command, '{node}']);
    await untilEvent(
      run,
      (events) => events.some((e) => e.type === 'phase' && e.phase === 'draining'),
      120_000,
      'the drain to start',
    );
    rmSync(command);
    const r = await finish(run);

    expect(r.exitCode, described(r)).toBe(1);
    expect(r.stderr.trim().split('\n').at(-1)).toBe(
      `error: command ${command} cannot start on node pool-1: spawn ${command} ENOENT`,
    );
    expect(finishedOf(r.events)?.nodes).toEqual([{ node: 'pool-1', batch: 1, phase: 'drained' }]);
    const node = (await poolNodes()).find((n) => n.metadata.name === 'pool-1')!;
    expect(node.metadata.annotations?.['maint.kubectl.io/phase']).toBe('drained');
    rmSync(dir, { recursive: true, force: true });
  });

  it('SIGKILL of a launcher run by an older Node.js stops its pinned child as SIGTERM would: nothing new starts', async () => {
    const dir = scratch();
    const command = waitingCommand(dir);
    // As Node before 22.15: no process.execve, so bin/kubectl-maint.js runs the pinned Node.js as its child.
    const older = path.join(dir, 'older-node.mjs');
    writeFileSync(
      older,
      "Object.defineProperty(process.versions, 'node', { value: '20.19.0' });\nObject.defineProperty(process, 'execve', { value: undefined });\n",
    );
    const run = await start(
      ['run', 'pool-1', 'pool-2', '--ignore-daemonsets', '-o', 'json', '--', command, '{node}'],
      {},
      undefined,
      ['--import', older],
    );
    const first = await commandRunning(run);
    const other = first === 'pool-1' ? 'pool-2' : 'pool-1';
    const pinned = Number(
      (await execa('ps', ['-o', 'pid=', '--ppid', String(run.child.pid)])).stdout.trim().split('\n')[0],
    );
    expect(alive(pinned)).toBe(true);
    run.child.kill('SIGKILL');
    await eventually(async () => eventOf(run, 'interrupt') !== undefined, 30_000, 'the child to stop as on SIGTERM');
    writeFileSync(path.join(dir, 'go'), '');
    await eventually(async () => !alive(pinned), 60_000, 'the pinned child to end');
    expect(finishedOf(run.events)).toMatchObject({ result: 'interrupted' });
    expect(finishedOf(run.events)?.nodes.find((n) => n.node === other)).toMatchObject({ phase: 'pending' });
    expect((await poolNodes()).find((n) => n.metadata.name === other)!.spec.unschedulable).toBeUndefined();
    rmSync(dir, { recursive: true, force: true });
  });
});

/** The id of the run whose events these are. */
function runIdOf(run: { readonly events: Started['events'] }): string {
  const started = run.events.find((e) => e.type === 'run-started');
  return started?.type === 'run-started' ? started.runId : '';
}

describe('a stopped run and its done nodes', () => {
  beforeEach(async () => {
    await seedPool();
  });

  it('releases them: others may take one at once, and a resume leaves them done', async () => {
    const dir = scratch();
    // Succeeds the first time (the first batch's node), fails after (the second's), until `once` is removed.
    const once = path.join(dir, 'once');
    const command = ['bash', '-c', `if [ -e ${once} ]; then exit 3; fi; touch ${once}`, '{node}'];
    const pool = ['pool-1', 'pool-2', '--max-unavailable', '1', '--ignore-daemonsets', '-o', 'json'];
    const failed = await finish(await start(['run', ...pool, '--', ...command]));
    expect(failed.exitCode, described(failed)).toBe(1);
    const nodes = finishedOf(failed.events)!.nodes;
    const first = nodes.find((n) => n.phase === 'done')!.node;
    const second = nodes.find((n) => n.node !== first)!.node;
    expect(nodes.find((n) => n.node === second)?.phase).toBe('command-failed');
    const runId = runIdOf({ events: failed.events });

    // The done node carries no claim: back in service, free for another run.
    const node = (await poolNodes()).find((n) => n.metadata.name === first)!;
    expect(node.metadata.annotations?.['maint.kubectl.io/run']).toBeUndefined();
    expect(node.spec.unschedulable).toBeUndefined();
    // Another run takes it (a stopped run's claim would refuse it); stopped once it has.
    const other = await start(['run', first, '--ignore-daemonsets', '--yes', '-o', 'json', '--', 'true']);
    await untilEvent(other, (events) => events.some((e) => e.type === 'run-started'), 60_000, 'the other run to start');
    other.child.kill('SIGINT');
    await finish(other);
    await finish(await start(['run', '--abandon', runIdOf(other)]));
    await finish(await start(['uncordon', first]));

    // `runs` still counts it done in the stopped run.
    const runs = JSON.parse((await finish(await start(['runs', '-o', 'json']))).stdout) as {
      items: Array<{ id: string; nodes: Record<string, string[]> }>;
    };
    expect(runs.items.find((item) => item.id === runId)?.nodes).toEqual({
      done: [first],
      'command-failed': [second],
    });

    // The resume finishes the second node and leaves the first alone: no phase of it written again.
    rmSync(once);
    const resumed = await finish(await start(['run', '--resume', runId, '--rerun-command', '-o', 'json']));
    expect(resumed.exitCode, described(resumed)).toBe(0);
    const restarted = resumed.events.find((e) => e.type === 'run-started');
    expect(restarted?.type === 'run-started' && restarted.phases[first]).toBe('done');
    expect(resumed.events.filter((e) => e.type === 'phase' && e.node === first)).toEqual([]);
    expect(finishedOf(resumed.events)?.result).toBe('done');
    rmSync(dir, { recursive: true, force: true });
  });
});
