import { setTimeout as sleep } from 'node:timers/promises';
import type { KubeTarget } from './config.js';
import { classifyKubeError } from './errors.js';
import { forEachLine, getRaw, type Query } from './raw-request.js';
import { readListItems } from '../json-list-stream.js';
import { ApiError } from './rest.js';
import { listAllPages, type PageRequest } from './list-pages.js';
import { brokenOff, brokenReadWait, readFailure, retryRead, type RetryWait } from './read-retry.js';
import { comparableVersions, olderVersion } from './resource-version.js';

/**
 * One kind of object, read once and kept current from a watch, as client-go's reflector and informer keep
 * theirs: the first read is a LIST (each item parsed as its bytes arrive, json-list-stream.ts) when it may
 * come from the API server's watch cache as it is, and the streaming list when it must be consistent (a
 * watch with sendInitialEvents, which the API server answers from its watch cache one object per line,
 * ending with a bookmark) or, where the server refuses that, a paged LIST; then a WATCH from the
 * resourceVersion that read ended at, resumed from the last one seen when it closes, with bookmarks keeping
 * that resourceVersion recent; a 410 Gone (the server no longer has the history to resume from) reads the
 * whole list again, consistent. A watch that fails after the first read is reopened with a back-off (a
 * 403 then too: an API server that just started answers 403 until its authorizer has read the RBAC
 * objects), and the kind says it is stale (`stale`) from the failure until a watch is open again or a
 * relist is complete, so that nothing is planned from what it held before an outage without saying so.
 * A watch the server ends at once is reopened after the same back-off, never in a tight loop.
 * A first read that breaks off
 * part-way is read again a few times (kube/read-retry.ts): the streaming list from the start, the LIST
 * from the page that broke; its objects count only once the read is whole. The objects are the API's JSON.
 */

export interface KubeObject {
  readonly metadata?: {
    readonly name?: string | undefined;
    readonly namespace?: string | undefined;
    readonly resourceVersion?: string | undefined;
    readonly annotations?: Readonly<Record<string, string>> | undefined;
  };
}

export type InformerEvent = 'upsert' | 'delete';
export type InformerListener = (event: InformerEvent, object: KubeObject) => void;

/**
 * How fresh the first read must be. 'cache': resourceVersion=0, whatever the API server's watch cache holds
 * (at most a moment behind etcd; no request to etcd at all). 'consistent': no resourceVersion, the state of
 * etcd now (a 1.31+ server still answers from its watch cache, once the cache has caught up with etcd).
 */
export type Freshness = 'cache' | 'consistent';

export interface InformerOptions {
  readonly target: KubeTarget;
  /** The collection's path: `/api/v1/pods`, `/apis/apps/v1/replicasets`. */
  readonly path: string;
  /** Objects per LIST page when the streaming list is not served; 0: one request. */
  readonly chunkSize: number;
  readonly freshness: Freshness;
  /** Try the streaming list first for a consistent read; false: LIST then WATCH only. */
  readonly streaming: boolean;
  /**
   * A consistent first read is one LIST, with no pages, before any streaming list: for a server that
   * answers it from its watch cache (kube/server-version.ts), which sends it faster than the same objects
   * as the streaming list's events. One that breaks off is read again as the streaming list.
   */
  readonly consistentInOneList?: boolean | undefined;
  /** Keep the objects current after the first read (false: read once and stop). */
  readonly watch: boolean;
  /** Applied to every object as it arrives (kube/reads.ts stripUnusedFields). */
  readonly transform: (object: KubeObject) => KubeObject;
  /**
   * A LIST's items lose metadata.managedFields before they are parsed (json-list-stream.ts), not after:
   * for a transform that drops them anyway, a third of a pod's bytes not parsed at all.
   */
  readonly dropManagedFields?: boolean | undefined;
  /** After each page or each thousand objects of a read: how many so far, and the total when the server says. */
  readonly onProgress?: ((read: number, total: number | null, done: boolean) => void) | undefined;
  /**
   * The first read, or a request of it, is tried again after `wait.seconds` (kube/read-retry.ts): the API
   * server throttled it (429), or it broke off part-way.
   */
  readonly onRetry?: ((wait: RetryWait) => void) | undefined;
  /** The watch failed after the first read and is resumed after `retryInMs` (the objects stay valid). */
  readonly onWatchError?: ((err: unknown, retryInMs: number) => void) | undefined;
}

