import { chmodSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commandFor, commandProblem, resolveCommand, runCommand } from '../../../src/run/command.js';
import { parseStat } from '../../../src/run/command-processes.js';
import { SPLIT_MARKER } from '../../../src/run/output-lines.js';

const dir = mkdtempSync(path.join(tmpdir(), 'maint-command-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// Stopping a command signals every process whose environment carries its MAINT_NODE and MAINT_RUN: a run
// id of this test process's own keeps a timeout here from reaching the commands of a suite run beside it.
const RUN_ID = `r${process.pid}`;

function script(name: string, body: string, mode = 0o755): string {
  const file = path.join(dir, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, mode);
  return file;
}

/** Whether a process runs (a zombie, ended but not yet waited for by its parent, does not). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe('the operator command', () => {
  it('gets {node} replaced in every argument', () => {
    expect(commandFor(['ssh', '{node}', 'reboot --host={node}'], 'w1')).toEqual(['ssh', 'w1', 'reboot --host=w1']);
  });

  it('is checked before anything is written: executable, found as given or on PATH', () => {
    expect(commandProblem([script('ok.sh', 'true')])).toBeNull();
    expect(commandProblem(['sh'], { PATH: '/bin:/usr/bin' })).toBeNull();
    expect(commandProblem([script('plain.txt', 'true', 0o644)])).toMatch(/is not an executable file$/);
    expect(commandProblem(['no-such-command-here'], { PATH: dir })).toBe(
      'command "no-such-command-here" is not an executable found on PATH',
    );
    expect(commandProblem([])).toBeNull();
  });

  it('runs with MAINT_NODE, MAINT_RUN and KUBECONFIG, its lines streamed per stream', async () => {
    const lines: string[] = [];
    const file = script('env.sh', 'echo "$1 $MAINT_NODE $MAINT_RUN $KUBECONFIG"; echo oops >&2');
    const result = await runCommand({
      argv: [file, '{node}'],
      node: 'w1',
      runId: RUN_ID,
      kubeconfig: '/k/config',
      timeoutMs: 0,
      onLine: (stream, line) => lines.push(`${stream}: ${line}`),
    });
    expect(result).toEqual({ exitCode: 0, failure: null, interrupted: false });
    expect(lines.sort()).toEqual(['stderr: oops', `stdout: w1 w1 ${RUN_ID} /k/config`]);
  });

  it('reports a non-zero exit, a timeout and an interruption as results, never throws', async () => {
    const base = { node: 'w1', runId: RUN_ID, onLine: () => {} };
    expect(await runCommand({ ...base, argv: [script('fail.sh', 'exit 3')], timeoutMs: 0 })).toEqual({
      exitCode: 3,
      failure: 'exited 3',
      interrupted: false,
    });
    const slow = script('slow.sh', 'sleep 30');
    expect(await runCommand({ ...base, argv: [slow], timeoutMs: 200 })).toMatchObject({
      failure: 'timed out after 0.2s (--command-timeout)',
      interrupted: false,
    });
    const abort = new AbortController();
    const running = runCommand({ ...base, argv: [slow], timeoutMs: 0, signal: abort.signal });
    abort.abort();
    expect(await running).toMatchObject({ interrupted: true });
  });

  it('is over when its process exits, not when a process it left behind closes its output', async () => {
    // The leftover holds stdout and stderr open for 30 s, in a session of its own; the command exits at once.
    const pidFile = path.join(dir, 'leftover.pid');
    const file = script(
      'leaves.sh',
      `setsid sleep 30 & echo $! > ${pidFile}; head -c 300000 /dev/zero | tr "\\0" x | fold -w 1000; echo; echo last-line`,
    );
    const lines: string[] = [];
    const result = await runCommand({
      argv: [file],
      node: 'w1',
      runId: RUN_ID,
      timeoutMs: 0,
      onLine: (_stream, line) => lines.push(line),
    });
    const leftover = Number(readFileSync(pidFile, 'utf8'));
    try {
      expect(result).toEqual({ exitCode: 0, failure: null, interrupted: false });
      // Returned while the leftover still runs, and every line the command wrote was read.
      expect(alive(leftover)).toBe(true);
      expect(lines).toHaveLength(301);
      expect(lines.at(-1)).toBe('last-line');
    } finally {
      process.kill(leftover, 'SIGKILL');
    }
  });

  it('on --command-timeout ends every process it started: its group, and one that ignores SIGTERM in its own session', async () => {
    const pidFile = path.join(dir, 'stubborn.pid');
    rmSync(pidFile, { force: true });
    const file = script(
      'stubborn.sh',
      `setsid sh -c 'trap "" TERM; echo $$ > ${pidFile}.tmp; mv ${pidFile}.tmp ${pidFile}; exec sleep 60' &\n` +
        // The command goes on once the stubborn process ignores SIGTERM: the timeout finds it so.
        `until [ -e ${pidFile} ]; do sleep 0.05; done\n` +
        `sleep 60 & wait`,
    );
    const lines: string[] = [];
    const running = runCommand({
      argv: [file],
      node: 'w1',
      runId: `${RUN_ID}-timeout`,
      timeoutMs: 5000,
      onLine: (_stream, line) => lines.push(line),
    });
    const result = await running;
    const stubborn = Number(readFileSync(pidFile, 'utf8'));
    expect(result).toMatchObject({ failure: 'timed out after 5s (--command-timeout)', interrupted: false });
    expect(alive(stubborn)).toBe(false);
  });

  it('hands on 10 MB written without a newline as lines of at most 4096 bytes, each piece marked', async () => {
    let lines = 0;
    let longest = 0;
    let marked = 0;
    const file = script('flood.sh', 'head -c 10485760 /dev/zero | tr "\\0" x');
    const result = await runCommand({
      argv: [file],
      node: 'w1',
      runId: RUN_ID,
      timeoutMs: 0,
      onLine: (_stream, line) => {
        lines += 1;
        longest = Math.max(longest, Buffer.byteLength(line.replace(SPLIT_MARKER, '')));
        if (line.endsWith(SPLIT_MARKER)) marked += 1;
      },
    });
    expect(result).toEqual({ exitCode: 0, failure: null, interrupted: false });
    expect({ lines, longest, marked }).toEqual({ lines: 2560, longest: 4096, marked: 2559 });
  });

  it('is resolved to an absolute path and the directory it was given in, so that it runs the same from anywhere', () => {
    const file = script('upgrade.sh', 'true');
    expect(resolveCommand(['./upgrade.sh', '{node}'], dir)).toEqual({ argv: [file, '{node}'], dir });
    expect(resolveCommand(['upgrade.sh', '-y'], '/', { PATH: `/nonexistent${path.delimiter}${dir}` })).toEqual({
      argv: [file, '-y'],
      dir: '/',
    });
    // A relative entry of PATH is relative to the directory the run starts in.
    expect(resolveCommand(['upgrade.sh'], dir, { PATH: '.' })).toEqual({ argv: [file], dir });
    expect(resolveCommand([], dir)).toEqual({ argv: [], dir });
    expect(resolveCommand(['./upgrade.sh'], '/')).toEqual({
      problem: 'command "./upgrade.sh" is not an executable file',
    });
  });

  it('runs in the directory it was resolved in', async () => {
    const lines: string[] = [];
    const result = await runCommand({
      argv: [script('pwd.sh', 'pwd')],
      node: 'w1',
      runId: RUN_ID,
      cwd: dir,
      timeoutMs: 0,
      onLine: (_stream, line) => lines.push(line),
    });
    expect(result.exitCode).toBe(0);
    expect(lines).toEqual([realpathSync(dir)]);
  });

  it('that cannot start (its file gone since it was checked) is told apart from one that failed', async () => {
    const result = await runCommand({
      argv: [path.join(dir, 'gone.sh')],
      node: 'w1',
      runId: RUN_ID,
      timeoutMs: 0,
      onLine: () => {},
    });
    expect(result).toEqual({
      exitCode: null,
      failure: null,
      interrupted: false,
      cannotStart: `spawn ${path.join(dir, 'gone.sh')} ENOENT`,
    });
  });
});

describe('the processes a command started', () => {
  it('are read from /proc/PID/stat, whose name may hold spaces and parentheses', () => {
    expect(parseStat('4242 (my (odd) cmd) S 4200 4242 4100 0 -1')).toEqual({
      pid: 4242,
      ppid: 4200,
      pgrp: 4242,
      session: 4100,
      ended: false,
    });
    expect(parseStat('4243 (sh) Z 4242 4242 4100 0')).toMatchObject({ ended: true });
    expect(parseStat('garbage')).toBeNull();
  });
});
