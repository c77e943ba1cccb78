import { describe, expect, it } from 'vitest';
import type { DrainEvent } from '../../../src/drain/events.js';
import { drainErrorLine, drainEventLines, type DrainLine } from '../../../src/ui/drain-log-text.js';
import { initialDrainProgress, reduceDrainEvents } from '../../../src/ui/drain-live-state.js';
import {
  cordoned,
  finished,
  HELLO_A,
  HELLO_B,
  helloDrain,
  podEvent,
  podRef,
  started,
  T0,
  waiting,
} from './drain-fixture.js';

/** Every line a stream of events prints, as "stdout: …" / "stderr: …". */
function linesOf(events: readonly DrainEvent[]): string[] {
  let progress = initialDrainProgress();
  const lines: DrainLine[] = [];
  for (const event of events) {
    lines.push(...drainEventLines(progress, event));
    progress = reduceDrainEvents(progress, event);
  }
  return lines.map((l) => `${l.stream}: ${l.text}`);
}

describe('drainEventLines', () => {
  it('prints a whole drain the way kubectl drain does, waits and summary on stderr', () => {
    expect(linesOf(helloDrain())).toEqual([
      'stdout: node/k8s-node-1 cordoned',
      'stdout: pod/kube-proxy-x1 skipped: DaemonSet-managed',
      'stdout: evicting pod demo/hello-a',
      'stdout: evicting pod demo/hello-b',
      'stderr: pod demo/hello-b waiting for PodDisruptionBudget demo/hello: needs 3 healthy, has 3, allowed 0 (attempt 1, 0s)',
      'stderr: pod demo/hello-b waiting for PodDisruptionBudget demo/hello: needs 3 healthy, has 3, allowed 0 (attempt 4, 12s)',
      'stdout: pod/hello-a evicted',
      'stdout: pod/hello-b evicted',
      'stdout: node/k8s-node-1 drained',
      'stderr: Drained k8s-node-1 in 45s',
      'stderr:   done: 2 evicted, 1 skipped',
      'stderr:   left: node k8s-node-1 cordoned; only DaemonSet pods left on it',
    ]);
  });

  it.each([
    { already: false, dryRun: false, mode: 'none' as const, line: 'node/k8s-node-1 cordoned' },
    { already: true, dryRun: false, mode: 'none' as const, line: 'node/k8s-node-1 already cordoned' },
    { already: false, dryRun: true, mode: 'client' as const, line: 'node/k8s-node-1 cordoned (dry run)' },
    { already: false, dryRun: true, mode: 'server' as const, line: 'node/k8s-node-1 cordoned (server dry run)' },
  ])('cordon reads "$line"', ({ already, dryRun, mode, line }) => {
    expect(linesOf([started([], mode), cordoned(0, already, dryRun)])).toEqual([`stdout: ${line}`]);
  });

  it('warns of the pods found on the nodes after the plan, before their own lines', () => {
    const lateA = podRef('late-a');
    const lateB = podRef('late-b', 'demo', 'k8s-node-2');
    expect(
      linesOf([
        started([HELLO_A]),
        { type: 'late-pods', atMs: T0, pods: [lateA, lateB] },
        podEvent(lateA, 1, { phase: 'evicting', attempt: 1 }),
      ]),
    ).toEqual([
      'stderr: Warning: 2 pods on k8s-node-1, k8s-node-2 the plan did not show (bound since it read the nodes): demo/late-a, demo/late-b',
      'stdout: evicting pod demo/late-a',
    ]);
  });

  it('prints "evicting pod" once per pod, not on every retry', () => {
    expect(
      linesOf([
        started([HELLO_B]),
        podEvent(HELLO_B, 1, { phase: 'evicting', attempt: 1 }),
        waiting(HELLO_B, 1, 1),
        podEvent(HELLO_B, 6, { phase: 'evicting', attempt: 2 }),
      ]).filter((l) => l.includes('evicting pod')),
    ).toEqual(['stdout: evicting pod demo/hello-b']);
  });

  it("words a stale budget as the API server's other 429", () => {
    const stale = waiting(HELLO_B, 3, 2, {
      why: 'status-not-observed',
      disruptionsAllowed: 1,
      currentHealthy: 4,
      desiredHealthy: 3,
    });
    expect(linesOf([started([HELLO_B]), stale])).toEqual([
      'stderr: pod demo/hello-b waiting for PodDisruptionBudget demo/hello: status not yet observed by the disruption controller (attempt 2, 2s)',
    ]);
  });

  it('does not show a stale status as fact: says it is stale, what the pods say, and the likely cause', () => {
    const stale = waiting(HELLO_B, 3, 5, {
      disruptionsAllowed: 0,
      currentHealthy: 11,
      desiredHealthy: 11,
      staleStatus: { healthyPods: 12, sinceMs: 0 },
    });
    expect(linesOf([started([HELLO_B]), stale])).toEqual([
      'stderr: pod demo/hello-b waiting for PodDisruptionBudget demo/hello: status stale (it last said needs 11 healthy, has 11, allowed 0; 12 pods healthy now): is the disruption controller (kube-controller-manager) running? (attempt 5, 2s)',
    ]);
  });

  it('says when the disruption controller cannot compute the budget, instead of its numbers', () => {
    const broken = waiting(HELLO_B, 3, 4, {
      disruptionsAllowed: 0,
      controllerError: 'jobs.batch does not implement the scale subresource',
    });
    expect(linesOf([started([HELLO_B]), broken])).toEqual([
      'stderr: pod demo/hello-b waiting for PodDisruptionBudget demo/hello: the disruption controller cannot compute it (jobs.batch does not implement the scale subresource); no eviction until that is fixed (attempt 4, 2s)',
    ]);
  });

  it("uses kubectl's error syntax for retries and failures", () => {
    expect(
      linesOf([
        started([HELLO_A]),
        podEvent(HELLO_A, 1, {
          phase: 'retrying',
          attempts: 2,
          error: 'etcdserver: leader changed',
          nextAttemptMs: Date.UTC(2026, 10, 29, 3, 0, 6),
        }),
        podEvent(HELLO_A, 6, { phase: 'failed', error: 'pods "hello-a" is forbidden' }),
      ]),
    ).toEqual([
      'stderr: error when evicting pods/"hello-a" -n "demo" (will retry after 5s): etcdserver: leader changed',
      'stderr: error when evicting pods/"hello-a" -n "demo": pods "hello-a" is forbidden',
    ]);
  });

  it('reports a server dry run per pod: admitted to stdout, refused to stderr', () => {
    expect(
      linesOf([
        started([HELLO_A, HELLO_B], 'server'),
        podEvent(HELLO_A, 1, { phase: 'dry-run', admitted: true, reason: 'eviction admitted', pdb: null }),
        podEvent(HELLO_B, 1, {
          phase: 'dry-run',
          admitted: false,
          reason: 'PodDisruptionBudget hello needs 4 healthy pods, has 4',
          pdb: 'hello',
        }),
      ]),
    ).toEqual([
      'stdout: pod/hello-a eviction admitted (server dry run)',
      'stderr: pod/hello-b eviction refused: PodDisruptionBudget hello needs 4 healthy pods, has 4 (server dry run)',
    ]);
  });

  it('does not call a node drained while pods remain on it, and says what to do next', () => {
    const lines = linesOf([
      started([HELLO_A, HELLO_B]),
      cordoned(0),
      waiting(HELLO_B, 1, 1),
      finished(90, 'interrupted', [HELLO_B]),
    ]);
    expect(lines).toContain('stderr: error: unable to drain node "k8s-node-1": interrupted');
    expect(lines).not.toContain('stdout: node/k8s-node-1 drained');
    expect(lines.slice(-4)).toEqual([
      'stderr:   next: resume with:',
      'stderr:     kubectl maint drain k8s-node-1',
      'stderr:   or undo the cordon with:',
      'stderr:     kubectl maint uncordon k8s-node-1',
    ]);
  });

  it('prints warnings as kubectl does, on stderr', () => {
    expect(
      linesOf([{ type: 'warning', atMs: 0, message: 'ignoring DaemonSet-managed Pods: kube-system/kube-proxy-x1' }]),
    ).toEqual(['stderr: Warning: ignoring DaemonSet-managed Pods: kube-system/kube-proxy-x1']);
  });

  it.each([
    { admitted: true, line: 'stdout: node/k8s-node-1 drained (server dry run)' },
    {
      admitted: false,
      line: 'stderr: error: unable to drain node "k8s-node-1": evictions refused (server dry run)',
    },
  ])(
    'ends a server dry run with the node drained unless an eviction was refused (admitted: $admitted)',
    ({ admitted, line }) => {
      const lines = linesOf([
        started([HELLO_A], 'server'),
        podEvent(HELLO_A, 1, {
          phase: 'dry-run',
          admitted,
          reason: admitted ? 'eviction admitted' : 'budget',
          pdb: null,
        }),
        finished(1, 'dry-run', [HELLO_A]),
      ]);
      expect(lines).toContain(line);
    },
  );

  it('puts the reason on the first error line when the API server refuses the cordon, and every node is undrained', () => {
    const refused: DrainEvent = {
      ...(finished(0, 'failed', [HELLO_A]) as Extract<DrainEvent, { type: 'finished' }>),
      gone: [],
      clusterState: 'node k8s-node-1 not cordoned; no pod evicted (cannot cordon node "k8s-node-1": forbidden)',
      error: 'cannot cordon node "k8s-node-1": forbidden: user "ro" cannot patch nodes at the cluster scope',
    };
    const lines = linesOf([started([HELLO_A]), refused]);
    expect(lines[0]).toBe(
      'stderr: error: unable to drain node "k8s-node-1": cannot cordon node "k8s-node-1": forbidden: user "ro" cannot patch nodes at the cluster scope',
    );
    expect(lines.join('\n')).not.toContain('undo the cordon');
  });
});

