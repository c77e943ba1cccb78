import { resolveCredentials, type KubeClient } from './client.js';
import { DEFAULT_CHUNK_SIZE } from './defaults.js';
import { KubeError, classifyKubeError } from './errors.js';
import {
  KindInformer,
  objectKey,
  type Freshness,
  type KubeObject,
  type ReadMethod,
  type Staleness,
} from './informer.js';
import { KIND_PATHS, resourceOf, type ListableKind } from './kinds.js';
import type { RunningWatch, WatchHandlers } from './list-watch.js';
import { stripUnusedFields } from './strip-fields.js';

type WatchErrorListener = NonNullable<WatchHandlers<unknown>['onError']>;

/** How far the read of one kind has got. */
export interface ListProgress {
  readonly kind: ListableKind;
  /** The plural resource, as kubectl names it ("pods"). */
  readonly resource: string;
  readonly read: number;
  /** The whole count when the server says it (a LIST's remainingItemCount, or once complete); null otherwise. */
  readonly total: number | null;
  readonly done: boolean;
  /** The read is tried again after `seconds`, and why: the API server throttled it (429), or it broke off. */
  readonly retry?: { readonly seconds: number; readonly reason: string } | undefined;
}

export interface CacheOptions {
  readonly kinds: readonly ListableKind[];
  /** Kinds whose failure aborts the read; any other kind that is forbidden becomes a warning, or not served `notServed`. */
  readonly required: readonly ListableKind[];
  /**
   * Objects per LIST page where a read is paged; 0 lists in one request. Unset: DEFAULT_CHUNK_SIZE, and a
   * consistent read from a server that answers it from its watch cache in one request.
   */
  readonly chunkSize?: number | undefined;
  /** Called as each kind is read, so a caller can show how far the read has got. */
  readonly onProgress?: ((progress: ListProgress) => void) | undefined;
  /**
   * The kinds kept current from watches after the first read: true, all (a run, which plans again and
   * again); false, none (a plan); a list, those only (a drain follows its pods and budgets, and reads the
   * rest once for its one plan).
   */
  readonly watch: boolean | readonly ListableKind[];
  readonly freshness: Freshness;
  /** Try the streaming list first (default); false: LIST then WATCH only. */
  readonly streaming?: boolean | undefined;
  /**
   * The server answers a consistent LIST from its watch cache (kube/server-version.ts): a consistent read
   * is then one LIST per kind, unless the caller asked for pages (`chunkSize` set).
   */
  readonly consistentListFromCache?: boolean | undefined;
  /** A collection path other than KIND_PATHS' for a kind: another version the server serves it in. */
  readonly paths?: Partial<Record<ListableKind, string>> | undefined;
}

/** How long a read of the cache waits for its broken watches to come back before it fails. */
export const STALE_WAIT_MS = 120_000;

/**
 * The cluster's objects, one informer per kind (kube/informer.ts): every kind read once, nodes first (a
 * cluster that is down, or credentials that are wrong, fail with one error rather than ten), the others
 * in parallel; then, with `watch`, kept current. A kind the user may not list (403) is left out with a
 * warning unless it is required; one the server does not serve (404) is listed in `notServed`.
 */
export class ClusterCache {
  private constructor(
    private readonly target: KubeClient['target'],
    private readonly informers: ReadonlyMap<ListableKind, KindInformer>,
    private readonly watchErrors: ReadonlyMap<ListableKind, Set<WatchErrorListener>>,
    readonly warnings: readonly string[],
    /** The kinds the server does not serve (their list answered 404): there are none of them. */
    readonly notServed: readonly ListableKind[],
  ) {}

