import type { V1Node } from '@kubernetes/client-node';
import type { RunApi } from '../kube/run-api.js';
import { RunRefused } from './claim.js';
import { listRuns, type RunListing } from './runs.js';
import { ANNOTATION, leaseName, nodePhase, phaseHistory, runOfNode, type PhaseStep } from './state.js';

/** One node of a run: the phases it went through, as the run recorded them on the node. */
export interface NodeTimeline {
  readonly node: string;
  /** 1-based; null for a node that names the run but is in none of its batches (its Lease is gone). */
  readonly batch: number | null;
  /** Its phase now; `gone` when the node is no longer in the cluster, `unclaimed` when it no longer names the run. */
  readonly phase: string;
  /** Oldest first; empty when the node is gone or unclaimed (its annotations went with the claim). */
  readonly steps: readonly PhaseStep[];
}

/** `kubectl maint runs show ID` (-o json|yaml: this object; fields may be added, never renamed or removed). */
export interface RunTimeline extends Omit<RunListing, 'nodes'> {
  readonly kind: 'RunTimeline';
  readonly apiVersion: 'maint.kubectl.io/v1alpha1';
  /** When the cluster was read (ISO): where a timeline of a live run ends. */
  readonly readAt: string;
  readonly nodes: readonly NodeTimeline[];
}

/**
 * The timeline of run `runId` from its state in the cluster: its Lease (batches, holder) and each node's
 * phase history. A run that finished has none left (its Lease and annotations are removed at the end).
 */
export async function readRunTimeline(
  api: RunApi,
  namespace: string,
  runId: string,
  nowMs: number,
): Promise<RunTimeline> {
  const [runs, nodes, lease] = await Promise.all([
    listRuns(api, namespace, nowMs),
    api.listNodes(),
    api.readLease(namespace, leaseName(runId)),
  ]);
  const run = runs.find((r) => r.id === runId);
  if (!run) {
    throw new RunRefused(
      `no run ${runId} in namespace "${namespace}" (a run that finished leaves nothing behind; kubectl maint runs lists those recorded)`,
    );
  }
  const batches = batchesOf(lease?.metadata?.annotations?.[ANNOTATION.batches]);
  const byName = new Map(nodes.map((n) => [n.metadata?.name ?? '', n]));
  const names = Object.values(run.nodes).flat();
  const ordered = batches ? [...batches.flat(), ...names.filter((n) => !batches.flat().includes(n))] : names;
  return {
    kind: 'RunTimeline',
    apiVersion: 'maint.kubectl.io/v1alpha1',
    ...run,
    readAt: new Date(nowMs).toISOString(),
    nodes: ordered.map((name) => nodeTimeline(runId, name, byName.get(name), batches)),
  };
}

function nodeTimeline(
  runId: string,
  name: string,
  node: V1Node | undefined,
  batches: readonly (readonly string[])[] | null,
): NodeTimeline {
  const index = batches ? batches.findIndex((b) => b.includes(name)) : -1;
  const batch = index >= 0 ? index + 1 : null;
  if (!node) return { node: name, batch, phase: 'gone', steps: [] };
  if (runOfNode(node) !== runId) return { node: name, batch, phase: 'unclaimed', steps: [] };
  return { node: name, batch, phase: nodePhase(node) ?? 'pending', steps: phaseHistory(node) };
}

function batchesOf(text: string | undefined): string[][] | null {
  try {
    const value = JSON.parse(text ?? '') as unknown;
    return Array.isArray(value) && value.every((b) => Array.isArray(b)) ? (value as string[][]) : null;
  } catch {
    return null;
  }
}
