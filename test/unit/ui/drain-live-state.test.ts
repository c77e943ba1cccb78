import { describe, expect, it } from 'vitest';
import type { DrainEvent } from '../../../src/drain/events.js';
import {
  elapsedAt,
  initialDrainProgress,
  reduceDrainEvents,
  waveHintsFromPlan,
  type DrainProgress,
  type DrainProgressOptions,
} from '../../../src/ui/drain-live-state.js';
import { describePodState } from '../../../src/ui/drain-pod-text.js';
import {
  cordoned,
  finished,
  HELLO_A,
  HELLO_B,
  helloDrain,
  podEvent,
  PROXY,
  podRef,
  started,
  T0,
  waiting,
} from './drain-fixture.js';
import { blockedPlan, slowPlan } from './plan-fixture.js';

function fold(events: readonly DrainEvent[], options: DrainProgressOptions = {}): DrainProgress {
  return events.reduce((state, e) => reduceDrainEvents(state, e, options), initialDrainProgress());
}

function phases(progress: DrainProgress): Record<string, string> {
  return Object.fromEntries(progress.pods.map((p) => [p.pod.name, p.state.phase]));
}

describe('reduceDrainEvents', () => {
  it("names the pods not yet admitted whose time cannot be counted: the plan's, and a webhook's 429 met live", () => {
    const webhook429 = {
      phase: 'retrying',
      attempts: 1,
      error: 'admission webhook "wait.demo.io" denied the request: pod demo/hello-b is being live-migrated',
      nextAttemptMs: T0 + 6000,
    } as const;
    const hints = { perWave: new Map(), podBudget: new Map(), uncounted: new Set(['demo/hello-a']) };
    const events = [started(), podEvent(HELLO_A, 1, { phase: 'evicting', attempt: 1 })];
    expect(fold(events, { hints }).uncounted).toEqual(['demo/hello-a']);
    expect(fold(events).uncounted).toEqual([]);
    const live = [...events, podEvent(HELLO_B, 1, webhook429)];
    expect(fold(live).uncounted).toEqual(['demo/hello-b']);
    const admitted = [...live, podEvent(HELLO_B, 8, { phase: 'terminating', deadlineMs: T0 + 38_000 })];
    expect(fold(admitted, { hints }).uncounted).toEqual(['demo/hello-a']);
    expect(fold(admitted).uncounted).toEqual([]);
  });

  it('queues every announced pod and remembers the nodes and dry-run mode', () => {
    const progress = fold([started([HELLO_A, HELLO_B], 'server')]);
    expect(progress.nodes).toEqual(['k8s-node-1']);
    expect(progress.dryRun).toBe('server');
    expect(phases(progress)).toEqual({ 'hello-a': 'queued', 'hello-b': 'queued' });
    expect(progress.counts).toMatchObject({ total: 2, queued: 2, done: 0 });
  });

  it('follows a pod from waiting for its budget to gone, and logs it once when it is gone', () => {
    const events = [
      started(),
      podEvent(HELLO_B, 1, { phase: 'evicting', attempt: 1 }),
      waiting(HELLO_B, 1, 1),
      waiting(HELLO_B, 13, 4),
    ];
    const waitingState = fold(events);
    expect(waitingState.pods.find((p) => p.pod.name === 'hello-b')).toMatchObject({
      state: { phase: 'waiting-for-budget', attempts: 4, pdb: 'hello' },
      phaseSinceMs: T0 + 1000,
      pdb: 'demo/hello',
    });
    expect(waitingState.counts.waiting).toBe(1);
    expect(waitingState.budgets).toEqual([
      { pdb: 'demo/hello', disruptionsAllowed: 0, currentHealthy: 3, desiredHealthy: 3, maxAllowedSeen: 0 },
    ]);
    const gone = fold([
      ...events,
      podEvent(HELLO_B, 30, { phase: 'terminating', deadlineMs: null }),
      podEvent(HELLO_B, 45, { phase: 'gone', how: 'evicted' }),
      podEvent(HELLO_B, 46, { phase: 'gone', how: 'evicted' }),
    ]);
    expect(gone.counts).toMatchObject({ waiting: 0, gone: 1, done: 1 });
    expect(gone.log.filter((e) => e.kind === 'pod').map((e) => e.atMs)).toEqual([T0 + 45_000]);
  });

  it('keeps the time a phase began while the pod stays in it', () => {
    const progress = fold([
      started(),
      podEvent(HELLO_A, 1, { phase: 'terminating', deadlineMs: null }),
      podEvent(HELLO_A, 5, { phase: 'terminating', deadlineMs: T0 + 31_000 }),
    ]);
    expect(progress.pods[0]).toMatchObject({ phaseSinceMs: T0 + 1000, state: { deadlineMs: T0 + 31_000 } });
  });

  it('logs cordons, warnings and finished pods in order, with unique ids for <Static>', () => {
    const progress = fold(helloDrain());
    expect(progress.log.map((e) => (e.kind === 'pod' ? `${e.pod.name} ${e.state.phase}` : e.kind))).toEqual([
      'cordoned',
      'kube-proxy-x1 skipped',
      'hello-a gone',
      'hello-b gone',
    ]);
    expect(new Set(progress.log.map((e) => e.id)).size).toBe(progress.log.length);
  });

  it('counts only the pods to remove, with a total that never changes, and keeps the finished event', () => {
    const events = helloDrain();
    const totals = events.map((_, i) => fold(events.slice(0, i + 1)).counts.total);
    expect(new Set(totals.slice(1))).toEqual(new Set([2])); // from `started` on: 2, though kube-proxy is listed
    const progress = fold(events);
    expect(progress.pods.map((p) => p.pod.name)).toContain('kube-proxy-x1');
    expect(progress.counts).toEqual({
      total: 2,
      queued: 0,
      evicting: 0,
      waiting: 0,
      terminating: 0,
      gone: 2,
      skipped: 0,
      failed: 0,
      dryRun: 0,
      done: 2,
    });
    expect(progress.finished?.result).toBe('drained');
    expect(progress.wavesLeft).toBe(0);
  });

  it('measures elapsed time from started to the latest event', () => {
    expect(fold(helloDrain().slice(0, 8)).elapsedMs).toBe(13_000);
  });

  it('counts the pods the drain found on its node after the plan, and says so once', () => {
    const late = podRef('late');
    const progress = fold([
      started([HELLO_A]),
      { type: 'late-pods', atMs: T0 + 5000, pods: [late] },
      podEvent(late, 5, { phase: 'queued' }),
      podEvent(late, 6, { phase: 'evicting', attempt: 1 }),
    ]);
    expect(progress.counts.total).toBe(2);
    expect(phases(progress)).toEqual({ 'hello-a': 'queued', late: 'evicting' });
    expect(progress.log.map((l) => (l.kind === 'warning' ? l.message : l.kind))).toEqual([
      '1 pod on k8s-node-1 the plan did not show (bound since it read the node): demo/late',
    ]);
  });

  it('adds a pod it was not told about rather than dropping its events', () => {
    const progress = fold([started([HELLO_A]), podEvent(PROXY, 1, { phase: 'skipped', reason: 'DaemonSet-managed' })]);
    expect(phases(progress)).toEqual({ 'hello-a': 'queued', 'kube-proxy-x1': 'skipped' });
  });
});

