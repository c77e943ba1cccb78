import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { labDirFor } from './lab.js';

/**
 * The lab's kube-apiserver audit log (scripts/lab/components.sh: evictions, pod deletes, node patches, the
 * writes of the runs' Leases (in kubectl-maint, or kube-system), and every list and watch, at Metadata level, one JSON event per line):
 * what the API server itself saw the plugin do. A test marks the log before the drain and reads what was
 * logged after, so that earlier tests do not count.
 */

/** The fields of an audit.k8s.io/v1 Event the tests read. */
export interface AuditEvent {
  readonly stage: string;
  readonly verb: string;
  readonly requestURI: string;
  readonly userAgent?: string;
  readonly user?: { readonly username?: string };
  readonly objectRef?: {
    readonly resource?: string;
    readonly subresource?: string;
    readonly namespace?: string;
    readonly name?: string;
  };
  readonly responseStatus?: { readonly code?: number };
}

function auditLog(): string {
  return path.join(labDirFor(Number(process.env.VITEST_POOL_ID ?? 1)), 'audit.log');
}

/** The log's current end; `auditSince(mark)` reads what comes after. */
export async function auditMark(): Promise<number> {
  try {
    return (await stat(auditLog())).size;
  } catch {
    throw new Error(`the lab has no audit log at ${auditLog()}: restart it (npm run lab -- down, then up)`);
  }
}

/** Every event logged after `mark` (whole lines only: the API server may be writing the next one). */
export async function auditSince(mark: number): Promise<AuditEvent[]> {
  const text = (await readFile(auditLog())).subarray(mark).toString('utf8');
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as AuditEvent);
}

/** What `kubectl maint` wrote, as the API server logged it (its requests carry User-Agent kubectl-maint/…). */
export interface MaintWrites {
  /** Evictions the API server admitted for real (2xx, not a dry run), by namespace/name: how many each. */
  readonly evicted: Readonly<Record<string, number>>;
  /** Every other eviction request that was not a dry run: "namespace/name HTTP-code". */
  readonly otherEvictions: readonly string[];
  /**
   * Eviction requests sent as server dry runs (dryRun=All: the plan a drain shows first, or --dry-run=server):
   * "namespace/name HTTP-code". They evict nothing and spend no budget.
   */
  readonly dryRunEvictions: readonly string[];
  /** DELETEs of pods: a pod removed outside the Eviction API (only --disable-eviction may do that). */
  readonly deletes: readonly string[];
  /** Node patches (cordons): "node HTTP-code", with " dry-run" for a server dry run. */
  readonly nodePatches: readonly string[];
  /** Writes of Leases (a run's state): "verb name HTTP-code". */
  readonly leases: readonly string[];
}

/** What the audit log shows of a command that changed nothing: no write at all. */
export const NOTHING_WRITTEN: MaintWrites = {
  evicted: {},
  otherEvictions: [],
  dryRunEvictions: [],
  deletes: [],
  nodePatches: [],
  leases: [],
};

const isDryRun = (event: AuditEvent) => /[?&]dryRun=All/.test(event.requestURI);

/** The verbs that change what is stored (the audit policy also logs reads: list and watch). */
const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

export function maintWrites(events: readonly AuditEvent[]): MaintWrites {
  const evicted: Record<string, number> = {};
  const otherEvictions: string[] = [];
  const dryRunEvictions: string[] = [];
  const deletes: string[] = [];
  const nodePatches: string[] = [];
  const leases: string[] = [];
  for (const event of events) {
    if (event.stage !== 'ResponseComplete' || !event.userAgent?.startsWith('kubectl-maint/')) continue;
    const ref = event.objectRef ?? {};
    const code = event.responseStatus?.code ?? 0;
    const what = `${ref.namespace ? `${ref.namespace}/` : ''}${ref.name ?? ''}`;
    const answer = `${what} ${code}${isDryRun(event) ? ' dry-run' : ''}`;
    if (ref.resource === 'pods' && ref.subresource === 'eviction' && event.verb === 'create') {
      if (isDryRun(event)) dryRunEvictions.push(`${what} ${code}`);
      else if (code >= 200 && code < 300) evicted[what] = (evicted[what] ?? 0) + 1;
      else otherEvictions.push(answer);
    } else if (ref.resource === 'pods' && !ref.subresource && event.verb.startsWith('delete')) {
      deletes.push(answer);
    } else if (ref.resource === 'nodes' && (event.verb === 'patch' || event.verb === 'update')) {
      nodePatches.push(answer);
    } else if (ref.resource === 'leases' && WRITE_VERBS.has(event.verb)) {
      leases.push(`${event.verb} ${ref.name ?? ''} ${code}`);
    }
  }
  return { evicted, otherEvictions, dryRunEvictions, deletes, nodePatches, leases };
}

