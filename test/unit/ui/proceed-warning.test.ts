import { describe, expect, it } from 'vitest';
import { drainQuestion, proceedWarning, proceedWarningText } from '../../../src/ui/proceed-question.js';
import { blockedRunRefusal, commandsWithWayOut } from '../../../src/cli/way-out.js';
import { buildPoolPlan } from '../../../src/plan/pool-plan.js';
import { bareCommands, finishedEvent } from '../../../src/drain/summary.js';
import { buildPlan } from '../../../src/plan/build-plan.js';
import { wayOut, wayOutText } from '../../../src/ui/plan-advice.js';
import { makeIndex, makePdb, makePod, makeStatefulSet } from '../builders.js';
import { nodes, options, owners, web } from '../plan/rules-fixture.js';
import { blockedPlan, clearPlan, slowPlan } from './plan-fixture.js';

/** A budget that allows none of its one healthy pod (minAvailable 1). */
const budget = (app: string, ns: string) =>
  makePdb()
    .name(app)
    .ns(ns)
    .selector({ app })
    .minAvailable(1)
    .status({ disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 })
    .obj();
/** One web replica (a Deployment) on n1 under minAvailable 1: blocked but for --surge. */
const soloPlan = () =>
  buildPlan(makeIndex({ nodes, ...owners, pods: [web('a').obj()], pdbs: [budget('web', 'shop')] }), options());
/** One StatefulSet replica on n1 under minAvailable 1: no surge; --escalate-* only. */
const statefulPlan = () =>
  buildPlan(
    makeIndex({
      nodes,
      pods: [makePod().name('db-0').ns('demo').node('n1').label('app', 'db').owner('StatefulSet', 'db').obj()],
      pdbs: [budget('db', 'demo')],
      statefulSets: [makeStatefulSet().name('db').ns('demo').replicas(1).obj()],
    }),
    options(),
  );

// `drain --yes` (or a drain with no terminal to ask on) goes ahead on a plan that expects it not to
// finish: it says why, and what bounds the wait.

describe('proceedWarning', () => {
  it('on a blocked plan names the cause and the --timeout in force', () => {
    expect(proceedWarning(blockedPlan(), 300_000)).toBe(
      'the plan says this drain cannot finish: demo/hello-a: no node can take its replacement; no flag lets it finish ' +
        '(see "What to do"); --timeout 5m stops it',
    );
  });

  it('on a plan blocked only by a pod whose outcome is unknown says the drain may not finish', () => {
    const plan = blockedPlan();
    const unknown = {
      ...plan,
      verdictReasons: ['demo/hello-a: the webhook guard.example.com decides its eviction'],
      pods: plan.pods.map((p) =>
        p.name === 'hello-a' ? { ...p, outcomeUnknown: 'the webhook guard.example.com decides its eviction' } : p,
      ),
    };
    expect(proceedWarning(unknown, 0)).toMatch(
      /^the plan says this drain may not finish: demo\/hello-a: the webhook guard\.example\.com decides/,
    );
    expect(proceedWarning(plan, 0)).toMatch(/^the plan says this drain cannot finish: /);
  });

  it('says when there is no --timeout: the drain waits until interrupted', () => {
    expect(proceedWarning(blockedPlan(), 0)).toMatch(
      /; there is no --timeout, so it waits until interrupted \(Ctrl-C\)$/,
    );
  });

  it('on an incomplete plan says the drain may not finish', () => {
    const plan = {
      ...clearPlan(),
      verdict: 'incomplete' as const,
      verdictReasons: ['PodDisruptionBudgets not read: …'],
    };
    expect(proceedWarning(plan, 0)).toMatch(
      /^the plan could not read all it needs, so this drain may not finish: PodDisruptionBudgets not read/,
    );
  });

  it('on a disruptive plan says which workload the drain leaves down', () => {
    const plan = {
      ...clearPlan(),
      verdict: 'disruptive' as const,
      verdictReasons: ['StatefulSet demo/db: 1 of 1 replica down until k8s-node-1 returns (…)'],
    };
    expect(proceedWarning(plan, 0)).toBe(
      'the plan says this drain leaves a workload down: StatefulSet demo/db: 1 of 1 replica down until k8s-node-1 returns (…)',
    );
    const lab = { context: 'kind-lab', server: 'https://127.0.0.1:6443' };
    expect(drainQuestion(plan, { verb: 'evict', pods: 0 }, lab, 200).split('\n').at(-1)).toMatch(
      /^Drain: cordon k8s-node-1 and evict 0 pods \(the plan says this drain leaves a workload down: StatefulSet demo\/db: 1 of 1 replica down/,
    );
  });

  it('says nothing on a clear or slow plan', () => {
    expect(proceedWarning(clearPlan(), 0)).toBeNull();
    expect(proceedWarning(slowPlan(), 0)).toBeNull();
    expect(proceedWarningText(clearPlan(), 0, 80)).toBeNull();
  });

  it('is written as a "warning: " line wrapped to the stream, ending with a newline', () => {
    const text = proceedWarningText(blockedPlan(), 300_000, 40)!;
    expect(text.startsWith('warning: the plan says')).toBe(true);
    expect(text.endsWith('\n')).toBe(true);
    expect(text.replace(/\n/g, ' ')).toMatch(/stops it $/);
    const lines = text.slice(0, -1).split('\n');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.every((line) => line.length <= 40)).toBe(true);
    expect(lines.join(' ')).toBe(`warning: ${proceedWarning(blockedPlan(), 300_000)}`);
  });
});