describe('elapsedAt', () => {
  it('ticks with the clock while the drain runs', () => {
    expect(elapsedAt(fold([started(), cordoned(1)]), T0 + 42_000)).toBe(42_000);
  });
  it('stops at the finished event', () => {
    expect(elapsedAt(fold(helloDrain()), T0 + 999_000)).toBe(45_000);
  });
  it('is zero before the drain started', () => {
    expect(elapsedAt(initialDrainProgress(), T0)).toBe(0);
  });
});

describe('wavesLeft', () => {
  const waitingBoth = [started([HELLO_A, HELLO_B]), waiting(HELLO_A, 1, 1), waiting(HELLO_B, 1, 1)];
  it('counts one wave per pod waiting on a budget that allows one at a time', () => {
    expect(fold(waitingBoth).wavesLeft).toBe(2);
  });
  it('drops a wave once a waiting pod is on its way out', () => {
    expect(fold([...waitingBoth, podEvent(HELLO_A, 5, { phase: 'terminating', deadlineMs: null })]).wavesLeft).toBe(1);
  });
  it('counts pods under no known budget as one wave', () => {
    expect(fold([started([HELLO_A, HELLO_B])]).wavesLeft).toBe(1);
  });
  it("uses the plan's budgets and wave sizes before any pod has waited", () => {
    const hints = waveHintsFromPlan(slowPlan());
    expect(fold([started([HELLO_A, HELLO_B])], { hints }).wavesLeft).toBe(2);
  });
  it('reads the wave size from the plan: two per wave halves the waves', () => {
    const plan = slowPlan();
    const hints = waveHintsFromPlan({ ...plan, budgets: plan.budgets.map((b) => ({ ...b, perWave: 2 })) });
    expect(fold([started([HELLO_A, HELLO_B])], { hints }).wavesLeft).toBe(1);
  });
  it('is zero once the drain has finished, whatever remains', () => {
    expect(fold([...waitingBoth, finished(60, 'interrupted', [HELLO_A, HELLO_B])]).wavesLeft).toBe(0);
    expect(fold(helloDrain()).wavesLeft).toBe(0);
  });
});

