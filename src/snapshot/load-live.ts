import type { V1ValidatingAdmissionPolicy } from '@kubernetes/client-node';
import { resolveCredentials, type KubeClient } from '../kube/client.js';
import { ClusterCache } from '../kube/cluster-cache.js';
import { servedVersions } from '../kube/discovery.js';
import { KIND_PATHS } from '../kube/kinds.js';
import { readCluster, type ListProgress } from '../kube/reads.js';
import { readParams, readRequester } from '../kube/admission-reads.js';
import { readServerVersion, servesConsistentListsFromCache } from '../kube/server-version.js';
import { assembleSnapshot, type ObjectsByKind } from './assemble.js';
import { ClusterIndex } from './cluster-index.js';
import { DRA_API_VERSIONS, DRA_GROUP, toV1, type DraApiVersion } from './dra-versions.js';
import {
  DRA_KINDS,
  ON_DEMAND_KINDS,
  REQUIRED_KINDS,
  SNAPSHOT_KINDS,
  type DraKind,
  type Snapshot,
  type SnapshotKind,
} from './types.js';

/** How far the live read has got, per kind (re-exported so ui/ never imports kube/). */
export type { ListProgress } from '../kube/reads.js';

export interface LiveSnapshotOptions {
  /** Objects per list request (kubectl's --chunk-size); 0 = no paging. */
  readonly chunkSize?: number | undefined;
  /** After each page of each kind: how far the read has got (for a spinner; the read never waits on it). */
  readonly onProgress?: ((progress: ListProgress) => void) | undefined;
  /** Told once what the read could not do as asked and did otherwise (a note for the user, not a caveat). */
  readonly onNotice?: ((message: string) => void) | undefined;
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

/** What the server is, asked once before the read: its version, and the DRA version it serves. */
interface ServerFacts {
  readonly serverVersion: string | undefined;
  /** The version DRA is read through; null: the server serves none of DRA_API_VERSIONS. */
  readonly dra: DraApiVersion | null;
}

async function askServer(client: KubeClient): Promise<ServerFacts> {
  await resolveCredentials(client.target);
  const [serverVersion, served] = await Promise.all([
    readServerVersion(client.target),
    servedVersions(client.target, DRA_GROUP),
  ]);
  // Not known (discovery failed): v1, whose read says what it meets.
  const dra = served === undefined ? 'v1' : (DRA_API_VERSIONS.find((v) => served.includes(v)) ?? null);
  return { serverVersion, dra };
}

/** The kinds to read, the paths to read them at and how to read them consistently, given the server. */
function readPlan(kinds: readonly SnapshotKind[], facts: ServerFacts) {
  return {
    ...draKindsAndPaths(kinds, facts),
    consistentListFromCache: servesConsistentListsFromCache(facts.serverVersion),
  };
}

/** The kinds to read and the paths to read them at, given the DRA version the server serves. */
function draKindsAndPaths(kinds: readonly SnapshotKind[], facts: ServerFacts) {
  if (facts.dra === null) return { kinds: kinds.filter((k) => !isDra(k)), paths: {} };
  const version = facts.dra;
  if (version === 'v1') return { kinds, paths: {} };
  const paths = Object.fromEntries(
    DRA_KINDS.map((kind) => [kind, KIND_PATHS[kind].replace(`/${DRA_GROUP}/v1/`, `/${DRA_GROUP}/${version}/`)]),
  );
  return { kinds, paths };
}

const isDra = (kind: SnapshotKind): kind is DraKind => (DRA_KINDS as readonly SnapshotKind[]).includes(kind);

/**
 * The objects read, DRA's in v1's shape, and a kind the server does not serve (its list answered 404,
 * or DRA without a version the plan reads) loaded with no objects: there are none of it, which is a fact
 * about the cluster and not a kind the plan could not read.
 */
function snapshotObjects(
  objects: ReadonlyMap<SnapshotKind, readonly object[]>,
  notServed: readonly SnapshotKind[],
  facts: ServerFacts,
): ObjectsByKind {
  const out = new Map<SnapshotKind, readonly object[]>();
  for (const kind of SNAPSHOT_KINDS) {
    const read = objects.get(kind);
    if (read) {
      const version = facts.dra;
      out.set(
        kind,
        isDra(kind) && version && version !== 'v1' ? read.map((o) => toV1(kind, o as never, version)) : read,
      );
    } else if (notServed.includes(kind)) out.set(kind, []);
  }
  return out;
}

function notServedOf(kinds: readonly SnapshotKind[], read: readonly SnapshotKind[], facts: ServerFacts) {
  return [...read, ...(facts.dra === null ? kinds.filter(isDra) : [])];
}

/**
 * Reads the cluster into a Snapshot: nodes first, then every other kind in parallel. A kind the user may
 * not list (403) is left out with a warning, so the plan can say what it could not check; one the server
 * does not serve is read as having no objects; nodes and pods are required. DRA is read through the
 * version of resource.k8s.io the server serves (discovery), into v1's shape.
 */
export async function loadLiveSnapshot(client: KubeClient, options: LiveSnapshotOptions = {}): Promise<Snapshot> {
  const facts = await askServer(client);
  const kinds = kindsFor(options);
  const read = await readCluster(client, {
    ...readPlan(kinds, facts),
    required: REQUIRED_KINDS,
    chunkSize: options.chunkSize,
    onProgress: options.onProgress,
    freshness: options.freshness,
  });
  const notServed = notServedOf(kinds, read.notServed, facts);
  const { context, server } = client.target;
  const extras = await admissionExtras(client, read.objects);
  return assembleSnapshot(
    { type: 'live', context, server },
    snapshotObjects(read.objects, notServed, facts),
    read.warnings,
    { ...extras, serverVersion: facts.serverVersion, notServed },
  );
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

/** Said once when the server does not serve the streaming list (its WatchList feature off, as on 1.33). */
export const streamingNotServedNotice = (kinds: number, of: number) =>
  `the API server does not serve streaming lists (its WatchList feature is off): ${kinds === of ? 'every kind' : `${kinds} of ${of} kinds`} read with LIST requests instead`;

/** The cluster read once and kept current (kube/cluster-cache.ts), for commands that plan more than once. */
export interface LiveCluster {
  /**
   * A snapshot of the cluster now: the same one while nothing changed, a new immutable one after a change;
   * with `builtSince` (epoch ms), the last one too when it was made since then, changes after it
   * notwithstanding.
   */
  snapshot(builtSince?: number): Promise<Snapshot>;
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
  const facts = await askServer(client);
  const kinds = kindsFor(options);
  const cache = await ClusterCache.open(client, {
    ...readPlan(kinds, facts),
    required: REQUIRED_KINDS,
    chunkSize: options.chunkSize,
    onProgress: options.onProgress,
    watch: options.follow ?? true,
    freshness: 'consistent',
  });
  const notServed = notServedOf(kinds, cache.notServed, facts);
  const unstreamed = cache.streamingNotServed();
  if (unstreamed.length > 0) options.onNotice?.(streamingNotServedNotice(unstreamed.length, kinds.length));
  const { context, server } = client.target;
  // Read once: the caller does not change, and params seldom do during a drain.
  const extras = await admissionExtras(client, cache.objects());
  let last: { generation: number; builtAt: number; snapshot: Snapshot } | undefined;
  return {
    cache,
    async snapshot(builtSince) {
      await cache.refresh();
      // A watch that broke (the API server restarted, the network went) is reopened by the cache; the plan
      // waits for it rather than being made from what the cache held before.
      await cache.current();
      const generation = cache.generation();
      const recent = builtSince !== undefined && last !== undefined && last.builtAt >= builtSince;
      if (last === undefined || (last.generation !== generation && !recent)) {
        const snapshot = assembleSnapshot(
          { type: 'live', context, server },
          snapshotObjects(cache.objects(), notServed, facts),
          cache.warnings,
          { ...extras, serverVersion: facts.serverVersion, notServed },
        );
        // The cache keeps each object that did not change: the new snapshot's index derives from the last's.
        if (last) ClusterIndex.follows(snapshot, last.snapshot);
        last = { generation, builtAt: Date.now(), snapshot };
      }
      return last.snapshot;
    },
    stop: () => cache.stop(),
  };
}
