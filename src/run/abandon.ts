import type { RunApi } from '../kube/run-api.js';
import { liveHolder, RunRefused } from './claim.js';
import { LeaseLost, writeOwnNode } from './lease-keeper.js';
import { mapLimited } from './parallel.js';
import { leaseName, nodePhase, RELEASED_NODE, runOfNode, secondsLeft } from './state.js';

/** A node an abandoned run let go of: the phase it was in, and whether it is left cordoned. */
export interface ReleasedNode {
  readonly node: string;
  readonly phase: string | null;
  readonly cordoned: boolean;
}

export interface AbandonContext {
  readonly api: RunApi;
  readonly namespace: string;
  readonly nowMs: number;
}

/**
 * Ends run `runId` for good: deletes its Lease (a holder that comes back sees it gone and stops before its
 * next write), then removes its claim and phase from each node that still names it, and gives back the
 * autoscaler annotations its cordon set (the run is over). Nodes are left as they are otherwise: a
 * cordoned node stays cordoned, for the operator to decide. Refused while a live process
 * holds the Lease: that run is stopped where it runs.
 */
export async function abandonRun(
  ctx: AbandonContext,
  runId: string,
): Promise<{ lease: boolean; nodes: ReleasedNode[] }> {
  const { api, namespace, nowMs } = ctx;
  const lease = await api.readLease(namespace, leaseName(runId));
  const holder = lease ? liveHolder(lease, nowMs) : null;
  if (lease && holder) {
    throw new RunRefused(
      `run ${runId} is held by ${holder} (its lease expires in ${secondsLeft(lease, nowMs)}s unless renewed): stop it there (Ctrl-C), or abandon it once its lease has expired; nothing was changed`,
    );
  }
  const claimed = (await api.listNodes()).filter((n) => runOfNode(n) === runId);
  if (!lease && claimed.length === 0) {
    throw new RunRefused(
      `no run ${runId}: no Lease in namespace "${namespace}" and no node names it; nothing was changed`,
    );
  }
  if (lease) await api.deleteLease(namespace, leaseName(runId));
  const released = await mapLimited(claimed, async (node): Promise<ReleasedNode | null> => {
    const name = node.metadata?.name ?? '';
    try {
      await writeOwnNode(api, runId, name, RELEASED_NODE, { releaseAutoscalers: true });
    } catch (err) {
      // Claimed by another run meanwhile: not ours to release.
      if (err instanceof LeaseLost) return null;
      throw err;
    }
    return { node: name, phase: nodePhase(node), cordoned: node.spec?.unschedulable === true };
  });
  return { lease: lease !== null, nodes: released.filter((n): n is ReleasedNode => n !== null) };
}