describe('drainErrorLine (-o json: the one stderr line)', () => {
  const progressOf = (events: readonly DrainEvent[]) =>
    events.reduce((s, e) => reduceDrainEvents(s, e), initialDrainProgress());

  it('is null for a drain that finished, and for a dry run the API server answered', () => {
    expect(drainErrorLine(progressOf([started([HELLO_A])]), finished(1, 'drained') as never)).toBeNull();
    expect(drainErrorLine(progressOf([started([HELLO_A], 'server')]), finished(1, 'dry-run') as never)).toBeNull();
  });

  it("says the engine's reason, naming the node", () => {
    const event = {
      ...(finished(9, 'interrupted', [HELLO_B]) as Extract<DrainEvent, { type: 'finished' }>),
      error: 'interrupted by SIGTERM with 1 pod left: demo/hello-b (waiting for budget demo/hello)',
    };
    expect(drainErrorLine(progressOf([started([HELLO_A, HELLO_B]), cordoned(0)]), event)).toBe(
      'error: unable to drain node "k8s-node-1": interrupted by SIGTERM with 1 pod left: demo/hello-b (waiting for budget demo/hello)',
    );
  });
});

describe('a client dry run', () => {
  /** A client dry run of hello-a and hello-b, reduced with the plan's verdict as the drain command does. */
  function clientDryRun(plan: {
    verdict: 'slow' | 'blocked';
    reason: string;
    blockedWords?: 'cannot finish' | 'may not finish';
  }): string[] {
    const hints = { perWave: new Map(), podBudget: new Map(), plan };
    const reason = 'would be evicted (budgets not checked)';
    const events: DrainEvent[] = [
      started([HELLO_A, HELLO_B], 'client'),
      cordoned(0, false, true),
      podEvent(HELLO_A, 0, { phase: 'dry-run', admitted: true, reason, pdb: null }),
      podEvent(HELLO_B, 0, { phase: 'dry-run', admitted: true, reason, pdb: null }),
      // As the engine ends a dry run: its pods are not gone, so the event lists them as remaining.
      finished(0, 'dry-run', [HELLO_A, HELLO_B]),
    ];
    let progress = initialDrainProgress();
    const lines: DrainLine[] = [];
    for (const event of events) {
      lines.push(...drainEventLines(progress, event));
      progress = reduceDrainEvents(progress, event, { hints });
    }
    return lines.map((l) => `${l.stream}: ${l.text}`);
  }

  it('counts what it did in the words of each pod line: would be evicted, budgets not checked', () => {
    const lines = clientDryRun({ verdict: 'slow', reason: 'budget demo/hello lets 1 pod go at a time' });
    // kubectl drain --dry-run=client's words: evicting pod X (dry run), node/X drained (dry run).
    expect(lines).toContain('stdout: evicting pod demo/hello-a (dry run)');
    expect(lines).toContain('stdout: node/k8s-node-1 drained (dry run)');
    expect(lines).toContain('stderr:   done: 2 would be evicted (budgets not checked)');
    // The pods it would evict are not also said to remain.
    expect(lines.join('\n')).not.toContain('remaining');
    expect(lines.join('\n')).not.toContain('admitted');
  });

  it('of a drain the plan calls blocked never says drained: the plan is its answer', () => {
    const why = 'no node for the replacement of demo/hello-a';
    const lines = clientDryRun({ verdict: 'blocked', reason: why });
    expect(lines.join('\n')).not.toContain('drained (dry run)');
    expect(lines).toContain(
      `stderr: node/k8s-node-1 would not finish draining (dry run): the plan says the drain cannot finish: ${why}`,
    );
    expect(lines).toContain(
      'stderr: Dry run of k8s-node-1 done in 0s: nothing was changed, and the drain would not finish',
    );
    expect(lines).toContain(`stderr:   why: the plan says the drain cannot finish: ${why}`);
  });

  it('of a drain held back only by pods whose outcome is unknown says it might not finish', () => {
    const why = 'demo/hello-a is judged by webhook guard.example.com, which the plan cannot predict';
    const lines = clientDryRun({ verdict: 'blocked', reason: why, blockedWords: 'may not finish' });
    expect(lines).toContain(
      `stderr: node/k8s-node-1 might not finish draining (dry run): the plan says the drain may not finish: ${why}`,
    );
    expect(lines).toContain(
      'stderr: Dry run of k8s-node-1 done in 0s: nothing was changed, and the drain might not finish',
    );
    expect(lines.join('\n')).not.toContain('cannot finish');
  });
});
