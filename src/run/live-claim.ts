import type { V1Lease } from '@kubernetes/client-node';
import { EARLIER_STATE_NAMESPACE } from '../kube/defaults.js';
import { activeHolder, ANNOTATION, leaseName, secondsLeft } from './state.js';

/**
 * `drain`, `cordon` and `uncordon` leave alone a node that a live run has claimed: the run drives it
 * through drain, command and return, and does not know of a change made behind its back (an uncordon
 * puts a node back in service in the middle of its command; a cordon is undone by the run's uncordon).
 * The run is live while its Lease is held and not expired; a run that stopped (its Lease released,
 * expired or gone) leaves its nodes to the operator.
 */

/**
 * Where a run's Lease is looked for when its node does not name the namespace (a node claimed before
 * nodes named it): the namespace runs used by default then.
 */
export const UNNAMED_STATE_NAMESPACE = EARLIER_STATE_NAMESPACE;

/** A node as these commands read it: its name and annotations. */
export interface ClaimedNodeRead {
  readonly metadata?:
    | { readonly name?: string | undefined; readonly annotations?: Readonly<Record<string, string>> | undefined }
    | undefined;
}

/** Reads a Lease: null when there is none; the API's error otherwise (its `code` 403 when forbidden). */
export type LeaseRead = (namespace: string, name: string) => Promise<V1Lease | null>;

/** A 403, as the API's answer (`code`) or as kube/errors.ts classified it (`kind`). */
const isForbidden = (err: unknown) => {
  const e = err as { code?: unknown; kind?: unknown } | null;
  return e?.code === 403 || e?.kind === 'forbidden';
};

/**
 * Why `verb` may not act on `node`: it is claimed by a run whose Lease is held (naming the run, its holder
 * and the node's phase), or whose Lease cannot be read (the run may be live); null when no live run has
 * claimed it. Any other failure to read the Lease is thrown.
 */
export async function liveClaimRefusal(
  node: ClaimedNodeRead,
  readLease: LeaseRead,
  nowMs: number,
): Promise<string | null> {
  const annotations = node.metadata?.annotations ?? {};
  const run = annotations[ANNOTATION.run];
  if (!run) return null;
  const name = node.metadata?.name ?? '';
  const namespace = annotations[ANNOTATION.runNamespace] || UNNAMED_STATE_NAMESPACE;
  const where = `${namespace}/${leaseName(run)}`;
  const phase = annotations[ANNOTATION.phase];
  const inPhase = phase ? `, phase ${phase}` : '';
  const override = `nothing was changed (kubectl maint runs shows the run; --ignore-run-claim acts on it anyway)`;
  let lease: V1Lease | null;
  try {
    lease = await readLease(namespace, leaseName(run));
  } catch (err) {
    if (!isForbidden(err)) throw err;
    return `node "${name}" is in run ${run}${inPhase}, whose Lease ${where} may not be read to tell whether the run is live: ${override}`;
  }
  const holder = lease ? activeHolder(lease, nowMs) : null;
  if (!lease || !holder) return null;
  return `node "${name}" is in run ${run} held by ${holder}${inPhase} (its lease expires in ${secondsLeft(lease, nowMs)}s unless renewed): ${override}`;
}