  static async open(client: KubeClient, options: CacheOptions): Promise<ClusterCache> {
    await resolveCredentials(client.target);
    const informers = new Map<ListableKind, KindInformer>();
    const watchErrors = new Map(options.kinds.map((kind) => [kind, new Set<WatchErrorListener>()] as const));
    const warnings: string[] = [];
    const notServed: ListableKind[] = [];
    const readOne = async (kind: ListableKind) => {
      const resource = resourceOf(kind);
      const plural = resource.split('.')[0]!;
      let read = 0;
      let total: number | null = null;
      const report = (done: boolean, retry?: ListProgress['retry']) =>
        options.onProgress?.({ kind, resource: plural, read, total, done, retry });
      const informer = new KindInformer({
        target: client.target,
        path: options.paths?.[kind] ?? KIND_PATHS[kind],
        chunkSize: options.chunkSize ?? DEFAULT_CHUNK_SIZE,
        freshness: options.freshness,
        streaming: options.streaming !== false,
        consistentInOneList: options.consistentListFromCache === true && options.chunkSize === undefined,
        watch: options.watch === true || (options.watch !== false && options.watch.includes(kind)),
        transform: stripUnusedFields,
        dropManagedFields: true,
        onProgress: (count, all, done) => {
          read = count;
          total = all;
          report(done);
        },
        onRetry: ({ seconds, reason }) => report(false, { seconds, reason }),
        onWatchError: (err, retryInMs) => {
          for (const listener of watchErrors.get(kind) ?? []) listener(err, retryInMs);
        },
      });
      report(false);
      try {
        await informer.start();
        informers.set(kind, informer);
      } catch (err) {
        const error = classifyKubeError(err, client.target, { verb: 'list', resource });
        const optional = !options.required.includes(kind);
        if (!optional || (error.kind !== 'forbidden' && error.kind !== 'not-found')) throw error;
        // A collection the server does not serve (404) has no objects: a fact about the cluster.
        if (error.kind === 'not-found') notServed.push(kind);
        else warnings.push(`${error.message} (${kind} objects not loaded)`);
      }
    };
    try {
      const [first, ...rest] = options.kinds;
      if (first) await readOne(first);
      await Promise.all(rest.map(readOne));
    } catch (err) {
      for (const informer of informers.values()) informer.stop();
      throw err instanceof KubeError ? err : classifyKubeError(err, client.target);
    }
    const ordered = new Map(options.kinds.filter((k) => informers.has(k)).map((k) => [k, informers.get(k)!] as const));
    return new ClusterCache(client.target, ordered, watchErrors, warnings, notServed);
  }

  /** The cached object `namespace/name` (or `name`) of `kind`, as its watch last showed it. */
  get(kind: ListableKind, key: string): KubeObject | undefined {
    return this.informers.get(kind)?.get(key);
  }

  /** Whether `kind` was read (it is absent when it could not be, see warnings). */
  has(kind: ListableKind): boolean {
    return this.informers.has(kind);
  }

  /** Whether a watch keeps `kind` current: what `watch` hands over then follows the cluster. */
  follows(kind: ListableKind): boolean {
    return this.informers.get(kind)?.following === true;
  }

  /** The objects of one kind now (none when it could not be read). */
  objectsOf(kind: ListableKind): readonly object[] {
    return this.informers.get(kind)?.objects() ?? [];
  }

  /** The objects of every kind read, now; a kind that could not be read is absent. */
  objects(): ReadonlyMap<ListableKind, readonly object[]> {
    return new Map([...this.informers].map(([kind, informer]) => [kind, informer.objects()] as const));
  }

  /** Changes with every change of any kind: equal generations, equal objects. */
  generation(): number {
    let sum = 0;
    for (const informer of this.informers.values()) sum += informer.generation;
    return sum;
  }

  /** How each kind was last read in whole ('stream' or 'list'), and how many times. */
  reads(): ReadonlyMap<ListableKind, { readonly method: ReadMethod | undefined; readonly count: number }> {
    return new Map([...this.informers].map(([k, i]) => [k, { method: i.readMethod, count: i.reads }] as const));
  }

  /**
   * The kinds the server does not serve as a streaming list (kube/informer.ts `streamingFallback`): read
   * with a LIST instead, which a server before 1.34 answers from etcd rather than its watch cache.
   */
  streamingNotServed(): ListableKind[] {
    return [...this.informers].flatMap(([kind, i]) => (i.streamingFallback === 'not-served' ? [kind] : []));
  }

  /** The followed kinds whose watch is down (kube/informer.ts `stale`): what the cache may hold out of date. */
  stale(): Array<{ readonly kind: ListableKind } & Staleness> {
    return [...this.informers].flatMap(([kind, informer]) => {
      const stale = informer.stale;
      return stale ? [{ kind, ...stale }] : [];
    });
  }

