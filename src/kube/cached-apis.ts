import type { V1LabelSelector, V1Node, V1Pod, V1PodDisruptionBudget } from '@kubernetes/client-node';
import type { ClusterCache } from './cluster-cache.js';
import type { RunningWatch } from './list-watch.js';
import type { DrainApi } from './drain-api.js';
import type { RunApi } from './run-api.js';
import { olderVersion } from './resource-version.js';

/**
 * The drain's and the run's ports fed by the cluster cache (kube/cluster-cache.ts) their plans were made
 * from: their watches of pods, budgets and nodes are the cache's own, so a drain or a run lists each kind
 * once however many nodes it drains. A kind the cache does not follow is asked of the API server directly.
 * Their writes go to the API server, and the node as each write answered goes into the cache at once
 * (kube/cluster-cache.ts `own`), so that the next plan, made from the cache, sees it without waiting for
 * the watch to bring it. Where the cache cannot take it, a cordon or an uncordon returns once the watch
 * has shown it (when the cache follows nodes: a run).
 */

/**
 * What a drain follows after its one plan: the pods it waits for and the budgets that hold them (its role
 * may watch these, kube/permissions.ts). The other kinds are read once.
 */
export const DRAIN_FOLLOWS = ['Pod', 'PodDisruptionBudget'] as const;

/** How long a write waits for the cache to show it; past it the plan goes on (the watch is late or down). */
const SEEN_WITHIN_MS = 10_000;

const cordoned = (node: { spec?: { unschedulable?: boolean } } | undefined) => node?.spec?.unschedulable === true;

/** Whether a LabelSelector selects these labels (snapshot/label-selector.ts, passed in: kube/ imports no layer above). */
export type SelectorMatch = (
  labels: Readonly<Record<string, string>> | undefined,
  selector: V1LabelSelector,
) => boolean;

export function cachedDrainApi(api: DrainApi, cache: ClusterCache, matches: SelectorMatch): DrainApi {
  return {
    ...api,
    // What holds a budget, asked every few seconds while a pod waits for it: the cached pods, not a LIST each time.
    listPods: async (namespace, selector) =>
      cache.follows('Pod')
        ? (cache.objectsOf('Pod') as readonly V1Pod[]).filter(
            (pod) => pod.metadata?.namespace === namespace && matches(pod.metadata.labels, selector),
          )
        : api.listPods(namespace, selector),
    async cordon(node, dryRun) {
      const result = await api.cordon(node, dryRun);
      if (dryRun || (result.written && cache.own('Node', result.written))) return result;
      await cache.waitFor('Node', node, (n) => cordoned(n as V1Node | undefined), SEEN_WITHIN_MS);
      return result;
    },
    watchPodsOnNode: (node, handlers) =>
      cache.follows('Pod')
        ? cache.watch<V1Pod>('Pod', (pod) => pod.spec?.nodeName === node, handlers)
        : api.watchPodsOnNode(node, handlers),
    watchPdbs: (namespace, handlers) =>
      cache.follows('PodDisruptionBudget')
        ? cache.watch<V1PodDisruptionBudget>(
            'PodDisruptionBudget',
            (pdb) => pdb.metadata?.namespace === namespace,
            handlers,
          )
        : api.watchPdbs(namespace, handlers),
  };
}

