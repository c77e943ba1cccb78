import { describe, expect, it } from 'vitest';
import { runExitCode } from '../../../src/cli/run-action.js';
import type { NodeState, RunEvent, RunResult } from '../../../src/run/events.js';

const finished = (result: RunResult, nodes: NodeState[]): RunEvent => ({
  type: 'run-finished',
  atMs: 0,
  runId: 'r',
  result,
  nodes,
  resumeCommand: 'kubectl maint run --resume r',
  commandLog: null,
  commandSeconds: [],
});
const node = (name: string, phase: NodeState['phase'], problem?: string): NodeState => ({
  node: name,
  batch: 1,
  phase,
  problem,
});

describe('runExitCode', () => {
  it('a pause with its batch drained exits 0: the operator asked the run to stop there', () => {
    expect(runExitCode(finished('paused', [node('pool-1', 'drained'), node('pool-2', 'drained')]))).toBe(0);
  });

  it('a pause where a node of the batch failed its drain exits 1: the pause names only the drained nodes', () => {
    const nodes = [
      node('pool-1', 'drained'),
      node('pool-2', 'drain-failed', 'drain timeout: shop/web-1 is still on it'),
    ];
    expect(runExitCode(finished('paused', nodes))).toBe(1);
  });

  it('failed exits 1, interrupted 130', () => {
    expect(runExitCode(finished('failed', [node('pool-1', 'command-failed', 'command exited 1')]))).toBe(1);
    expect(runExitCode(finished('interrupted', [node('pool-1', 'command-running')]))).toBe(130);
  });
});