/** How the last whole read of the kind was made. */
export type ReadMethod = 'stream' | 'list';

const INITIAL_EVENTS_END = 'k8s.io/initial-events-end';
/** Told when a LIST from the watch cache broke off (`why`: brokenOff's words) and the kind is read consistently instead. */
export const cacheListBrokeOff = (why: string) =>
  `the list from the watch cache broke off as ${why}: read again consistently`;
/** Told when a consistent LIST in one answer broke off (`why`: brokenOff's words) and the kind is read as the streaming list instead. */
export const oneListBrokeOff = (why: string) => `the list in one answer broke off as ${why}: read again as a stream`;
const PROGRESS_EVERY = 1000;
const RESTART_DELAYS_MS = [500, 1000, 2000, 5000, 10000];
/** A resumed watch answered and without an error for this long holds: the kind is current again. */
const OPEN_AFTER_MS = 500;
/** A watch that lived this long was healthy: the back-off starts again from its first delay. */
const HEALTHY_WATCH_MS = 10_000;

/** Since when a followed kind's watch has been down, and the last failure. */
export interface Staleness {
  readonly sinceMs: number;
  readonly error: unknown;
}

/** client-go's reflector: the server ends each watch after 5 to 10 minutes, so that watches spread over servers. */
function watchTimeoutSeconds(): string {
  return String(300 + Math.floor(Math.random() * 300));
}

export function objectKey(object: KubeObject): string {
  const meta = object.metadata;
  return meta?.namespace ? `${meta.namespace}/${meta.name ?? ''}` : (meta?.name ?? '');
}

interface WatchEvent {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  readonly object: KubeObject & { readonly code?: number };
}

/** The watch's own 410 (an ERROR event, or the answer to a resume from a compacted resourceVersion). */
function isExpired(err: unknown): boolean {
  return classifyKubeError(err, undefined).kind === 'expired';
}

export class KindInformer {
  private store = new Map<string, KubeObject>();
  /** The objects the store holds as this process's own write answered (`own`), by key: that write's resourceVersion. */
  private readonly ownWrites = new Map<string, string>();
  private resourceVersion = '';
  private readonly listeners = new Set<InformerListener>();
  private readonly stopping = new AbortController();
  private streamingRefused = false;
  /**
   * Why the consistent first read was a LIST rather than the streaming list: the server does not serve it
   * (422: its WatchList feature is off, as on 1.33; or it ignored the request), or it refused this user (403).
   */
  streamingFallback: 'not-served' | 'forbidden' | undefined;
  private cachedList: readonly KubeObject[] | null = null;
  /** Bumped at each change: what was built from the objects at one generation holds while it is unchanged. */
  generation = 0;
  /** How the last whole read was made; undefined before the first. */
  readMethod: ReadMethod | undefined;
  /** Whole reads so far: the first, and one per 410. */
  reads = 0;
  /** The watch was refused (403) from the start: `refresh` lists the kind again. */
  polling = false;
  /** A watch of the kind was open once: a later 403 is the server's passing state, not a lack of rights. */
  private watched = false;
  private staleness: Staleness | null = null;
  private readonly currentWaiters = new Set<() => void>();

  constructor(private readonly options: InformerOptions) {}

