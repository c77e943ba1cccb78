import type { V1ValidatingAdmissionPolicy } from '@kubernetes/client-node';
import type { KubeClient } from '../kube/client.js';
import { ClusterCache } from '../kube/cluster-cache.js';
import { readCluster, type ListProgress } from '../kube/reads.js';
import { readParams, readRequester } from '../kube/admission-reads.js';
import { readServerVersion } from '../kube/server-version.js';
import { assembleSnapshot } from './assemble.js';
import { ON_DEMAND_KINDS, REQUIRED_KINDS, SNAPSHOT_KINDS, type Snapshot, type SnapshotKind } from './types.js';

/** How far the live read has got, per kind (re-exported so ui/ never imports kube/). */
export type { ListProgress } from '../kube/reads.js';

export interface LiveSnapshotOptions {
  /** Objects per list request (kubectl's --chunk-size); 0 = no paging. */
  readonly chunkSize?: number | undefined;
  /** After each page of each kind: how far the read has got (for a spinner; the read never waits on it). */
  readonly onProgress?: ((progress: ListProgress) => void) | undefined;
  /** --surge was given (any value): HorizontalPodAutoscalers are read too. */
  readonly surge?: unknown;
  /** 'consistent' for a command that writes on the strength of the read (docs/reads.md); 'cache' by default. */
  readonly freshness?: 'cache' | 'consistent' | undefined;
  /** openLiveCluster: the kinds kept current after the first read (all by default: a run plans again and again). */
  readonly follow?: readonly SnapshotKind[] | undefined;
}

function kindsFor(options: LiveSnapshotOptions) {
  return options.surge ? SNAPSHOT_KINDS : SNAPSHOT_KINDS.filter((k) => !ON_DEMAND_KINDS.includes(k));
}

/**
 * Reads the cluster into a Snapshot: nodes first, then every other kind in parallel. A kind the user may
 * not list (403) or the server does not serve (404) is left out with a warning, so the plan can say what
 * it could not check; nodes and pods are required.
 */
export async function loadLiveSnapshot(client: KubeClient, options: LiveSnapshotOptions = {}): Promise<Snapshot> {
  const read = await readCluster(client, {
    kinds: kindsFor(options),
    required: REQUIRED_KINDS,
    chunkSize: options.chunkSize,
    onProgress: options.onProgress,
    freshness: options.freshness,
  });
  const serverVersion = await readServerVersion(client.target);
  const { context, server } = client.target;
  const extras = await admissionExtras(client, read.objects);
  return assembleSnapshot({ type: 'live', context, server }, read.objects, read.warnings, {
    ...extras,
    serverVersion,
  });
}

/**
 * What admission knows besides the objects (kube/admission-reads.ts): the caller, and the params of the
 * ValidatingAdmissionPolicies that name some, read once the policies are. Nothing is read without a policy.
 */
async function admissionExtras(
  client: KubeClient,
  objects: ReadonlyMap<SnapshotKind, readonly object[]>,
): Promise<Pick<Snapshot, 'admissionParams' | 'requester'>> {
  const policies = (objects.get('ValidatingAdmissionPolicy') ?? []) as readonly V1ValidatingAdmissionPolicy[];
  if (policies.length === 0) return {};
  const kinds = new Map<string, { apiVersion: string; kind: string }>();
  for (const p of policies) {
    const k = p.spec?.paramKind;
    if (k?.apiVersion && k.kind) kinds.set(`${k.apiVersion}/${k.kind}`, { apiVersion: k.apiVersion, kind: k.kind });
  }
  const [requester, admissionParams] = await Promise.all([
    readRequester(client.target),
    readParams(client.target, [...kinds.values()]),
  ]);
  return { admissionParams, ...(requester ? { requester } : {}) };
}

/** The cluster read once and kept current (kube/cluster-cache.ts), for commands that plan more than once. */
export interface LiveCluster {
  /** A snapshot of the cluster now: the same one while nothing changed, a new immutable one after a change. */
  snapshot(): Promise<Snapshot>;
  /** What keeps it current, for the watches of the drain and the run (they read nothing more). */
  readonly cache: ClusterCache;
  stop(): void;
}

/**
 * Reads every kind the plan needs once, at the state of etcd now (a run and a drain write on the strength
 * of their plans), then keeps it current from watches (`follow`'s kinds, or all): a fresh plan costs no
 * request, and the drain's and the run's watches are the cache's (kube/cached-apis.ts).
 */
export async function openLiveCluster(client: KubeClient, options: LiveSnapshotOptions = {}): Promise<LiveCluster> {
  const cache = await ClusterCache.open(client, {
    kinds: kindsFor(options),
    required: REQUIRED_KINDS,
    chunkSize: options.chunkSize,
    onProgress: options.onProgress,
    watch: options.follow ?? true,
    freshness: 'consistent',
  });
  const serverVersion = await readServerVersion(client.target);
  const { context, server } = client.target;
  // Read once: the caller does not change, and params seldom do during a drain.
  const extras = await admissionExtras(client, cache.objects());
  let last: { generation: number; snapshot: Snapshot } | undefined;
  return {
    cache,
    async snapshot() {
      await cache.refresh();
      // A watch that broke (the API server restarted, the network went) is reopened by the cache; the plan
      // waits for it rather than being made from what the cache held before.
      await cache.current();
      const generation = cache.generation();
      if (last?.generation !== generation) {
        last = {
          generation,
          snapshot: assembleSnapshot({ type: 'live', context, server }, cache.objects(), cache.warnings, {
            ...extras,
            serverVersion,
          }),
        };
      }
      return last.snapshot;
    },
    stop: () => cache.stop(),
  };
}