  /**
   * Resolves once no followed kind is stale: at once while every watch is up, else when the watches are
   * open again (or relisted), within `timeoutMs`. Past it, one line naming the kinds, since when, and the
   * last failure: a plan is never made from what the cache held before an outage without saying so.
   */
  async current(timeoutMs = STALE_WAIT_MS): Promise<void> {
    if (this.stale().length === 0) return;
    const timer = new AbortController();
    const timeout = setTimeout(() => timer.abort(), timeoutMs);
    try {
      // A kind current again may break again before the others are (a relist whose watch meets a 410).
      while (!timer.signal.aborted && this.stale().length > 0) {
        for (const informer of this.informers.values()) await informer.whenCurrent(timer.signal);
      }
    } finally {
      clearTimeout(timeout);
    }
    const stale = this.stale();
    if (stale.length === 0) return;
    const oldest = Math.min(...stale.map((s) => s.sinceMs));
    const last = stale.reduce((a, b) => (b.sinceMs >= a.sinceMs ? b : a));
    const cause = classifyKubeError(last.error, this.target).message;
    const kinds = stale.map((s) => resourceOf(s.kind).split('.')[0]!).join(', ');
    throw new KubeError(
      'unreachable',
      `the cluster cache is stale: the watch of ${kinds} has been down for ${Math.round((Date.now() - oldest) / 1000)}s (${cause}), and nothing is planned from what it held before`,
      { cause: last.error },
    );
  }

  /** Reads again the kinds that cannot be watched (the user may list them but not watch them). */
  async refresh(): Promise<void> {
    await Promise.all([...this.informers.keys()].map((kind) => this.refreshKind(kind)));
  }

  /** Lists `kind` again when it cannot be watched; a failure names the kind, as the first read's does. */
  private async refreshKind(kind: ListableKind): Promise<void> {
    try {
      await this.informers.get(kind)?.refresh();
    } catch (err) {
      throw classifyKubeError(err, this.target, { verb: 'list', resource: resourceOf(kind) });
    }
  }

  /**
   * The objects of `kind` that `filter` accepts, as a watch hands them over: each one there now, then every
   * change (see `follows`), and the failures of the cache's watch of the kind, which it resumes. It reads
   * nothing from the API server: the cache's own watch feeds it.
   */
  watch<T>(kind: ListableKind, filter: (object: T) => boolean, handlers: WatchHandlers<T>): RunningWatch {
    const informer = this.informers.get(kind);
    if (!informer) return { ready: Promise.resolve(), stop: () => {} };
    for (const object of informer.objects()) if (filter(object as T)) handlers.onUpsert(object as T);
    const unsubscribe = informer.subscribe((event, object) => {
      if (!filter(object as T)) return;
      if (event === 'delete') handlers.onDelete(object as T);
      else handlers.onUpsert(object as T);
    });
    const errors = this.watchErrors.get(kind);
    const onError = handlers.onError;
    if (onError) errors?.add(onError);
    return {
      ready: Promise.resolve(),
      current: () => informer.following && informer.stale === null,
      stop: () => {
        unsubscribe();
        if (onError) errors?.delete(onError);
      },
    };
  }

  /**
   * The API server's answer to this process's own write of an object of `kind`, in the cache at once (kube/
   * informer.ts `own`): true when the cache now shows that write or a later one, false when it could not
   * take it (the caller waits for the watch with `waitFor`).
   */
  own(kind: ListableKind, object: KubeObject): boolean {
    return this.informers.get(kind)?.own(object) ?? false;
  }

  /**
   * Until the cached object `namespace/name` (or `name`) satisfies `test` (given undefined while absent), or
   * `timeoutMs` pass: true when it does (a kind no watch follows answers at once). A write of the plugin's
   * own that `own` could not take is seen by its next plan this way.
   */
  async waitFor(kind: ListableKind, key: string, test: (object: KubeObject | undefined) => boolean, timeoutMs: number) {
    const informer = this.informers.get(kind);
    if (!informer) return true;
    await this.refreshKind(kind);
    // A kind read once (or polled) has nothing more to show: what it holds now is the answer.
    const now = test(informer.get(key));
    if (now || !informer.following) return now;
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => finish(false), timeoutMs);
      const unsubscribe = informer.subscribe((_event, object) => {
        if (objectKey(object) === key && test(informer.get(key))) finish(true);
      });
      function finish(met: boolean) {
        clearTimeout(timer);
        unsubscribe();
        resolve(met);
      }
    });
  }

  stop(): void {
    for (const informer of this.informers.values()) informer.stop();
  }
}
