import { afterEach, describe, expect, it } from 'vitest';
import type { DrainEvent } from '../../../src/drain/events.js';
import { auditMark } from '../audit.js';
import { setHelloMaxUnavailable } from '../drain-run.js';
import { kubectl, kubectlJson, seedScenario } from '../lab.js';
import {
  DRAIN_NODE1_JSON,
  drainWaitingOnClosedBudget,
  expectDrainedOnce,
  helloOnNode1,
  labComponent,
  restartedApiServer,
  watchDrain,
} from './faults.js';

// Parts of the control plane stopped in the middle of a drain: kube-apiserver (every request fails, the
// watches break) and kube-controller-manager (budgets' statuses freeze, no replacement is created). The
// drain must ride out the outage, say what it sees truthfully, finish once the part is back, and never
// evict a pod twice nor delete one outside the Eviction API (the audit log says what was sent).

/** The waits for budget hello in the events, newest last. */
function budgetWaits(events: readonly DrainEvent[]) {
  return events.flatMap((e) => (e.type === 'pod' && e.state.phase === 'waiting-for-budget' ? [e.state] : []));
}

describe('control plane outages in the middle of a drain', () => {
  // A test that fails half-way must not leave the lab without a component for the next one.
  afterEach(async () => {
    await labComponent('start', 'kube-apiserver');
    await labComponent('start', 'kube-controller-manager');
  });

  it('kube-apiserver stopped while pods wait, then restarted: the drain notices, reconnects and finishes', async () => {
    const { drain, pods, mark } = await drainWaitingOnClosedBudget();

    await labComponent('stop', 'kube-apiserver');
    const seen = drain.events().length;
    await drain.until(
      ({ events }) =>
        events
          .slice(seen)
          .some(
            (e) =>
              (e.type === 'warning' && e.message.startsWith('watch of')) ||
              (e.type === 'pod' && e.state.phase === 'retrying'),
          ),
      'the drain to notice that the API server is gone',
    );
    await restartedApiServer();
    await setHelloMaxUnavailable(1);

    await expectDrainedOnce(await drain.finish(), pods, mark);
  });

  it('kube-controller-manager down: the wait says the budget status is stale, and the drain finishes once it is back', async () => {
    await seedScenario('hello');
    const pods = await helloOnNode1();
    // The scenario spreads hello 2 + 2 over the workers; a drain of fewer than two never waits on the budget.
    expect(pods.map((p) => p.name)).toHaveLength(2);
    await labComponent('stop', 'kube-controller-manager');
    const mark = await auditMark();
    // The first pod is evicted (the API server spends the budget itself); no replacement comes and the
    // budget's status is never recomputed, so the second pod waits on numbers the pods no longer match.
    const drain = await watchDrain(DRAIN_NODE1_JSON);
    const { events } = await drain.until(
      ({ events }) => budgetWaits(events).some((w) => w.staleStatus),
      'the wait to call the budget status stale',
    );
    const stale = budgetWaits(events).find((w) => w.staleStatus)!;
    expect(stale).toMatchObject({ pdb: 'hello', disruptionsAllowed: 0, currentHealthy: 4, desiredHealthy: 3 });
    expect(stale.staleStatus?.healthyPods).toBe(3);

    await labComponent('start', 'kube-controller-manager');
    const run = await drain.finish();
    await expectDrainedOnce(run, pods, mark);
    // The stale note went away once the controller wrote the budget's status again.
    const last = budgetWaits(run.events).at(-1);
    expect(last?.staleStatus).toBeUndefined();
  });

  it('kube-controller-manager stopped mid-drain while the budget changes: the wait says its status is not observed', async () => {
    const { drain, pods, mark } = await drainWaitingOnClosedBudget();

    await labComponent('stop', 'kube-controller-manager');
    await kubectl(['patch', 'pdb', 'hello', '-n', 'demo', '--type=merge', '-p', '{"spec":{"maxUnavailable":1}}']);
    type Pdb = { metadata: { generation: number }; status: { observedGeneration: number } };
    const pdb = await kubectlJson<Pdb>(['get', 'pdb', 'hello', '-n', 'demo']);
    expect(pdb.status.observedGeneration).toBeLessThan(pdb.metadata.generation);
    const seen = drain.events().length;
    await drain.until(
      ({ events }) => budgetWaits(events.slice(seen)).some((w) => w.why === 'status-not-observed'),
      'the wait to say the budget status is not observed',
    );
    await labComponent('start', 'kube-controller-manager');

    await expectDrainedOnce(await drain.finish(), pods, mark);
  });
});
