import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../src/run/events.js';
import { pausedLines } from '../../../src/ui/run-lines.js';

const paused = (waitingFor: 'key' | 'resume'): Extract<RunEvent, { type: 'paused' }> => ({
  type: 'paused',
  atMs: 0,
  batch: 1,
  nodes: ['pool-1', 'pool-3'],
  waitingFor,
  resumeCommand: 'kubectl maint run --resume 20261202-091738-a242',
});

describe('the paused run', () => {
  it('puts the resume command on a line of its own, whole, under a key to press', () => {
    expect(pausedLines(paused('key'))).toEqual([
      'batch 1 (pool-1, pool-3) is drained: do the maintenance, then press any key to go on.',
      'Ctrl-C stops here; to continue later, run:',
      '  kubectl maint run --resume 20261202-091738-a242',
    ]);
  });

  it('and when the run stopped to be resumed later', () => {
    expect(pausedLines(paused('resume'))).toEqual([
      'batch 1 (pool-1, pool-3) is drained and the run paused: once the maintenance is done, continue with:',
      '  kubectl maint run --resume 20261202-091738-a242',
    ]);
  });
});
