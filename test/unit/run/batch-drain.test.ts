import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DrainApi } from '../../../src/kube/drain-api.js';
import { drainBatch } from '../../../src/run/batch-drain.js';
import { snapshotFromDocuments } from '../../../src/snapshot/load-file.js';
import { RUN_OPTIONS } from './run-options.js';

// A batch whose fresh plan is blocked (the cluster changed since the run's plan, or an earlier batch
// failed under --keep-going) must not be cordoned and then wait for ever: with no --timeout, the run
// leaves its nodes alone and says why. examples/hello-blocked.json: budget demo/hello can never free up.
const root = path.resolve(import.meta.dirname, '../../..');
const blocked = snapshotFromDocuments(
  [JSON.parse(readFileSync(path.join(root, 'examples/hello-blocked.json'), 'utf8'))],
  { type: 'file', path: 'hello-blocked.json' },
  'snapshot "hello-blocked.json"',
);

const OPTIONS = { ...RUN_OPTIONS, keepGoing: true };

/** Records every call: the blocked batch must make none (no cordon, no eviction, no watch). */
function recordingApi(calls: string[]): DrainApi {
  return new Proxy({} as DrainApi, {
    get: (_target, method) => () => {
      calls.push(String(method));
      throw new Error(`unexpected API call: ${String(method)}`);
    },
  });
}

describe('a batch whose fresh plan is blocked', () => {
  const deps = (calls: string[]) => ({
    api: recordingApi(calls),
    emit: () => {},
    signal: new AbortController().signal,
    nowMs: Date.parse('2026-12-01T12:00:00Z'),
  });

  it('with no --timeout: nothing is cordoned or evicted, and each node says why', async () => {
    const calls: string[] = [];
    const result = await drainBatch(blocked, ['k8s-node-1'], OPTIONS, deps(calls));
    expect(calls).toEqual([]);
    expect(result.finished).toBeNull();
    expect(result.plan.verdict).toBe('blocked');
    expect(result.notDrained.get('k8s-node-1')).toMatch(
      /^not cordoned or drained: the batch's plan is blocked now \(cannot evict demo\/hello-.*budget demo\/hello will not free up.*\); no --timeout bounds the wait$/,
    );
  });

  it('with a --timeout the drain is tried: the operator bounded the wait', async () => {
    const calls: string[] = [];
    const result = await drainBatch(blocked, ['k8s-node-1'], { ...OPTIONS, drainTimeoutMs: 60_000 }, deps(calls));
    expect(calls[0]).toBe('cordon');
    expect(result.finished).not.toBeNull();
  });
});
