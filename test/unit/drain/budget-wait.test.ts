import { describe, expect, it } from 'vitest';
import { BudgetWaiter, budgetNumbers, waitersToWake, type BudgetWakeup } from '../../../src/drain/budget-wait.js';
import type { BudgetNumbers } from '../../../src/drain/pod-machine.js';
import { makePdb } from '../builders.js';
import { FakeClock, flush } from './fake-clock.js';

const hello = (disruptionsAllowed: number, observedGeneration = 1) =>
  makePdb()
    .name('hello')
    .ns('demo')
    .maxUnavailable(1)
    .status({
      disruptionsAllowed,
      currentHealthy: 3 + disruptionsAllowed,
      desiredHealthy: 3,
      expectedPods: 4,
      observedGeneration,
    })
    .obj();

const numbers = (disruptionsAllowed: number, observed = true): BudgetNumbers => ({
  disruptionsAllowed,
  currentHealthy: 3,
  desiredHealthy: 3,
  observed,
});

describe('waitersToWake', () => {
  it.each([
    {
      name: 'A budget allowing one disruption wakes one of three waiting pods',
      numbers: numbers(1),
      waiting: 3,
      expected: 1,
    },
    {
      name: 'A budget allowing more than the waiting pods wakes them all',
      numbers: numbers(5),
      waiting: 2,
      expected: 2,
    },
    { name: 'A budget used up wakes nobody', numbers: numbers(0), waiting: 3, expected: 0 },
    {
      name: 'A budget whose status the disruption controller has not observed wakes nobody (it would answer 429)',
      numbers: numbers(2, false),
      waiting: 3,
      expected: 0,
    },
    { name: 'A deleted budget wakes every waiting pod', numbers: null, waiting: 3, expected: 3 },
  ])('$name', ({ numbers: n, waiting, expected }) => {
    expect(waitersToWake(n, waiting)).toBe(expected);
  });
});

describe('budgetNumbers', () => {
  it('reads the status, and whether observedGeneration has caught up with generation', () => {
    expect(budgetNumbers(hello(1))).toEqual({
      disruptionsAllowed: 1,
      currentHealthy: 4,
      desiredHealthy: 3,
      observed: true,
    });
    const stale = makePdb()
      .name('hello')
      .ns('demo')
      .generation(2)
      .status({ disruptionsAllowed: 1, currentHealthy: 4, desiredHealthy: 3, expectedPods: 4, observedGeneration: 1 })
      .obj();
    expect(budgetNumbers(stale).observed).toBe(false);
  });
});

describe('budgetNumbers of a budget the disruption controller cannot compute', () => {
  it('carries the SyncFailed message, which says why the budget will never allow an eviction', () => {
    const pdb = makePdb().name('odd').ns('demo').generation(1).obj();
    pdb.status = {
      disruptionsAllowed: 0,
      currentHealthy: 0,
      desiredHealthy: 0,
      expectedPods: 0,
      conditions: [
        {
          type: 'DisruptionAllowed',
          status: 'False',
          reason: 'SyncFailed',
          message: 'configmaps does not implement the scale subresource',
          lastTransitionTime: new Date(0),
        },
      ],
    };
    expect(budgetNumbers(pdb)).toEqual({
      disruptionsAllowed: 0,
      currentHealthy: 0,
      desiredHealthy: 0,
      observed: false,
      controllerError: 'configmaps does not implement the scale subresource',
    });
  });
});

describe('BudgetWaiter', () => {
  function setup() {
    const clock = new FakeClock();
    const waiter = new BudgetWaiter(clock);
    const stop = new AbortController();
    const results: string[] = [];
    const wait = (label: string, fallbackMs = 10_000) =>
      void waiter
        .wait('demo/hello', fallbackMs, stop.signal)
        .then((how: BudgetWakeup) => results.push(`${label}:${how}`));
    return { clock, waiter, stop, results, wait };
  }

  it('A status that allows one disruption wakes the first waiting pod at once, and only it', async () => {
    const { waiter, results, wait } = setup();
    waiter.observe(hello(0));
    wait('a');
    wait('b');
    await flush();
    waiter.observe(hello(1));
    await flush();
    expect(results).toEqual(['a:budget']);
    expect(waiter.waitingFor('demo/hello')).toBe(1);
  });

  it('Without any news from the watch a waiting pod asks again after its fallback delay', async () => {
    const { clock, results, wait } = setup();
    wait('a', 2000);
    await clock.advance(1999);
    expect(results).toEqual([]);
    await clock.advance(1);
    expect(results).toEqual(['a:timer']);
  });

  it('When the cache already allows a disruption the pod looks again soon, not after the full fallback', async () => {
    const { clock, waiter, results, wait } = setup();
    waiter.observe(hello(1));
    wait('a', 8000);
    await clock.advance(250);
    expect(results).toEqual(['a:timer']);
  });

  it('Stopping the drain ends every wait', async () => {
    const { stop, results, wait, waiter } = setup();
    wait('a');
    wait('b');
    stop.abort();
    await flush();
    expect(results).toEqual(['a:stopped', 'b:stopped']);
    expect(waiter.waitingFor('demo/hello')).toBe(0);
  });

  it('A deleted budget wakes every waiting pod', async () => {
    const { waiter, results, wait } = setup();
    waiter.observe(hello(0));
    wait('a');
    wait('b');
    await flush();
    waiter.forget(hello(0));
    await flush();
    expect(results).toEqual(['a:budget', 'b:budget']);
  });

  it('Listeners see every status, to refresh what waiting pods show', () => {
    const { waiter } = setup();
    const seen: Array<[string, number]> = [];
    waiter.onChange((key, n) => seen.push([key, n.currentHealthy]));
    waiter.observe(hello(0));
    waiter.observe(hello(1));
    expect(seen).toEqual([
      ['demo/hello', 3],
      ['demo/hello', 4],
    ]);
  });
});