describe('drainQuestion', () => {
  const action = { verb: 'evict' as const, pods: 2 };

  const lab = { context: 'kind-lab', server: 'https://127.0.0.1:6443' };

  it('names the verdict, the context and what a yes does, one line each when they fit', () => {
    const plan = { ...slowPlan(), eta: { totalSeconds: 45, waves: [], basis: [] } };
    expect(drainQuestion(plan, action, lab, 200).split('\n')).toEqual([
      'SLOW: draining k8s-node-1 waits for disruption budgets · about 45s',
      'Context: kind-lab (https://127.0.0.1:6443)',
      'Drain: cordon k8s-node-1 and evict 2 pods. Proceed? [y/N] ',
    ]);
  });

  it('wraps between words, with room for the answer, in a few lines (a blocked plan gives its cause)', () => {
    for (const width of [60, 80, 120]) {
      const question = drainQuestion(blockedPlan(), action, lab, width);
      const lines = question.split('\n');
      expect(lines.every((line) => line.length <= width - 2)).toBe(true);
      // The verdict and the context stay on the screen the answer is typed on, even at 80x24.
      expect(lines.length, String(width)).toBeLessThanOrEqual(8);
      expect(question.replace(/\n/g, ' ')).toBe(
        'BLOCKED: draining k8s-node-1 cannot finish Context: kind-lab (https://127.0.0.1:6443) ' +
          'Drain: cordon k8s-node-1 and evict 2 pods (the plan says this drain cannot finish: ' +
          'demo/hello-a: no node can take its replacement; no flag lets it finish (see "What to do")). Proceed? [y/N] ',
      );
    }
  });
});

describe('the way out, where the operator answers', () => {
  const lab = { context: 'kind-lab', server: 'https://127.0.0.1:6443' };
  const single = soloPlan();

  it('the question on the solo node names --surge=NS/NAME, the flag that finishes it', () => {
    const question = drainQuestion(single, { verb: 'evict', pods: 1 }, lab, 200).replace(/\n/g, ' ');
    expect(question).toContain('the plan says this drain cannot finish');
    expect(question).toContain('it finishes with --surge=shop/web).');
    expect(proceedWarning(single, 0)).toContain('; it finishes with --surge=shop/web;');
  });

  it('a budget no flag but --escalate-* gets past is named with the duration left to the operator', () => {
    expect(wayOut(statefulPlan())).toEqual({
      flags: ['--escalate-after DURATION --escalate-namespace demo'],
      enough: true,
    });
  });

  it('a blocked run names the way out of its blocked batch, What to do not being on the screen', () => {
    expect(wayOutText(blockedPlan(), false)).toBe(
      'no flag lets it finish: demo/hello-a: make room for the replacement (free capacity, add or uncordon a ' +
        'node, or relax the constraint the scheduler names); the pods its budget holds back then follow',
    );
  });

  it("the drain's summary resumes with the flag that finishes it, never with the command that just hung", () => {
    const commands = commandsWithWayOut(bareCommands(['n1']), single);
    expect(commands.resume).toBe('kubectl maint drain n1 --surge=shop/web');
    expect(commands.stuck).toBeUndefined();
    const ctrlC = finishedEvent({
      atMs: 0,
      nodes: ['n1'],
      dryRun: 'none',
      cordoned: ['n1'],
      stoppedBy: 'interrupted',
      pods: [{ ref: { namespace: 'shop', name: 'a', uid: 'a', node: 'n1' }, state: { phase: 'queued' } }],
      commands,
    });
    expect(ctrlC.clusterState).toContain('run `kubectl maint drain n1 --surge=shop/web` again to finish');
    expect(ctrlC.commands?.resume).toBe('kubectl maint drain n1 --surge=shop/web');
  });

  it('a drain no flag finishes says so in its summary, before the command to run once that changes', () => {
    const commands = commandsWithWayOut(bareCommands(['k8s-node-1']), blockedPlan());
    expect(commands.resume).toBe('kubectl maint drain k8s-node-1');
    expect(commands.stuck).toBe('no flag lets it finish (see "What to do")');
    const ctrlC = finishedEvent({
      atMs: 0,
      nodes: ['k8s-node-1'],
      dryRun: 'none',
      cordoned: ['k8s-node-1'],
      stoppedBy: 'interrupted',
      pods: [{ ref: { namespace: 'demo', name: 'hello-a', uid: 'a', node: 'k8s-node-1' }, state: { phase: 'queued' } }],
      commands,
    });
    expect(ctrlC.clusterState).toMatch(
      /; no flag lets it finish \(see "What to do"\): once that changes, run `kubectl maint drain k8s-node-1` again$/,
    );
    expect(ctrlC.commands?.stuck).toBe(commands.stuck);
  });

  it("a blocked run's refusal names the flag that finishes its blocked batch, not only --force-start", () => {
    const index = makeIndex({ nodes, ...owners, pods: [web('a').obj()], pdbs: [budget('web', 'shop')] });
    const pool = buildPoolPlan(index, { ...options(), nodes: ['n1'], maxUnavailable: 1 });
    expect(pool.verdict).toBe('blocked');
    expect(blockedRunRefusal(pool)).toMatch(
      /^the pool plan is blocked: .*; batch 1: it finishes with --surge=shop\/web \(--force-start to run anyway; nothing was changed\)$/,
    );
  });
});