/** The plugin's writes since `mark`; with `user`, only that user's (another process, told apart by name). */
export async function maintWritesSince(mark: number, user?: string): Promise<MaintWrites> {
  const events = await auditSince(mark);
  return maintWrites(user === undefined ? events : events.filter((e) => e.user?.username === user));
}

/** Requests that persist nothing, though the API calls them create: what the user may do, who they are. */
const REVIEWS = new Set(['selfsubjectaccessreviews', 'selfsubjectrulesreviews', 'selfsubjectreviews', 'tokenreviews']);

/**
 * Every write `user` sent since `mark` ("verb resource[/subresource] namespace/name HTTP-code"), the access
 * reviews left out. The lab's audit policy logs every write of the ServiceAccounts of namespace maint-rbac.
 */
export async function writesBy(mark: number, user: string): Promise<string[]> {
  return (await auditSince(mark))
    .filter((e) => e.stage === 'ResponseComplete' && e.user?.username === user && WRITE_VERBS.has(e.verb))
    .filter((e) => !REVIEWS.has(e.objectRef?.resource ?? ''))
    .map((e) => {
      const ref = e.objectRef ?? {};
      const resource = `${ref.resource ?? ''}${ref.subresource ? `/${ref.subresource}` : ''}`;
      const what = `${ref.namespace ? `${ref.namespace}/` : ''}${ref.name ?? ''}`;
      return `${e.verb} ${resource} ${what} ${e.responseStatus?.code ?? 0}${isDryRun(e) ? ' dry-run' : ''}`;
    });
}

/** What `kubectl maint` read, as the API server logged it: its lists and watches, each request once. */
export interface MaintReads {
  /**
   * resource → its whole reads across the cluster ("verb requestURI"): a LIST, or a streaming list (a watch
   * with sendInitialEvents). A cache reads each kind so.
   */
  readonly whole: ReadonlyMap<string, readonly string[]>;
  /** resource → its watches across the cluster resumed from a resourceVersion: a cache following a kind it read. */
  readonly resumed: ReadonlyMap<string, readonly string[]>;
  /** Lists and watches of Leases (a run's state, in its namespace). */
  readonly leases: readonly string[];
  /** Every other list or watch: of one namespace, or with a field or label selector. */
  readonly other: readonly string[];
}

const isSelected = (uri: string) => /[?&](fieldSelector|labelSelector)=/.test(uri);

/**
 * Of `other` reads: a drain's LISTs of one node's pods, by node (made once the node is cordoned and once its
 * pods are gone, from the API server, drain/late-pods.ts), and the rest.
 */
export function nodePodLists(other: readonly string[]): { byNode: Map<string, number>; rest: string[] } {
  const byNode = new Map<string, number>();
  const rest: string[] = [];
  for (const read of other) {
    const node = /^list \/api\/v1\/pods\?fieldSelector=spec\.nodeName%3D([^&]+)$/.exec(read)?.[1];
    if (node) byNode.set(decodeURIComponent(node), (byNode.get(decodeURIComponent(node)) ?? 0) + 1);
    else rest.push(read);
  }
  return { byNode, rest };
}

/**
 * The plugin's reads in `events`. GETs are not among them (the lab's audit policy logs only those of
 * budgets and nodes, budgetGets and nodeGets): they read one object, right before a write that depends on it
 * (docs/reads.md).
 */
