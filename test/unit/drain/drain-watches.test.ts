import { ApiException, type V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { DrainWatches, WATCH_READY_MS, watchFailureText, type WatchedState } from '../../../src/drain/drain-watches.js';
import type { DrainTarget } from '../../../src/drain/targets.js';
import type { WatchHandlers } from '../../../src/kube/list-watch.js';
import type { BudgetKey } from '../../../src/plan/budgets.js';
import { FakeClock, flush } from './fake-clock.js';

/** A watch API that records each watch started, lets the test say when its first LIST is in, and fail it. */
function watchApi() {
  const started: Array<{ what: string; handlers: WatchHandlers<never>; ready: () => void; stopped: boolean }> = [];
  const start = (what: string, handlers: WatchHandlers<never>) => {
    let ready = () => {};
    const entry = { what, handlers, ready: () => ready(), stopped: false };
    started.push(entry);
    return {
      ready: new Promise<void>((resolve) => (ready = resolve)),
      stop: () => (entry.stopped = true),
    };
  };
  return {
    started,
    api: {
      watchPodsOnNode: (node: string, handlers: WatchHandlers<V1Pod>) => start(`node ${node}`, handlers as never),
      watchPdbs: (namespace: string, handlers: WatchHandlers<never>) => start(`pdbs ${namespace}`, handlers),
    },
  };
}

const ignore = () => {};
const state = (seen: string[] = []): WatchedState => ({
  gone: {
    observe: (pod) => seen.push(`observe ${pod.metadata?.name}`),
    observeDeleted: (pod) => seen.push(`deleted ${pod.metadata?.name}`),
  },
  podSeen: (pod) => seen.push(`seen ${pod.metadata?.name}`),
  budgets: { observe: ignore, forget: ignore },
  statuses: { observe: ignore, forget: ignore },
  explainer: { observe: ignore, forget: ignore, showOtherBudgets: ignore },
});

describe('DrainWatches', () => {
  it('watches the pods of every node and the budgets of a namespace once, and stops them all', () => {
    const { api, started } = watchApi();
    const watches = new DrainWatches(api, state(), ignore);
    watches.watchNodes(['n1', 'n2']);
    watches.watchBudgets('shop');
    watches.watchBudgets('shop');
    watches.watchBudgets('batch');
    expect(started.map((w) => w.what)).toEqual(['node n1', 'node n2', 'pdbs shop', 'pdbs batch']);
    watches.stopAll();
    expect(started.every((w) => w.stopped)).toBe(true);
  });

  it('starts with the nodes’ pods and the namespaces of the plan’s budgets, each once', async () => {
    const { api, started } = watchApi();
    const watches = new DrainWatches(api, state(), ignore);
    const target = (namespace: string, pdbs: BudgetKey[]): DrainTarget => ({
      ref: { namespace, name: 'p', uid: 'u', node: 'n1' },
      method: 'evict',
      pdbs,
      ownGraceSeconds: 30,
    });
    const targets = [target('shop', ['shop/web']), target('shop', ['shop/web', 'shop/all']), target('batch', [])];
    const starting = watches.start(['n1'], targets, new FakeClock(), new AbortController().signal);
    expect(started.map((w) => w.what)).toEqual(['node n1', 'pdbs shop']);
    for (const watch of started) watch.ready();
    await starting;
  });

  it('a pod the node watch reports goes to the gone tracker, then to the drain; a deleted one to the tracker', () => {
    const { api, started } = watchApi();
    const seen: string[] = [];
    new DrainWatches(api, state(seen), ignore).watchNodes(['n1']);
    const pod = { metadata: { name: 'web-1' } } as never;
    started[0]?.handlers.onUpsert(pod);
    started[0]?.handlers.onDelete(pod);
    expect(seen).toEqual(['observe web-1', 'seen web-1', 'deleted web-1']);
  });

  it('a budget the watch reports goes to the waiter, the status judge and the explainer, by its own key', () => {
    const { api, started } = watchApi();
    const seen: string[] = [];
    const log =
      (what: string) =>
      (...args: unknown[]) =>
        seen.push([what, ...args.map((a) => (typeof a === 'string' ? a : 'pdb'))].join(' '));
    const watched: WatchedState = {
      ...state(),
      budgets: { observe: log('budgets.observe'), forget: log('budgets.forget') },
      statuses: { observe: log('statuses.observe'), forget: log('statuses.forget') },
      explainer: { observe: log('explainer.observe'), forget: log('explainer.forget'), showOtherBudgets: log('show') },
    };
    new DrainWatches(api, watched, ignore).watchBudgets('shop');
    const pdb = { metadata: { namespace: 'shop', name: 'web' } } as never;
    started[0]?.handlers.onUpsert(pdb);
    started[0]?.handlers.onDelete(pdb);
    expect(seen).toEqual([
      'explainer.observe pdb shop',
      'statuses.observe shop/web pdb',
      'budgets.observe pdb',
      'show shop',
      'explainer.forget pdb',
      'statuses.forget shop/web',
      'budgets.forget pdb',
      'show shop',
    ]);
  });

  it('a watch that keeps failing is said once, and each watch apart', () => {
    const { api, started } = watchApi();
    const said: string[] = [];
    const watches = new DrainWatches(api, state(), (what) => said.push(what));
    watches.watchNodes(['n1']);
    watches.watchBudgets('shop');
    const refused = new Error('connect ECONNREFUSED 127.0.0.1:6443');
    started[0]?.handlers.onError?.(refused, 500);
    started[1]?.handlers.onError?.(refused, 500);
    expect(said).toEqual(['watch pods on node n1', 'watch PodDisruptionBudgets in namespace shop']);
  });

  it('is ready as soon as every watch has its first LIST', async () => {
    const clock = new FakeClock();
    const { api, started } = watchApi();
    const watches = new DrainWatches(api, state(), ignore);
    watches.watchNodes(['n1']);
    watches.watchBudgets('shop');
    let ready = false;
    void watches.ready(clock, new AbortController().signal).then(() => (ready = true));
    started[0]?.ready();
    await flush();
    expect(ready).toBe(false);
    started[1]?.ready();
    await flush();
    expect(ready).toBe(true);
    expect(clock.pending()).toEqual([]);
  });

  it('evicts anyway after WATCH_READY_MS when a watch never lists, or at once when the drain stops', async () => {
    const clock = new FakeClock();
    const { api } = watchApi();
    const watches = new DrainWatches(api, state(), ignore);
    watches.watchNodes(['n1']);
    let ready = false;
    void watches.ready(clock, new AbortController().signal).then(() => (ready = true));
    await clock.advance(WATCH_READY_MS - 1);
    expect(ready).toBe(false);
    await clock.advance(1);
    expect(ready).toBe(true);

    const stop = new AbortController();
    let stopped = false;
    void watches.ready(clock, stop.signal).then(() => (stopped = true));
    stop.abort();
    await flush();
    expect(stopped).toBe(true);
  });
});

describe('watchFailureText', () => {
  it('names the watch, the API server’s reason and when it restarts', () => {
    const body = JSON.stringify({
      kind: 'Status',
      code: 403,
      message:
        'poddisruptionbudgets.policy is forbidden: User "ro" cannot watch resource "poddisruptionbudgets" in API group "policy" in the namespace "shop"',
    });
    expect(
      watchFailureText('PodDisruptionBudgets in namespace shop', new ApiException(403, 'Forbidden', body, {}), 2000),
    ).toBe(
      'watch of PodDisruptionBudgets in namespace shop failed (forbidden: user "ro" cannot watch poddisruptionbudgets.policy ' +
        'in namespace "shop"); retrying from 2s on, with slower polling meanwhile',
    );
  });
});
