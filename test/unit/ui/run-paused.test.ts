import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../src/run/events.js';
import { pausedLines } from '../../../src/ui/run-log-text.js';

const paused = (waitingFor: 'key' | 'resume'): Extract<RunEvent, { type: 'paused' }> => ({
  type: 'paused',
  atMs: 0,
  batch: 1,
  nodes: ['pool-1', 'pool-3'],
  waitingFor,
  resumeCommand: 'kubectl maint run --resume 20261202-091738-a242',
});

describe('the paused run', () => {
  it('asks for a key and leaves the resume command to the summary that a Ctrl-C prints', () => {
    expect(pausedLines(paused('key'))).toEqual([
      'batch 1 (pool-1, pool-3) is drained: do the maintenance, then press any key to go on.',
      'Ctrl-C stops here; the summary then says how to continue later.',
    ]);
  });

  it('and when the run stopped to be resumed later, says the resume command only in the summary', () => {
    const lines = pausedLines(paused('resume'));
    expect(lines).toEqual([
      'batch 1 (pool-1, pool-3) is drained and the run paused: do the maintenance, then continue with the command below.',
    ]);
    expect(lines.join('\n')).not.toContain('--resume');
  });
});
