import type { DrainApi } from '../kube/drain-api.js';
import { classifyKubeError } from '../kube/errors.js';
import type { Clock } from './clock.js';
import type { DrainRequest } from './drain-request.js';
import type { DrainEvent } from './events.js';

/** The nodes a drain cordoned, and why it could not cordon the next one, if it could not. */
export interface CordonOutcome {
  /** The nodes this drain holds cordoned (a dry run holds none). */
  readonly cordoned: readonly string[];
  /** Those of them it cordoned itself (the others were cordoned before it). */
  readonly cordonedHere: readonly string[];
  /** The first node that could not be cordoned, said; null when every node is. */
  readonly error: string | null;
}

/**
 * Cordons every node, in order, before anything is evicted; the first that cannot be cordoned stops the
 * drain. A client dry run sends nothing and says "already cordoned" from the snapshot; a server dry run
 * sends dry-run patches and holds no node.
 */
export async function cordonNodes(
  request: Pick<DrainRequest, 'nodes' | 'dryRun' | 'alreadyCordoned'>,
  api: Pick<DrainApi, 'cordon'>,
  clock: Pick<Clock, 'now'>,
  emit: (event: DrainEvent) => void,
): Promise<CordonOutcome> {
  const cordoned: string[] = [];
  const cordonedHere: string[] = [];
  const { dryRun } = request;
  for (const node of request.nodes) {
    if (dryRun === 'client') {
      const already = request.alreadyCordoned?.has(node) ?? false;
      emit({ type: 'cordoned', atMs: clock.now(), node, already, dryRun: true });
      continue;
    }
    try {
      const { already } = await api.cordon(node, dryRun === 'server');
      if (dryRun === 'none') cordoned.push(node);
      if (dryRun === 'none' && !already) cordonedHere.push(node);
      emit({ type: 'cordoned', atMs: clock.now(), node, already, dryRun: dryRun === 'server' });
    } catch (err) {
      const reason = classifyKubeError(err, undefined, { verb: 'patch', resource: 'nodes', name: node }).message;
      return { cordoned, cordonedHere, error: `cannot cordon node "${node}": ${reason}` };
    }
  }
  return { cordoned, cordonedHere, error: null };
}
