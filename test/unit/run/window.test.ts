import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BatchProgress,
  heldReason,
  nextStep,
  PASS_OVER_LIMIT,
  type QueuedNode,
  type WindowState,
} from '../../../src/run/window.js';
import type { RunEvent, RunEventBody } from '../../../src/run/events.js';
import type { NodePhase } from '../../../src/run/state.js';
import { RunWindow, type GroupHooks, type WindowSteps } from '../../../src/run/window-loop.js';
import { RunLines } from '../../../src/ui/run-log-text.js';

/** The plan's order of `batches` (node names), as the runner queues it. */
const queueOf = (batches: readonly (readonly string[])[]): QueuedNode[] =>
  batches.flatMap((nodes, i) => nodes.map((node) => ({ node, batch: i + 1 })));

const state = (over: Partial<WindowState> & Pick<WindowState, 'queue'>): WindowState => ({
  width: 2,
  inFlight: 0,
  held: new Set(),
  failed: false,
  keepGoing: false,
  ...over,
});

describe('nextStep: which nodes of the plan start next', () => {
  it('starts the first batch whole when it fits, then waits while the window is full', () => {
    const queue = queueOf([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(nextStep(state({ queue }))).toEqual({ kind: 'start', batch: 1, nodes: ['a', 'b'] });
    expect(nextStep(state({ queue: queue.slice(2), inFlight: 2 }))).toEqual({ kind: 'wait' });
  });

  it('starts the next node as soon as one is back, before its whole batch is', () => {
    const queue = queueOf([
      ['a', 'b'],
      ['c', 'd'],
    ]).slice(2);
    expect(nextStep(state({ queue, inFlight: 1 }))).toEqual({ kind: 'start', batch: 2, nodes: ['c'] });
  });

  it('never puts nodes of two batches in one group', () => {
    const queue = queueOf([['a'], ['b', 'c']]);
    expect(nextStep(state({ queue, width: 3 }))).toEqual({ kind: 'start', batch: 1, nodes: ['a'] });
  });

  it('a failed node still cordoned keeps its slot under --keep-going: one node starts, not two', () => {
    const queue = queueOf([
      ['a', 'b'],
      ['c', 'd'],
    ]).slice(2);
    const step = nextStep(state({ queue, held: new Set(['a']), failed: true, keepGoing: true }));
    expect(step).toEqual({ kind: 'start', batch: 2, nodes: ['c'] });
  });

  it('a failed node never cordoned (its batch plan was blocked) frees its slot', () => {
    const queue = queueOf([
      ['a', 'b'],
      ['c', 'd'],
    ]).slice(2);
    const step = nextStep(state({ queue, failed: true, keepGoing: true }));
    expect(step).toEqual({ kind: 'start', batch: 2, nodes: ['c', 'd'] });
  });

  it('a failure without --keep-going starts nothing more, even with free slots', () => {
    const queue = queueOf([
      ['a', 'b'],
      ['c', 'd'],
    ]).slice(2);
    expect(nextStep(state({ queue, failed: true }))).toEqual({ kind: 'stop', why: 'failed' });
    expect(nextStep(state({ queue, failed: true, inFlight: 1 }))).toEqual({ kind: 'stop', why: 'failed' });
  });

  it('stops, not waits, when failed nodes hold every slot and nothing is in flight', () => {
    const queue = queueOf([
      ['a', 'b'],
      ['c', 'd'],
    ]).slice(2);
    const held = new Set(['a', 'b']);
    expect(nextStep(state({ queue, held, failed: true, keepGoing: true }))).toEqual({ kind: 'stop', why: 'held' });
    // While a node is in flight its return may free a slot: wait for it.
    const one = new Set(['a']);
    expect(nextStep(state({ queue, held: one, inFlight: 1, failed: true, keepGoing: true }))).toEqual({
      kind: 'wait',
    });
  });

  it('says the run is done once every node has started', () => {
    expect(nextStep(state({ queue: [], inFlight: 1 }))).toEqual({ kind: 'stop', why: 'done' });
  });

  it('on a resume, nodes found out of service take no new slot when their turn comes', () => {
    // a (batch 1) failed before and is still cordoned; b is pending: a's slot is its own, b takes the other.
    const queue = queueOf([['a', 'b'], ['c']]);
    const step = nextStep(state({ queue, held: new Set(['a']) }));
    expect(step).toEqual({ kind: 'start', batch: 1, nodes: ['a', 'b'] });
  });

  it('on a resume, a node found out later in the order starts when nothing else can', () => {
    const queue = queueOf([['a'], ['b']]);
    const step = nextStep(state({ queue, width: 1, held: new Set(['b']) }));
    expect(step).toEqual({ kind: 'start', batch: 2, nodes: ['b'] });
  });
});

describe('nextStep: nodes passed over (their fresh plan blocked while others were out)', () => {
  const queue = queueOf([['a', 'b'], ['c'], ['d']]);

  it('the next node not passed over takes the free slot, with the nodes of its batch that follow', () => {
    expect(nextStep(state({ queue, inFlight: 1, passedOver: new Set(['a']) }))).toEqual({
      kind: 'start',
      batch: 1,
      nodes: ['b'],
    });
    expect(nextStep(state({ queue, inFlight: 1, passedOver: new Set(['a', 'b']) }))).toEqual({
      kind: 'start',
      batch: 2,
      nodes: ['c'],
    });
  });

  it('waits when every node left is passed over, or the turn passed over its limit', () => {
    expect(nextStep(state({ queue, inFlight: 1, passedOver: new Set(['a', 'b', 'c', 'd']) }))).toEqual({
      kind: 'wait',
    });
    const long = queueOf([['a'], ['b'], ['c'], ['d'], ['e'], ['f']]);
    const limit = new Set(long.slice(0, PASS_OVER_LIMIT).map((q) => q.node));
    expect(nextStep(state({ queue: long, inFlight: 1, passedOver: limit }))).toEqual({ kind: 'wait' });
  });

  it('with nothing in flight, goes on from the head of the queue', () => {
    expect(nextStep(state({ queue, passedOver: new Set(['a', 'b', 'c', 'd']) }))).toEqual({
      kind: 'start',
      batch: 1,
      nodes: ['a', 'b'],
    });
  });

  it('a passed-over node never takes a slot the window does not have', () => {
    expect(nextStep(state({ queue, inFlight: 2, passedOver: new Set(['a']) }))).toEqual({ kind: 'wait' });
  });
});

describe('heldReason', () => {
  it('names the width and the nodes holding it', () => {
    expect(heldReason(2, new Set(['pool-1', 'pool-4']))).toBe(
      'every slot of the window (2 at once) is held by a node still out of service after a failure ("pool-1", "pool-4"): no further node starts',
    );
  });
});

describe('BatchProgress: batches reported finished in the plan order', () => {
  it('holds back a finished batch until every batch before it is finished', () => {
    const progress = new BatchProgress(queueOf([['a', 'b'], ['c'], ['d']]));
    expect(progress.start(1)).toBe(true);
    expect(progress.start(1)).toBe(false);
    progress.ended(1, 1, true);
    expect(progress.finished()).toEqual([]);
    progress.ended(2, 1, true); // c overtook b
    expect(progress.finished()).toEqual([]);
    progress.ended(1, 1, false);
    expect(progress.finished()).toEqual([
      { batch: 1, ok: false },
      { batch: 2, ok: true },
    ]);
    expect(progress.finished()).toEqual([]);
  });

  it('when the run stops, reports the started batches left, ok only if all their nodes ended well', () => {
    const progress = new BatchProgress(queueOf([['a', 'b'], ['c'], ['d']]));
    progress.start(1);
    progress.ended(1, 1, true);
    progress.start(2);
    progress.ended(2, 1, true);
    expect(progress.stopped()).toEqual([
      { batch: 1, ok: false },
      { batch: 2, ok: true },
    ]);
  });
});

/** How a started node ends: back in service, failed and still cordoned, or failed before its cordon. */
type Outcome = 'back' | 'failed-cordoned' | 'failed-uncordoned';

/**
 * The runner's loop over nextStep, with each node's outcome given and the order in which nodes in flight
 * end chosen by `pick`: what the window started and the most nodes out of service at once.
 */
function simulate(
  batches: readonly (readonly string[])[],
  outcomes: ReadonlyMap<string, Outcome>,
  keepGoing: boolean,
  pick: (inFlight: number) => number,
) {
  const width = Math.max(...batches.map((b) => b.length));
  const queue = queueOf(batches);
  const inFlight: string[] = [];
  const held = new Set<string>();
  let failed = false;
  let maxOut = 0;
  const startedAfterFailure: string[] = [];
  const end = () => {
    const [node] = inFlight.splice(pick(inFlight.length) % inFlight.length, 1);
    const outcome = outcomes.get(node!) ?? 'back';
    if (outcome !== 'back') failed = true;
    if (outcome === 'failed-cordoned') held.add(node!);
  };
  for (;;) {
    const step = nextStep({ width, queue, inFlight: inFlight.length, held, failed, keepGoing });
    if (step.kind === 'stop') {
      while (inFlight.length > 0) end();
      return { step, maxOut, startedAfterFailure, left: queue.map((q) => q.node), held, width };
    }
    if (step.kind === 'wait') {
      end();
      continue;
    }
    for (const node of step.nodes)
      queue.splice(
        queue.findIndex((q) => q.node === node),
        1,
      );
    if (failed) startedAfterFailure.push(...step.nodes);
    inFlight.push(...step.nodes);
    maxOut = Math.max(maxOut, inFlight.length + held.size);
    // Nodes in flight may end before the next decision, as a drain can end while the next group plans.
    if (pick(2) === 0 && inFlight.length > 0) end();
  }
}

describe('the window over a whole run (the runner loop over nextStep)', () => {
  const batches = [
    ['n1', 'n2'],
    ['n3', 'n4'],
    ['n5', 'n6'],
  ];

  it('--keep-going with one node failing cordoned: never more than the width out; the rest still run', () => {
    const r = simulate(batches, new Map([['n1', 'failed-cordoned']]), true, () => 0);
    expect(r.maxOut).toBe(2);
    expect(r.step).toEqual({ kind: 'stop', why: 'done' });
    expect(r.left).toEqual([]);
  });

  it('--keep-going with a failed node per slot: stops once they hold the window, the rest not started', () => {
    const outcomes = new Map<string, Outcome>([
      ['n1', 'failed-cordoned'],
      ['n3', 'failed-cordoned'],
    ]);
    const r = simulate(batches, outcomes, true, () => 0);
    expect(r.maxOut).toBe(2);
    expect(r.step).toEqual({ kind: 'stop', why: 'held' });
    expect([...r.held]).toEqual(['n1', 'n3']);
    expect(r.left.length).toBeGreaterThan(0);
  });

  it('without --keep-going a failure starts nothing more', () => {
    const r = simulate(batches, new Map([['n1', 'failed-cordoned']]), false, () => 0);
    expect(r.step).toEqual({ kind: 'stop', why: 'failed' });
    expect(r.startedAfterFailure).toEqual([]);
    expect(r.left).toEqual(['n3', 'n4', 'n5', 'n6']);
  });

  it('property: whatever fails and in whatever order nodes end, never more than the width out at once', () => {
    const node = fc.integer({ min: 1, max: 9 }).map((i) => `n${i}`);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }).chain((size) =>
          fc.record({
            sizes: fc.array(fc.integer({ min: 1, max: size }), { minLength: 1, maxLength: 5 }),
            failures: fc.dictionary(node, fc.constantFrom<Outcome>('back', 'failed-cordoned', 'failed-uncordoned')),
            keepGoing: fc.boolean(),
            picks: fc.array(fc.nat(), { minLength: 1 }),
          }),
        ),
        ({ sizes, failures, keepGoing, picks }) => {
          let n = 0;
          const batches = sizes.map((size) => Array.from({ length: size }, () => `n${++n}`));
          let p = 0;
          const r = simulate(
            batches,
            new Map(Object.entries(failures)),
            keepGoing,
            (k) => picks[p++ % picks.length]! % k,
          );
          expect(r.maxOut).toBeLessThanOrEqual(r.width);
          if (!keepGoing) expect(r.startedAfterFailure).toEqual([]);
          if (r.step.kind === 'stop' && r.step.why === 'held') expect(r.held.size).toBeGreaterThanOrEqual(r.width);
          if (r.step.kind === 'stop' && r.step.why === 'done') expect(r.left).toEqual([]);
        },
      ),
      { numRuns: 500 },
    );
  });
});

