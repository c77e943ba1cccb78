import { afterEach, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../audit.js';
import { auditMark, auditSince, budgetGets, maintReads } from '../audit.js';
import {
  described,
  finish,
  finishedOf,
  nodeBudgetsLetGoAtOnce,
  poolNodes,
  seedPool,
  start,
  untilEvent,
} from '../run-helpers.js';
import { labComponent } from './faults.js';

// kube-apiserver restarted while a run waits for its budgets to come back: every watch of the run's cache
// breaks. They must be reopened (a relist where the server lost the history to resume from), the wait must
// read its budgets from them rather than GET each every 250 ms, and the run must finish once the control
// plane is back. The audit log counts the requests.

/** The kinds a run's cache follows that its waits and plans depend on most. */
const FOLLOWED = ['nodes', 'pods', 'poddisruptionbudgets'] as const;

/** The run's watches and relists of `resource` in `events`, answered 200 (ResponseStarted of a watch, a LIST's end). */
function reopened(events: readonly AuditEvent[], resource: string): string[] {
  const reads = maintReads(events.filter((e) => e.responseStatus?.code === 200));
  return [...(reads.whole.get(resource) ?? []), ...(reads.resumed.get(resource) ?? [])];
}

describe('a run while kube-apiserver restarts', () => {
  afterEach(async () => {
    await labComponent('start', 'kube-apiserver');
    await labComponent('start', 'kube-controller-manager');
  });

  it('in its wait for budgets: its watches reopen, its GETs of budgets stay few, and it finishes', async () => {
    await seedPool();
    // A node whose drain evicts budgeted pods (with none the run has no budget to wait for), each at once:
    // with the controller stopped, a second pod of a budget that allows one would never be evicted.
    const node = await nodeBudgetsLetGoAtOnce();
    // No controller: the pods the run evicts are not replaced, so their budgets stay down after the batch
    // and the run (one batch, one node: nothing else to do) waits for them.
    await labComponent('stop', 'kube-controller-manager');
    const mark = await auditMark();
    const waitStarted = Date.now();
    const run = await start(['run', node, '--ignore-daemonsets', '-o', 'json']);
    await untilEvent(
      run,
      (events) => events.some((e) => e.type === 'budgets-waiting'),
      120_000,
      'the run to wait for its budgets',
    );

    const restarted = await auditMark();
    await labComponent('stop', 'kube-apiserver');
    await labComponent('start', 'kube-apiserver');
    await labComponent('start', 'kube-controller-manager');
    const r = await finish(run);
    const seconds = (Date.now() - waitStarted) / 1000;

    expect(r.exitCode, described(r)).toBe(0);
    expect(finishedOf(r.events)?.result, described(r)).toBe('done');
    const nodes = await poolNodes();
    expect(nodes.filter((n) => n.spec.unschedulable).map((n) => n.metadata.name)).toEqual([]);

    // Every followed kind read again after the restart (a watch resumed, or a relist), each a few times:
    // reopened with a back-off, not in a loop.
    const after = await auditSince(restarted);
    for (const resource of FOLLOWED) {
      const reads = reopened(after, resource);
      expect(reads.length, `${resource}: ${reads.join('\n')}`).toBeGreaterThan(0);
      expect(reads.length, `${resource}: ${reads.join('\n')}`).toBeLessThanOrEqual(10);
    }
    // The wait reads its budgets from the watch that wakes it, not with a GET of each every 250 ms (what it
    // did once its watches were gone).
    expect(budgetGets(await auditSince(mark)), `in ${seconds.toFixed(0)}s`).toEqual([]);
  });
});
