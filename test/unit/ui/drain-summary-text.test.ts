import { describe, expect, it } from 'vitest';
import type { DrainEvent } from '../../../src/drain/events.js';
import { finishedEvent, type FinishedEvent } from '../../../src/drain/summary.js';
import { waitingForHello } from '../drain/states.js';
import { initialDrainProgress, reduceDrainEvents } from '../../../src/ui/drain-live-state.js';
import { renderDrainSummaryText, summarizeDrain } from '../../../src/ui/drain-summary-text.js';
import { cordoned, finished, HELLO_A, HELLO_B, helloDrain, podEvent, started, T0, waiting } from './drain-fixture.js';
import { podRef } from './drain-fixture.js';

const uncordonOf = (nodes: readonly string[]) => `kubectl maint uncordon ${nodes.join(' ')}`;

function summaryOf(events: readonly DrainEvent[]) {
  const progress = events.reduce((s, e) => reduceDrainEvents(s, e), initialDrainProgress());
  return summarizeDrain(progress, progress.finished as FinishedEvent);
}

describe('summarizeDrain', () => {
  it('sums up a finished drain in green: what was done and the state left behind', () => {
    expect(summaryOf(helloDrain())).toEqual({
      tone: 'ok',
      headline: 'Drained k8s-node-1 in 45s',
      lines: ['done: 2 evicted, 1 skipped', 'left: node k8s-node-1 cordoned; only DaemonSet pods left on it'],
    });
  });

  it('after Ctrl-C, says what remains, what each remaining pod was doing, and the ways out', () => {
    const summary = summaryOf([
      started([HELLO_A, HELLO_B]),
      cordoned(0),
      podEvent(HELLO_A, 1, { phase: 'gone', how: 'evicted' }),
      waiting(HELLO_B, 13, 4),
      finished(20, 'interrupted', [HELLO_B]),
    ]);
    expect(renderDrainSummaryText(summary)).toBe(
      [
        'Interrupted after 20s: 1 pod remains on k8s-node-1',
        '  done: 1 evicted',
        '  remaining: demo/hello-b (budget demo/hello: needs 3 healthy, has 3, allowed 0 · waiting 19s, asked again once the budget allows one (4 refusals))',
        '  left: node k8s-node-1 cordoned; 1 pod still on it',
        '  next: resume with:',
        '    kubectl maint drain k8s-node-1',
        '  or undo the cordon with:',
        '    kubectl maint uncordon k8s-node-1',
      ].join('\n'),
    );
    expect(summary.tone).toBe('warn');
  });

  it('after Ctrl-C, with the finished event the engine builds, says the resume command once', () => {
    const stuck = 'no flag lets it finish (see "What to do")';
    for (const commands of [
      undefined,
      { resume: 'kubectl maint drain k8s-node-1 --surge', uncordon: uncordonOf, stuck },
    ]) {
      const end = finishedEvent({
        atMs: T0 + 20_000,
        nodes: ['k8s-node-1'],
        dryRun: 'none',
        cordoned: ['k8s-node-1'],
        cordonedHere: ['k8s-node-1'],
        stoppedBy: 'interrupted',
        pods: [
          { ref: HELLO_A, state: { phase: 'gone', how: 'evicted' } },
          { ref: HELLO_B, state: waitingForHello },
        ],
        commands,
      });
      const resume = end.commands!.resume;
      const text = renderDrainSummaryText(
        summaryOf([started([HELLO_A, HELLO_B]), cordoned(0), waiting(HELLO_B, 13, 4), end]),
      );
      expect(text.split(resume).length - 1, text).toBe(1);
      expect(text, text).toContain('  left: node k8s-node-1 cordoned; 1 gone, 1 not evicted\n');
      // A log reading the event alone still has the next step in its one sentence.
      expect(end.clusterState).toContain(resume);
    }
  });

  it('after Ctrl-C, pods one budget holds are one line: the budget said once, the longest wait, all refusals', () => {
    const helloC = podRef('hello-c');
    const summary = summaryOf([
      started([HELLO_A, HELLO_B, helloC]),
      cordoned(0),
      waiting(HELLO_B, 13, 4),
      waiting(helloC, 14, 3),
      podEvent(HELLO_A, 15, { phase: 'terminating', deadlineMs: T0 + 45_000 }),
      finished(20, 'interrupted', [HELLO_A, HELLO_B, helloC]),
    ]);
    const remaining = summary.lines.filter((line) => line.startsWith('remaining: '));
    expect(remaining).toEqual([
      'remaining: demo/hello-b, demo/hello-c (budget demo/hello: needs 3 healthy, has 3, allowed 0 · waiting up to 19s, asked again once the budget allows one (7 refusals))',
      'remaining: demo/hello-a (terminating, 25s grace left)',
    ]);
  });

  it('after Ctrl-C of a drain that found its node cordoned already, offers no undo of a cordon it did not make', () => {
    const summary = summaryOf([
      started([HELLO_A, HELLO_B]),
      cordoned(0, true),
      waiting(HELLO_B, 13, 4),
      finished(20, 'interrupted', [HELLO_A, HELLO_B]),
    ]);
    expect(summary.lines.slice(-3)).toEqual([
      'next: resume with:',
      '  kubectl maint drain k8s-node-1',
      '(the nodes were cordoned before this drain: it leaves that cordon as it was)',
    ]);
  });

  it("suggests the commands the engine built with the user's own flags, each on a line of its own", () => {
    const commands = {
      resume: "kubectl maint drain k8s-node-1 --ignore-daemonsets --context 'my lab'",
      uncordon: "kubectl maint uncordon k8s-node-1 --context 'my lab'",
    };
    const summary = summaryOf([
      started([HELLO_A, HELLO_B]),
      cordoned(0),
      waiting(HELLO_B, 13, 4),
      { ...finished(20, 'interrupted', [HELLO_B]), commands } as DrainEvent,
    ]);
    expect(summary.lines.slice(-4)).toEqual([
      'next: resume with:',
      `  ${commands.resume}`,
      'or undo the cordon with:',
      `  ${commands.uncordon}`,
    ]);
  });

  it('lists every failed pod with its error, in red', () => {
    const events = [started([HELLO_A]), podEvent(HELLO_A, 2, { phase: 'failed', error: 'forbidden' })];
    const failedEvent: DrainEvent = {
      ...(finished(3, 'failed', []) as FinishedEvent),
      gone: [],
      failed: [{ pod: HELLO_A, error: 'forbidden' }],
    };
    const summary = summaryOf([...events, failedEvent]);
    expect(summary.tone).toBe('bad');
    expect(summary.headline).toBe('Drain of k8s-node-1 failed after 3s: 1 pod failed, 0 pods remain');
    expect(summary.lines).toContain('failed: demo/hello-a: forbidden');
  });

  it("a policy's denial of every pod: said once, naming the pods, with what to do", () => {
    const HELLO_B_POD = { ...HELLO_A, name: 'hello-b', uid: 'uid-b' };
    const denial = (name: string) =>
      `pods "${name}" is forbidden: ValidatingAdmissionPolicy 'protect' with binding 'protect-binding' denied request: handled by the operator (HTTP 422)`;
    const failedEvent: DrainEvent = {
      ...(finished(3, 'failed', []) as FinishedEvent),
      gone: [],
      failed: [
        { pod: HELLO_A, error: denial('hello-a') },
        { pod: HELLO_B_POD, error: denial('hello-b') },
      ],
    };
    const summary = summaryOf([started([HELLO_A, HELLO_B_POD]), failedEvent]);
    const failedLines = summary.lines.filter((l) => l.startsWith('failed:'));
    expect(failedLines).toEqual([
      "failed: demo/hello-a, demo/hello-b: ValidatingAdmissionPolicy 'protect' with binding 'protect-binding' denied request: handled by the operator (HTTP 422)",
    ]);
    expect(summary.lines.find((l) => l.startsWith('why:'))).toMatch(
      /^why: the admission chain refuses these evictions \(ValidatingAdmissionPolicy 'protect'\): .*--disable-eviction/,
    );
  });

  it('suggests no next step after a dry run, which changed nothing', () => {
    const summary = summaryOf([started([HELLO_A], 'server'), finished(1, 'dry-run', [HELLO_A])]);
    expect(summary.headline).toBe('Dry run of k8s-node-1 done in 1s: nothing was changed');
    expect(summary.lines.some((l) => l.startsWith('next:'))).toBe(false);
  });

  it('after a cordon the API server refused: the reason in the headline, and no cordon to undo', () => {
    const refused: DrainEvent = {
      ...(finished(0, 'failed', [HELLO_A]) as FinishedEvent),
      gone: [],
      clusterState: 'node k8s-node-1 not cordoned; no pod evicted (cannot cordon node "k8s-node-1": forbidden)',
      error: 'cannot cordon node "k8s-node-1": forbidden: user "ro" cannot patch nodes at the cluster scope',
    };
    const summary = summaryOf([started([HELLO_A]), refused]);
    expect(summary.headline).toBe(
      'Drain of k8s-node-1 failed after 0s: cannot cordon node "k8s-node-1": forbidden: user "ro" cannot patch nodes at the cluster scope',
    );
    expect(summary.lines.join('\n')).not.toContain('uncordon');
    expect(summary.lines.slice(-2)).toEqual([
      'next: nothing to undo; once the cause is fixed, run:',
      '  kubectl maint drain k8s-node-1',
    ]);
  });

  it('names the finalizers a remaining terminating pod waits on', () => {
    const summary = summaryOf([
      started([HELLO_A]),
      cordoned(0),
      podEvent(HELLO_A, 1, { phase: 'terminating', deadlineMs: null, finalizers: ['example.com/hold'] }),
      finished(20, 'timeout', [HELLO_A]),
    ]);
    expect(summary.lines).toContain(
      'remaining: demo/hello-a (terminating for 19s, held by finalizer example.com/hold)',
    );
  });

  it('says "nothing" was done when no pod finished', () => {
    expect(summaryOf([started([HELLO_A]), finished(600, 'timeout', [HELLO_A])]).lines[0]).toBe('done: nothing');
  });
});