export function maintReads(events: readonly AuditEvent[]): MaintReads {
  const whole = new Map<string, string[]>();
  const resumed = new Map<string, string[]>();
  const leases: string[] = [];
  const other: string[] = [];
  for (const e of events) {
    if (!e.userAgent?.startsWith('kubectl-maint/')) continue;
    // One event per request: a LIST once answered, a watch once started (it may run for minutes).
    const once =
      (e.verb === 'list' && e.stage === 'ResponseComplete') || (e.verb === 'watch' && e.stage === 'ResponseStarted');
    if (!once) continue;
    const resource = e.objectRef?.resource ?? '';
    const read = `${e.verb} ${e.requestURI}`;
    if (resource === 'leases') leases.push(read);
    else if (e.objectRef?.namespace || isSelected(e.requestURI)) other.push(read);
    else if (e.verb === 'list' || /[?&]sendInitialEvents=true/.test(e.requestURI)) {
      whole.set(resource, [...(whole.get(resource) ?? []), read]);
    } else resumed.set(resource, [...(resumed.get(resource) ?? []), read]);
  }
  return { whole, resumed, leases, other };
}

/** The plugin's GETs of PodDisruptionBudgets in `events` ("namespace/name"), one per request: a run's budget wait. */
export function budgetGets(events: readonly AuditEvent[]): string[] {
  return events
    .filter((e) => e.userAgent?.startsWith('kubectl-maint/') && e.stage === 'ResponseComplete' && e.verb === 'get')
    .filter((e) => e.objectRef?.resource === 'poddisruptionbudgets')
    .map((e) => `${e.objectRef?.namespace ?? ''}/${e.objectRef?.name ?? ''}`);
}

/** The evictions the API server admitted for real since `mark`, in the order it logged them: "namespace/name". */
export async function evictionsInOrderSince(mark: number): Promise<string[]> {
  return (await auditSince(mark))
    .filter((e) => e.stage === 'ResponseComplete' && e.userAgent?.startsWith('kubectl-maint/'))
    .filter((e) => e.objectRef?.resource === 'pods' && e.objectRef.subresource === 'eviction' && e.verb === 'create')
    .filter((e) => (e.responseStatus?.code ?? 0) >= 200 && (e.responseStatus?.code ?? 0) < 300 && !isDryRun(e))
    .map((e) => `${e.objectRef?.namespace ?? ''}/${e.objectRef?.name ?? ''}`);
}

/** The plugin's answered requests on single nodes in `events` that `which` accepts, counted by node name. */
function countByNode(events: readonly AuditEvent[], which: (e: AuditEvent) => boolean): ReadonlyMap<string, number> {
  const counts = new Map<string, number>();
  for (const e of events) {
    if (!e.userAgent?.startsWith('kubectl-maint/') || e.stage !== 'ResponseComplete') continue;
    if (e.objectRef?.resource !== 'nodes' || !which(e)) continue;
    const name = e.objectRef.name ?? '';
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

/** The plugin's GETs of single nodes in `events`, by node name: what its watches did not answer. */
export function nodeGets(events: readonly AuditEvent[]): ReadonlyMap<string, number> {
  return countByNode(events, (e) => e.verb === 'get' && !e.objectRef?.subresource);
}

/**
 * The plugin's writes of single nodes in `events` that the API server refused with 409, by node name: each
 * is a write guarded by a resourceVersion that was no longer current, which the plugin answers with one GET.
 */
export function nodeConflicts(events: readonly AuditEvent[]): ReadonlyMap<string, number> {
  return countByNode(events, (e) => e.responseStatus?.code === 409);
}

/** The plugin's requests on node `name` in `events`, but its watches: "verb[/subresource] code", in order. */
export function nodeRequests(events: readonly AuditEvent[], name: string): string[] {
  return events
    .filter((e) => e.userAgent?.startsWith('kubectl-maint/') && e.stage === 'ResponseComplete')
    .filter((e) => e.objectRef?.resource === 'nodes' && e.objectRef.name === name && e.verb !== 'watch')
    .map(
      (e) =>
        `${e.verb}${e.objectRef?.subresource ? `/${e.objectRef.subresource}` : ''} ${e.responseStatus?.code ?? ''}`,
    );
}