describe("the plan's verdict carried to the drain", () => {
  it('of a blocked plan says whether a pod certainly holds it back or only pods whose outcome is unknown', () => {
    const plan = blockedPlan();
    expect(waveHintsFromPlan(plan).plan?.blockedWords).toBe('cannot finish');
    const unknown = {
      ...plan,
      pods: plan.pods.map((p) =>
        p.outcome === 'blocked' ? { ...p, outcomeUnknown: 'the webhook guard.example.com decides its eviction' } : p,
      ),
    };
    expect(waveHintsFromPlan(unknown).plan?.blockedWords).toBe('may not finish');
    expect(waveHintsFromPlan(slowPlan()).plan).toEqual({ verdict: 'slow', reason: expect.any(String) });
  });
});

describe('a wait that explains itself', () => {
  const stuck = {
    pod: 'demo/hello-new',
    state: 'unschedulable' as const,
    message: "0/4 nodes are available: 1 node(s) didn't match pod topology spread constraints.",
  };

  it('once the cluster says a pod of the budget cannot be scheduled: blocked, and no waves estimate', () => {
    const before = fold([started([HELLO_A, HELLO_B]), waiting(HELLO_B, 1, 1)]);
    expect([before.wavesLeft, before.blockedBy]).toEqual([1, null]);
    const after = fold([started([HELLO_A, HELLO_B]), waiting(HELLO_B, 1, 1, { blockers: [stuck] })]);
    expect([after.wavesLeft, after.blockedBy]).toEqual([0, 'demo/hello-new cannot be scheduled']);
    const row = after.pods.find((p) => p.pod.uid === HELLO_B.uid)!;
    expect(describePodState(row, T0 + 14_000)).toBe(
      'budget demo/hello: needs 3 healthy, has 3, allowed 0; demo/hello-new is Pending, the scheduler says: ' +
        "0/4 nodes are available: 1 node(s) didn't match pod topology spread constraints. · waiting 13s, asked again once the budget allows one (1 refusal)",
    );
  });

  it('a pod that is only not Ready explains the wait without calling it blocked', () => {
    const slow = {
      pod: 'demo/hello-c',
      state: 'not-ready' as const,
      message: 'containers with unready status: [hello]',
    };
    const progress = fold([started([HELLO_A, HELLO_B]), waiting(HELLO_B, 1, 1, { blockers: [slow] })]);
    expect(progress.blockedBy).toBeNull();
    expect(describePodState(progress.pods[1]!, T0 + 2_000)).toContain(
      'demo/hello-c is not Ready (containers with unready status: [hello])',
    );
  });

  it('until the cluster tells, the row says what the plan predicted holds the budget', () => {
    const hints = waveHintsFromPlan(blockedPlan());
    const progress = fold([started([HELLO_A, HELLO_B]), waiting(HELLO_B, 1, 1)], { hints });
    expect(describePodState(progress.pods[1]!, T0 + 2_000)).toContain(
      '; the plan: no node for the replacement of demo/hello-a: 0/3 nodes are available',
    );
  });
});