  /** Resolves once the first read is complete (its objects are in); rejects when it fails. */
  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      void this.run(resolve, reject);
    });
  }

  stop(): void {
    this.stopping.abort();
    this.markCurrent();
  }

  get stopped(): boolean {
    return this.stopping.signal.aborted;
  }

  /** Whether a watch keeps the objects current (not read once, not polled for want of watch rights, not stopped). */
  get following(): boolean {
    return this.options.watch && !this.polling && !this.stopped;
  }

  /** The objects now, as one frozen array shared until the next change. */
  objects(): readonly KubeObject[] {
    this.cachedList ??= Object.freeze([...this.store.values()]);
    return this.cachedList;
  }

  /**
   * Since when the watch has been down (the objects may miss changes), or null while it follows the kind
   * (or the kind is not followed: read once, or polled).
   */
  get stale(): Staleness | null {
    return this.following ? this.staleness : null;
  }

  /** Resolves once the kind is not stale (at once when it is not), or when `signal` aborts or it stops. */
  whenCurrent(signal?: AbortSignal): Promise<void> {
    if (this.stale === null || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.currentWaiters.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      this.currentWaiters.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  private markStale(error: unknown): void {
    this.staleness = { sinceMs: this.staleness?.sinceMs ?? Date.now(), error };
  }

  private markCurrent(): void {
    this.staleness = null;
    for (const waiter of [...this.currentWaiters]) waiter();
  }

  get(key: string): KubeObject | undefined {
    return this.store.get(key);
  }

  /**
   * The API server's answer to this process's own write of an object the store holds, kept at once: what
   * reads the objects next (a run's next plan) sees the write without waiting for the watch to bring it.
   * The watch's versions of the object older than it, still on their way, are passed over until the watch
   * has caught up with it. False, keeping nothing, when the kind is not followed, the store lacks the
   * object (it may have been deleted since), or the versions cannot be ordered (kube/resource-version.ts):
   * the caller waits for the watch then.
   */
  own(object: KubeObject): boolean {
    if (!this.following) return false;
    const item = this.options.transform(object);
    const key = objectKey(item);
    const version = item.metadata?.resourceVersion;
    const known = this.store.get(key)?.metadata?.resourceVersion;
    if (!comparableVersions(version, known)) return false;
    // The watch has brought this write, or a later one, already.
    if (!olderVersion(known, version)) return true;
    this.ownWrites.set(key, version!);
    this.put('upsert', item);
    return true;
  }

  /** Lists the kind again when it cannot be watched; nothing to do while the watch keeps it current. */
  async refresh(): Promise<void> {
    if (this.polling && !this.stopped) await this.list('consistent');
  }

  /** Calls `listener` on every change from now on; returns the unsubscription. */
  subscribe(listener: InformerListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async run(synced: () => void, failed: (err: unknown) => void): Promise<void> {
    const { signal } = this.stopping;
    let isSynced = false;
    let freshness = this.options.freshness;
    let needList = true;
    /** A consistent read is one LIST until one such LIST broke off (consistentInOneList). */
    let inOneList = this.options.consistentInOneList === true;
    let failures = 0;
    /** Streaming first reads that broke off part-way, each started over. */
    let brokenReads = 0;
    /** When the watch now open was answered; null before. */
    let openedAt: number | null = null;
    /** 410s with no watch in between that held: each relist's watch met one again. */
    let expiredInRow = 0;
    const opened = () => {
      openedAt = Date.now();
      expiredInRow = 0;
      this.watched = true;
      this.markCurrent();
    };
    const markSynced = () => {
      needList = false;
      failures = 0;
      this.markCurrent();
      if (!isSynced) {
        isSynced = true;
        synced();
      }
    };
    while (!signal.aborted) {
      try {
        // A read from the watch cache as it is ('cache') is a LIST at resourceVersion=0, which the API server
        // sends faster than the same objects as the streaming list's watch events. A read that must be
        // consistent is one LIST without a resourceVersion where the server answers that from its watch cache
        // once the cache has caught up with etcd (consistentInOneList), and the streaming list otherwise:
        // servers before 1.34 may read a LIST without a resourceVersion from etcd.
        if (needList && freshness === 'consistent' && inOneList) {
          await this.list(freshness, true);
          markSynced();
        }
        if (needList && freshness === 'consistent' && !this.streamingRefused && this.options.streaming) {
          try {
            await this.stream(freshness, true, markSynced);
          } catch (err) {
            // A server that does not serve the streaming list says so with an error answer (422 with the
            // WatchList feature off; 403 to a user who may list but not watch): a LIST serves instead.
            // A read that broke off (a closed connection, a 5xx) is not such an answer, and the LIST would
            // meet it too.
            if (!needList || !(err instanceof ApiError) || err.code === 410 || brokenOff(err) !== null) throw err;
            this.streamingFallback = err.code === 403 ? 'forbidden' : 'not-served';
          }
          // Ended without the bookmark that closes the initial events: a server that ignored the request.
          if (needList) {
            this.streamingRefused = true;
            this.streamingFallback ??= 'not-served';
          }
        }
        if (needList) {
          await this.list(freshness);
          markSynced();
        }
        if (!this.options.watch || signal.aborted) return;
        openedAt = null;
        await this.stream(freshness, false, markSynced, opened);
        // Ended by the server: at its timeout, reopened at once; a watch that ends as soon as it opens (a
        // server shutting down), or never opened, is reopened after the back-off.
        if (openedAt !== null && Date.now() - openedAt >= HEALTHY_WATCH_MS) {
          failures = 0;
          continue;
        }
        const delay = RESTART_DELAYS_MS[Math.min(failures, RESTART_DELAYS_MS.length - 1)]!;
        failures += 1;
        await sleep(delay, undefined, { signal }).catch(() => undefined);
      } catch (err) {
        if (signal.aborted) return;
        if (!isSynced) {
          const oneAnswer = freshness === 'cache' || inOneList;
          const reason = oneAnswer ? brokenOff(err) : null;
          if (reason !== null) {
            // A LIST from the watch cache comes as one answer however many objects it holds, and the API
            // server's request timeout (a minute by default) cuts one too long to send in time the same way
            // on every try: it is read again as a consistent read is, a watch (the streaming list) or pages,
            // each within that timeout. It counts as a try of the read, made at once.
            // A consistent LIST in one answer that broke off goes the same way, as the streaming list.
            const told = freshness === 'cache' ? cacheListBrokeOff(reason) : oneListBrokeOff(reason);
            freshness = 'consistent';
            inOneList = false;
            brokenReads += 1;
            this.options.onRetry?.({ seconds: 0, reason: told, retry: brokenReads });
            continue;
          }
          // The first read broke off part-way: read again from the start (a streaming list has no place to
          // resume from; a LIST's pages were already tried again, from their continue tokens).
          const wait = brokenReadWait(err, brokenReads);
          if (wait === null) {
            this.stop();
            failed(readFailure(err, brokenReads));
            return;
          }
          brokenReads += 1;
          this.options.onRetry?.(wait);
          await sleep(wait.seconds * 1000, undefined, { signal }).catch(() => undefined);
          continue;
        }
        // A relist in one LIST that broke off is made as the streaming list, after the back-off below.
        if (needList && inOneList && brokenOff(err) !== null) inOneList = false;
        if (classifyKubeError(err, undefined).kind === 'forbidden' && !this.watched) {
          // May list but not watch: the objects are read again whenever they are asked for (refresh).
          this.polling = true;
          this.markCurrent();
          return;
        }
        this.markStale(err);
        if (isExpired(err)) {
          // The history to resume from is gone: read the whole list again, at the state of etcd now; at
          // once the first time, after the back-off when the relist's own watch met a 410 again.
          needList = true;
          freshness = 'consistent';
          if (expiredInRow > 0) {
            const delay = RESTART_DELAYS_MS[Math.min(expiredInRow - 1, RESTART_DELAYS_MS.length - 1)]!;
            this.options.onWatchError?.(err, delay);
            await sleep(delay, undefined, { signal }).catch(() => undefined);
          }
          expiredInRow += 1;
          continue;
        }
        expiredInRow = 0;
        if (openedAt !== null && Date.now() - openedAt >= HEALTHY_WATCH_MS) failures = 0;
        openedAt = null;
        const delay = RESTART_DELAYS_MS[Math.min(failures, RESTART_DELAYS_MS.length - 1)]!;
        failures += 1;
        this.options.onWatchError?.(err, delay);
        await sleep(delay, undefined, { signal }).catch(() => undefined);
      }
    }
  }

  /**
   * One watch request, read to its end. `initial`: the streaming list (sendInitialEvents), whose objects
   * replace the store once the server marks them complete; otherwise resumed from the last resourceVersion.
   */
  private async stream(
    freshness: Freshness,
    initial: boolean,
    synced: () => void,
    opened: () => void = () => {},
  ): Promise<void> {
    const { signal } = this.stopping;
    const request = new AbortController();
    const abort = () => request.abort();
    signal.addEventListener('abort', abort, { once: true });
    const query: Query = initial
      ? {
          watch: '1',
          sendInitialEvents: 'true',
          resourceVersionMatch: 'NotOlderThan',
          resourceVersion: freshness === 'cache' ? '0' : undefined,
          allowWatchBookmarks: 'true',
          timeoutSeconds: watchTimeoutSeconds(),
        }
      : {
          watch: '1',
          resourceVersion: this.resourceVersion,
          allowWatchBookmarks: 'true',
          timeoutSeconds: watchTimeoutSeconds(),
        };
    try {
      const response = await this.retried(false, () =>
        getRaw(this.options.target, this.options.path, query, { timeout: false, signal: request.signal }),
      );
      // Resumed from the last resourceVersion: the server sends every change since, so the objects are
      // current again once it is seen to hold, with an event or for a moment without an error (a server
      // that no longer has that resourceVersion answers 200, then an ERROR event at once).
      let open = initial;
      const isOpen = () => {
        if (open) return;
        open = true;
        clearTimeout(holding);
        opened();
      };
      const holding = initial ? undefined : setTimeout(isOpen, OPEN_AFTER_MS);
      request.signal.addEventListener('abort', () => clearTimeout(holding), { once: true });
      let fresh: Map<string, KubeObject> | null = initial ? new Map() : null;
      const onEvent = (event: WatchEvent) => {
        const object = event.object;
        if (event.type === 'ERROR') {
          clearTimeout(holding);
          throw new ApiError(object.code ?? 500, JSON.stringify(object), {});
        }
        isOpen();
        const version = object.metadata?.resourceVersion;
        if (event.type === 'BOOKMARK') {
          if (version) this.resourceVersion = version;
          if (fresh && object.metadata?.annotations?.[INITIAL_EVENTS_END] === 'true') {
            this.replace(fresh, 'stream');
            fresh = null;
            this.options.onProgress?.(this.store.size, this.store.size, true);
            synced();
            if (!this.options.watch) request.abort();
          }
          return;
        }
        const item = this.options.transform(object);
        if (fresh) {
          fresh.set(objectKey(item), item);
          if (fresh.size % PROGRESS_EVERY === 0) this.options.onProgress?.(fresh.size, null, false);
          return;
        }
        if (version) this.resourceVersion = version;
        this.apply(event.type === 'DELETED' ? 'delete' : 'upsert', item);
      };
      if (!response.body) return;
      await forEachLine(response.body, (line) => onEvent(JSON.parse(line) as WatchEvent)).catch((err: unknown) => {
        if (!request.signal.aborted) throw err;
      });
    } finally {
      signal.removeEventListener('abort', abort);
      request.abort();
    }
  }

  /**
   * The whole list, page by page (kube/list-pages.ts), replacing the store once complete. `inOne`: in one
   * request whatever the chunk size, not sent again when it breaks off (the caller reads the kind otherwise).
   */
  private async list(freshness: Freshness, inOne = false): Promise<void> {
    let listVersion = '';
    /** Items of the pages before this one, for the progress told within a page. */
    let readBefore = 0;
    const fresh = new Map<string, KubeObject>();
    const fetchPage = async (page: PageRequest) => {
      const query: Query = {
        limit: page.limit === undefined ? undefined : String(page.limit),
        continue: page._continue,
        // A continued page carries the first page's resourceVersion in its token; a relist after an expired
        // token asks for the state of etcd now.
        ...(page._continue || page.restart || freshness === 'consistent'
          ? {}
          : { resourceVersion: '0', resourceVersionMatch: 'NotOlderThan' }),
      };
      // The page and its body: a page that breaks off part-way is asked for again with the same token. A
      // LIST from the watch cache, one answer, is not: the read goes on consistently (run).
      const list = await this.retried(freshness !== 'cache' && !inOne, async () => {
        const response = await getRaw(this.options.target, this.options.path, query, {
          timeout: true,
          signal: this.stopping.signal,
        });
        if (!response.body) throw new SyntaxError('Unexpected end of JSON input');
        // Each item parsed and stripped as its bytes arrive (json-list-stream.ts), not the whole answer at once.
        const items: KubeObject[] = [];
        const list = (await readListItems(
          response.body,
          (item) => {
            items.push(this.options.transform(item as KubeObject));
            if (items.length % PROGRESS_EVERY === 0) this.options.onProgress?.(readBefore + items.length, null, false);
          },
          { dropManagedFields: this.options.dropManagedFields === true },
        )) as { metadata?: { resourceVersion?: string; continue?: string; remainingItemCount?: number } };
        return { ...list, items };
      });
      listVersion = list.metadata?.resourceVersion ?? listVersion;
      readBefore += list.items.length;
      return {
        items: list.items ?? [],
        metadata: { _continue: list.metadata?.continue, remainingItemCount: list.metadata?.remainingItemCount },
      };
    };
    const items = await listAllPages(fetchPage, inOne ? 0 : this.options.chunkSize, undefined, (read, remaining) =>
      this.options.onProgress?.(read, remaining === undefined ? null : read + remaining, false),
    );
    for (const item of items) fresh.set(objectKey(item), item);
    this.resourceVersion = listVersion;
    this.replace(fresh, 'list');
    this.options.onProgress?.(this.store.size, this.store.size, true);
  }

  /**
   * A whole read's objects in place of the store's, with the changes told as the watch would tell them; an
   * own write (`own`) newer than the read's version of its object stays.
   */
  private replace(fresh: Map<string, KubeObject>, method: ReadMethod): void {
    const old = this.store;
    for (const [key, version] of this.ownWrites) {
      const own = old.get(key);
      if (own && olderVersion(fresh.get(key)?.metadata?.resourceVersion, version)) fresh.set(key, own);
      else this.ownWrites.delete(key);
    }
    this.store = fresh;
    this.readMethod = method;
    this.reads += 1;
    this.generation += 1;
    this.cachedList = null;
    if (this.listeners.size === 0) return;
    for (const [key, object] of old) if (!fresh.has(key)) this.tell('delete', object);
    for (const [key, object] of fresh) {
      if (old.get(key)?.metadata?.resourceVersion !== object.metadata?.resourceVersion) this.tell('upsert', object);
    }
  }

  /** A change the watch tells. */
  private apply(event: InformerEvent, object: KubeObject): void {
    if (!this.behindOwnWrite(event, object)) this.put(event, object);
  }

  /**
   * Whether the watch's change of an object is this process's own write the store holds already (`own`), or
   * older than it: passed over. Once the watch reaches that write, it is the object's source again.
   */
  private behindOwnWrite(event: InformerEvent, object: KubeObject): boolean {
    const key = objectKey(object);
    const own = this.ownWrites.get(key);
    if (own === undefined) return false;
    const version = object.metadata?.resourceVersion;
    if (event === 'upsert' && olderVersion(version, own)) return true;
    this.ownWrites.delete(key);
    return event === 'upsert' && version === own;
  }

  private put(event: InformerEvent, object: KubeObject): void {
    const key = objectKey(object);
    if (event === 'delete') this.store.delete(key);
    else this.store.set(key, object);
    this.generation += 1;
    this.cachedList = null;
    this.tell(event, object);
  }

  private tell(event: InformerEvent, object: KubeObject): void {
    for (const listener of this.listeners) listener(event, object);
  }

  /** `request` sent again after a 429, and with `broken` after it broke off part-way (kube/read-retry.ts). */
  private retried<T>(broken: boolean, request: () => Promise<T>): Promise<T> {
    return retryRead(request, {
      brokenOff: broken,
      signal: this.stopping.signal,
      sleep: (ms, signal) => sleep(ms, undefined, { signal }).catch(() => undefined),
      onRetry: (wait) => this.options.onRetry?.(wait),
    });
  }
}