/** A promise and the function that resolves it. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Until the macrotask queue turns: every promise already resolved has run its reactions. */
const settle = () => new Promise<void>((r) => setImmediate(r));

/**
 * RunWindow over groups the test drives: each group is planned at once; each node's return is a gate the
 * test opens (or open from the start); after its nodes are back, the group reads its budgets (an I/O turn)
 * and either ends there or, when `short` names its batch, says it waits and ends when the test lets it.
 */
function drivenWindow(batches: readonly (readonly string[])[], options: { back?: Set<string>; short?: Set<number> }) {
  const events: RunEventBody[] = [];
  const phases = new Map<string, NodePhase>();
  const gates = new Map(batches.flat().map((n) => [n, deferred()]));
  for (const node of options.back ?? batches.flat()) gates.get(node)!.resolve();
  const budgets = new Map(batches.map((_, i) => [i + 1, deferred()]));
  const steps: WindowSteps = {
    runGroup: async (batch, nodes, hooks: GroupHooks) => {
      hooks.planned();
      await Promise.all(
        nodes.map(async (node) => {
          await gates.get(node)!.promise;
          phases.set(node, 'done');
          hooks.nodeDone(node);
        }),
      );
      await settle(); // the budgets' read
      if (options.short?.has(batch)) {
        hooks.finishing();
        await budgets.get(batch)!.promise;
      }
      return true;
    },
    phaseOf: (node) => phases.get(node) ?? 'pending',
    isCordoned: () => false,
    halted: () => false,
    stopping: () => false,
    emit: (event) => events.push(event),
    batchFinished: (batch, ok) => events.push({ type: 'batch-finished', batch, ok }),
    untilRetry: () => Promise.resolve(),
    now: () => 0,
  };
  const window = new RunWindow(batches, false, steps);
  return { run: window.run(false), events, gates, budgets };
}

