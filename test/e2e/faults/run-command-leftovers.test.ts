import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { described, finish, finishedOf, scratch, seedPool, start } from '../run-helpers.js';

// The operator's command leaves a process behind in a session of its own, holding its output open: the
// run records the command's exit when it exits, not when that output closes.

const work = scratch();
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Whether a process runs (a zombie does not). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe('a run whose command leaves a process behind', () => {
  it('goes on when the command exits, while the process it left still holds its output', async () => {
    await seedPool();
    const pidFile = path.join(work, 'leftover.pid');
    const command = ['bash', '-c', `setsid sleep 120 & echo $! > ${pidFile}; echo maintained "$0"`, '{node}'];
    const run = await start(['run', 'pool-1', '--ignore-daemonsets', '-o', 'json', '--', ...command]);
    const r = await finish(run);
    const leftover = Number(readFileSync(pidFile, 'utf8'));
    try {
      expect(r.exitCode, described(r)).toBe(0);
      expect(finishedOf(r.events)?.result).toBe('done');
      // Finished while the process the command left behind still runs (for two minutes).
      expect(alive(leftover)).toBe(true);
      expect(r.events).toContainEqual(
        expect.objectContaining({ type: 'command-output', node: 'pool-1', line: 'maintained pool-1' }),
      );
      expect(r.events).toContainEqual(
        expect.objectContaining({ type: 'command-finished', node: 'pool-1', exitCode: 0 }),
      );
    } finally {
      process.kill(leftover, 'SIGKILL');
    }
  });
});
