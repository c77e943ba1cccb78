import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  commandLogDir,
  CommandLogs,
  dropResult,
  keepResult,
  keptResult,
  keptResultFile,
} from '../../../src/run/command-log.js';

const dir = mkdtempSync(path.join(tmpdir(), 'maint-command-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the run's command log", () => {
  it('lives under $XDG_STATE_HOME, or ~/.local/state when it is unset or not absolute', () => {
    expect(commandLogDir('r1', { XDG_STATE_HOME: '/var/state' }, '/home/ops')).toBe('/var/state/kubectl-maint/runs/r1');
    expect(commandLogDir('r1', {}, '/home/ops')).toBe('/home/ops/.local/state/kubectl-maint/runs/r1');
    expect(commandLogDir('r1', { XDG_STATE_HOME: 'rel' }, '/home/ops')).toBe(
      '/home/ops/.local/state/kubectl-maint/runs/r1',
    );
  });

  it("keeps each node's output in its own file, with the command's start and end, readable only by its owner", async () => {
    const runDir = path.join(dir, 'runs', 'r1');
    const logs = new CommandLogs(runDir, (m) => expect.fail(m));
    logs.take({ type: 'phase', atMs: 0, node: 'w1', batch: 1, phase: 'command-running' });
    logs.take({ type: 'command-output', atMs: 1, node: 'w1', stream: 'stdout', line: 'flashing' });
    logs.take({ type: 'command-output', atMs: 2, node: 'w2', stream: 'stderr', line: 'E: dpkg was interrupted' });
    logs.take({ type: 'command-finished', atMs: 3, node: 'w2', exitCode: 7, failure: 'exited 7' });
    await logs.close();
    expect(readFileSync(path.join(runDir, 'w1.log'), 'utf8')).toBe(
      '--- 1970-01-01T00:00:00.000Z command started on w1\nflashing\n',
    );
    expect(readFileSync(path.join(runDir, 'w2.log'), 'utf8')).toBe(
      'E: dpkg was interrupted\n--- 1970-01-01T00:00:00.003Z command exited 7\n',
    );
    expect(statSync(path.join(runDir, 'w1.log')).mode & 0o777).toBe(0o600);
  });

  it('says once that it cannot write, and goes on', async () => {
    const problems: string[] = [];
    // A directory that cannot be made: its parent is a file.
    writeFileSync(path.join(dir, 'a-file'), '');
    const logs = new CommandLogs(path.join(dir, 'a-file', 'r1'), (m) => problems.push(m));
    logs.take({ type: 'command-output', atMs: 1, node: 'w1', stream: 'stdout', line: 'a' });
    logs.take({ type: 'command-output', atMs: 2, node: 'w1', stream: 'stdout', line: 'b' });
    await logs.close();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^cannot keep the command output in \S+\/a-file\/r1: ENOTDIR/);
  });
});

describe("a command's result kept on this machine until it is written", () => {
  const runDir = path.join(dir, 'runs', 'kept');
  const result = { runId: 'r1', node: 'w1', exitCode: 0, failure: null, at: '2026-12-04T10:00:00.000Z' };

  it('is found by a resume of the same run, for the same node, until it is dropped', () => {
    expect(keepResult(runDir, result)).toBe(true);
    expect(keptResult(runDir, 'r1', 'w1')).toEqual(result);
    expect(keptResult(runDir, 'r2', 'w1')).toBeNull();
    expect(keptResult(runDir, 'r1', 'w2')).toBeNull();
    expect(statSync(keptResultFile(runDir, 'w1')).mode & 0o777).toBe(0o600);
    dropResult(runDir, 'w1');
    expect(keptResult(runDir, 'r1', 'w1')).toBeNull();
  });

  it('is not trusted when the file is not a result', () => {
    writeFileSync(keptResultFile(runDir, 'w3'), '{"runId":"r1"');
    expect(keptResult(runDir, 'r1', 'w3')).toBeNull();
  });

  it('says false when it cannot be kept', () => {
    writeFileSync(path.join(dir, 'not-a-dir'), '');
    expect(keepResult(path.join(dir, 'not-a-dir', 'r1'), result)).toBe(false);
  });
});