/** The batch events in the order the run said them, as the log prints them. */
const said = (events: readonly RunEventBody[]) =>
  events.flatMap((e) =>
    e.type === 'batch-started' || e.type === 'batch-finished'
      ? new RunLines().lines({ ...e, atMs: 0 } as RunEvent).map((l) => l.text)
      : [],
  );

describe('RunWindow: the batch events come in an order a reader follows', () => {
  it("a batch whose end is known once its nodes are back is said done before the next batch's start", async () => {
    const { run, events } = drivenWindow([['n1'], ['n2'], ['n3']], {});
    await run;
    expect(said(events)).toEqual([
      'batch 1: n1',
      'batch 1 done',
      'batch 2: n2',
      'batch 2 done',
      'batch 3: n3',
      'batch 3 done',
    ]);
  });

  it('a batch whose budgets are still recovering lets the next start, which says so; its done follows', async () => {
    const { run, events, budgets } = drivenWindow([['n1'], ['n2']], { short: new Set([1]) });
    while (!events.some((e) => e.type === 'batch-started' && e.batch === 2)) await settle();
    budgets.get(1)!.resolve();
    await run;
    expect(said(events)).toEqual([
      'batch 1: n1',
      'batch 2: n2, while batch 1 finishes (its budgets recovering)',
      'batch 1 done',
      'batch 2 done',
    ]);
  });

  it("a slot freed while the batch's other node is under way starts the next batch, which names that node", async () => {
    const { run, events, gates } = drivenWindow(
      [
        ['n1', 'n2'],
        ['n3', 'n4'],
      ],
      { back: new Set(['n1', 'n3', 'n4']) },
    );
    while (!events.some((e) => e.type === 'batch-started' && e.batch === 2)) await settle();
    gates.get('n2')!.resolve();
    await run;
    expect(said(events)).toEqual([
      'batch 1: n1, n2',
      'batch 2: n3, n4, while batch 1 finishes (n2 not done yet)',
      'batch 1 done',
      'batch 2 done',
    ]);
  });
});