export function cachedRunApi(api: RunApi, cache: ClusterCache, now: () => number = Date.now): RunApi {
  const uncordoned = async (name: string) => {
    await cache.waitFor('Node', name, (n) => n !== undefined && !cordoned(n as V1Node), SEEN_WITHIN_MS);
  };
  const copies = cache.follows('Node') ? new NodeCopies(cache, now) : undefined;
  /** A node as a write of the run answered: the run's copy, and the cache; false when the cache could not take it. */
  const written = (node: V1Node) => {
    copies?.seen(node);
    return cache.own('Node', node);
  };
  return {
    ...api,
    // A batch's wait for its budgets reads them on every change its watch tells (watchChanges): from the
    // same watch's objects, not a GET each time; once its watch is back, should it have broken.
    async readPdb(namespace, name) {
      if (!cache.follows('PodDisruptionBudget')) return api.readPdb(namespace, name);
      await cache.current();
      return (cache.get('PodDisruptionBudget', `${namespace}/${name}`) as V1PodDisruptionBudget | undefined) ?? null;
    },
    // A node as the watch or the run's own last write showed it: each phase the run writes on a node is a
    // patch guarded by the resourceVersion of such a read, so a copy that turns out stale costs a 409 (the
    // node is then read from the API server), never a wrong write.
    async readNode(name) {
      const copy = copies?.fresh(name);
      if (copy) return copy;
      const read = await api.readNode(name);
      copies?.seen(read);
      return read;
    },
    async setNodeConditions(name, conditions) {
      const node = await api.setNodeConditions(name, conditions);
      written(node);
      return node;
    },
    async annotateNode(name, annotations, options) {
      await api.annotateNode(name, annotations, options);
      copies?.stale(name);
      if (options?.uncordon) await uncordoned(name);
    },
    async annotateNodeIfUnchanged(name, annotations, resourceVersion, options) {
      const node = await api.annotateNodeIfUnchanged(name, annotations, resourceVersion, options);
      if (!node) copies?.stale(name);
      else if (!written(node) && options?.uncordon) await uncordoned(name);
      return node;
    },
    watchChanges(onChange) {
      if (!cache.follows('Node') || !cache.follows('PodDisruptionBudget')) return api.watchChanges(onChange);
      const node = (n: V1Node) => onChange({ kind: 'node', name: n.metadata?.name ?? '' });
      const pdb = (b: V1PodDisruptionBudget) =>
        onChange({ kind: 'pdb', namespace: b.metadata?.namespace ?? '', name: b.metadata?.name ?? '' });
      const all = () => true;
      const watches = [
        cache.watch<V1Node>('Node', all, { onUpsert: node, onDelete: node }),
        cache.watch<V1PodDisruptionBudget>('PodDisruptionBudget', all, { onUpsert: pdb, onDelete: pdb }),
      ];
      return { stop: () => watches.forEach((w) => w.stop()) };
    },
  };
}

/**
 * While the cache's watch of nodes is down, a copy of a node is used this long after the watch or a read
 * last refreshed it; older, the node is read from the API server (a watch that broke off must not keep a
 * wait on an old copy for long). While the watch is up, the copy is as current as the watch.
 */
const COPY_FRESH_MS = 5000;

/** The latest copy of each node, from the cache's watch and the run's own reads and writes. */
class NodeCopies {
  private readonly nodes = new Map<string, { node: V1Node; at: number }>();
  private readonly watch: RunningWatch;

  constructor(
    cache: ClusterCache,
    private readonly now: () => number,
  ) {
    this.watch = cache.watch<V1Node>('Node', () => true, {
      onUpsert: (node) => this.seen(node),
      onDelete: (node) => this.stale(node.metadata?.name ?? ''),
    });
  }

  /** The node's copy if it is fresh; undefined to read it from the API server. */
  fresh(name: string): V1Node | undefined {
    const copy = this.nodes.get(name);
    if (!copy) return undefined;
    return this.watch.current?.() === true || this.now() - copy.at < COPY_FRESH_MS ? copy.node : undefined;
  }

  /**
   * A copy of the node: an answer to this process's own read or write, or the watch's (which may still be
   * catching up, as an answer to two writes at once may come in either order): one older than the copy
   * kept is dropped.
   */
  seen(node: V1Node): void {
    const name = node.metadata?.name ?? '';
    const known = this.nodes.get(name);
    if (known && olderThan(node, known.node)) return;
    this.nodes.set(name, { node, at: this.now() });
  }

  stale(name: string): void {
    this.nodes.delete(name);
  }
}

/**
 * Whether `a` is an older version of the node than `b` (kube/resource-version.ts): only to skip a copy; the
 * write guarded by it is what keeps a run's writes right.
 */
function olderThan(a: V1Node, b: V1Node): boolean {
  return olderVersion(a.metadata?.resourceVersion, b.metadata?.resourceVersion);
}
