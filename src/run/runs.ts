import type { V1Lease, V1Node } from '@kubernetes/client-node';
import type { RunApi } from '../kube/run-api.js';
import { holderGone } from '../process-holder.js';
import { activeHolder, definitionOf, definitionOfNode, nodePhase, RUN_LABEL, runOfNode } from './state.js';

/**
 * How a run stands: alive (its holder renews its Lease), dead (its Lease not yet expired, but its holder
 * is a process of this host that no longer exists: killed), expired (the holder stopped renewing: gone,
 * or cut off), stopped (its Lease released: Ctrl-C, a failure, a pause), or no-lease (nodes still name
 * the run, its Lease is gone).
 */
export type RunStanding = 'alive' | 'dead' | 'expired' | 'stopped' | 'no-lease';

/** One run in the cluster, as `kubectl maint runs` lists it (-o json|yaml: this object; fields only added). */
export interface RunListing {
  readonly id: string;
  readonly state: RunStanding;
  /** The process holding the Lease, or that last held it when it expired; null when released or gone. */
  readonly holder: string | null;
  /** When the run started (its Lease was created); null without a Lease. */
  readonly started: string | null;
  /** The operator's command (argv); null when the Lease is gone or does not record it. */
  readonly command: readonly string[] | null;
  /**
   * The run's nodes by phase: the phase recorded on the node; `gone` for a node of the run no longer in
   * the cluster, `unclaimed` for one that no longer names the run.
   */
  readonly nodes: Readonly<Record<string, readonly string[]>>;
  /**
   * The one safe next command for a run no process drives: `--resume` (which waits out a lost Lease, and
   * asks before it runs a command again), or `--abandon` for a run whose Lease is lost and whose nodes do
   * not record it; null for a live run.
   */
  readonly next: string | null;
}

/**
 * Every run recorded in `namespace` (its Leases) or on the nodes (their claims), oldest first. `flags`:
 * what the next commands need besides the run (` --state-namespace NS`).
 */
export async function listRuns(api: RunApi, namespace: string, nowMs: number, flags = ''): Promise<RunListing[]> {
  const [leases, nodes] = await Promise.all([api.listLeases(namespace, RUN_LABEL), api.listNodes()]);
  const byName = new Map(nodes.map((n) => [n.metadata?.name ?? '', n]));
  const listed = leases.map((lease) => fromLease(lease, byName, nowMs, flags));
  const known = new Set(listed.map((r) => r.id));
  const orphans = new Map<string, string[]>();
  for (const node of nodes) {
    const run = runOfNode(node);
    if (run && !known.has(run)) orphans.set(run, [...(orphans.get(run) ?? []), node.metadata?.name ?? '']);
  }
  const withoutLease = [...orphans].map(([id, names]): RunListing => {
    // What the run is, as its nodes record it: resumable without its Lease.
    const definition = names.map((n) => definitionOfNode(byName.get(n)!)).find((d) => d !== null) ?? null;
    return {
      id,
      state: 'no-lease',
      holder: null,
      started: null,
      command: definition?.command ?? null,
      nodes: byPhase(id, definition ? definition.batches.flat() : names, byName, new Set(definition?.released ?? [])),
      next: `kubectl maint run ${definition ? '--resume' : '--abandon'} ${id}${flags}`,
    };
  });
  return [...listed.sort((a, b) => (a.started ?? '').localeCompare(b.started ?? '')), ...withoutLease];
}

function fromLease(lease: V1Lease, nodes: ReadonlyMap<string, V1Node>, nowMs: number, flags: string): RunListing {
  const id = lease.metadata?.labels?.[RUN_LABEL] ?? lease.metadata?.name ?? '';
  const holder = activeHolder(lease, nowMs);
  const last = lease.spec?.holderIdentity || null;
  const created = lease.metadata?.creationTimestamp;
  let definition: ReturnType<typeof definitionOf> | null = null;
  try {
    definition = definitionOf(lease);
  } catch {
    // Not readable as a run's definition: listed with what the nodes say.
  }
  const names = definition
    ? definition.batches.flat()
    : [...nodes.values()].filter((n) => runOfNode(n) === id).map((n) => n.metadata?.name ?? '');
  const state = holder ? (holderGone(holder) ? 'dead' : 'alive') : last ? 'expired' : 'stopped';
  return {
    id,
    state,
    holder: last,
    started: created ? new Date(created).toISOString() : null,
    command: definition?.command ?? null,
    nodes: byPhase(id, names, nodes, new Set(definition?.released ?? [])),
    next: state === 'alive' ? null : `kubectl maint run --resume ${id}${flags}`,
  };
}

function byPhase(
  run: string,
  names: readonly string[],
  nodes: ReadonlyMap<string, V1Node>,
  released: ReadonlySet<string>,
): Record<string, string[]> {
  const phases: Record<string, string[]> = {};
  for (const name of names) {
    const node = nodes.get(name);
    // A node the run released once done is done for it, whoever has it now.
    const phase = released.has(name)
      ? 'done'
      : !node
        ? 'gone'
        : runOfNode(node) !== run
          ? 'unclaimed'
          : (nodePhase(node) ?? 'pending');
    (phases[phase] ??= []).push(name);
  }
  return phases;
}
