import { ListWatch, type KubernetesListObject, type KubernetesObject } from '@kubernetes/client-node';
import type { DrainClient } from './drain-client.js';

export interface WatchHandlers<T> {
  /** Added or changed (also once per object of each initial or repeated LIST). */
  readonly onUpsert: (obj: T) => void;
  readonly onDelete: (obj: T) => void;
  /** The watch failed and will be restarted after `retryInMs` (the objects seen so far stay valid). */
  readonly onError?: (err: unknown, retryInMs: number) => void;
}

export interface RunningWatch {
  /** Resolves once the first LIST has been delivered and the WATCH is connected (or has failed once). */
  readonly ready: Promise<void>;
  /**
   * Whether the watch follows the cluster now (open, not down since its last failure); absent where it
   * cannot say.
   */
  readonly current?: () => boolean;
  stop(): void;
}

const RESTART_DELAYS_MS = [500, 1000, 2000, 5000, 10000];

/**
 * LIST then WATCH a collection through client-node's ListWatch, which re-lists on 410 Gone, reconnects
 * after the watch's inactivity timeout and reports deletions missed while disconnected. What ListWatch
 * does not do, this adds: it restarts after any other error (apiserver restarting, network blip) with a
 * bounded backoff instead of stopping for good.
 */
export function listWatch<T extends KubernetesObject>(
  client: DrainClient,
  path: string,
  list: () => Promise<KubernetesListObject<T>>,
  fieldSelector: string | undefined,
  handlers: WatchHandlers<T>,
): RunningWatch {
  let stopped = false;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;
  const informer = new ListWatch<T>(path, client.watch, list, false, undefined, fieldSelector);
  informer.on('add', handlers.onUpsert);
  informer.on('update', (obj) => {
    failures = 0;
    handlers.onUpsert(obj);
  });
  informer.on('delete', handlers.onDelete);
  informer.on('error', (err: unknown) => {
    if (stopped) return;
    const delay = RESTART_DELAYS_MS[Math.min(failures, RESTART_DELAYS_MS.length - 1)]!;
    failures += 1;
    handlers.onError?.(err, delay);
    timer = setTimeout(() => {
      if (!stopped) void informer.start();
    }, delay);
    timer.unref();
  });
  return {
    // ListWatch checks for stop only before it lists: a stop during the first LIST would otherwise leave a
    // WATCH opened afterwards, holding the process open until its inactivity timeout.
    ready: informer.start().then(() => {
      if (stopped) void informer.stop();
    }),
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      void informer.stop();
    },
  };
}
