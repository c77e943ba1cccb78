import type { V1LabelSelector, V1Node, V1Pod, V1PodDisruptionBudget } from '@kubernetes/client-node';
import type { ClusterCache } from './cluster-cache.js';
import type { DrainApi } from './drain-api.js';
import type { RunApi } from './run-api.js';

/**
 * The drain's and the run's ports fed by the cluster cache (kube/cluster-cache.ts) their plans were made
 * from: their watches of pods, budgets and nodes are the cache's own, so a drain or a run lists each kind
 * once however many nodes it drains. A kind the cache does not follow is asked of the API server directly.
 * Their writes go to the API server; a cordon or an uncordon returns once the cache has seen it (when it
 * follows nodes: a run), so that the next plan, made from the cache, sees it too.
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
      if (!dryRun) await cache.waitFor('Node', node, (n) => cordoned(n as V1Node | undefined), SEEN_WITHIN_MS);
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

export function cachedRunApi(api: RunApi, cache: ClusterCache): RunApi {
  const uncordoned = async (name: string) => {
    await cache.waitFor('Node', name, (n) => n !== undefined && !cordoned(n as V1Node), SEEN_WITHIN_MS);
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
    async annotateNode(name, annotations, options) {
      await api.annotateNode(name, annotations, options);
      if (options?.uncordon) await uncordoned(name);
    },
    async annotateNodeIfUnchanged(name, annotations, resourceVersion, options) {
      const done = await api.annotateNodeIfUnchanged(name, annotations, resourceVersion, options);
      if (done && options?.uncordon) await uncordoned(name);
      return done;
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
