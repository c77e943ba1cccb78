import type { ClusterIndex } from '../snapshot/cluster-index.js';
import { buildPlan, drainBlockedNodes } from './build-plan.js';
import { isRemovedByDrain } from './pool-state.js';
import type { DrainPlan, PlanOptions, PodPlan } from './types.js';

/** A batch the pool plan chose, with its drain plan against the cluster as it is when the batch starts. */
export interface ChosenBatch {
  readonly nodes: readonly string[];
  readonly plan: DrainPlan;
  /** False for a node that cannot be drained even alone: the run stops there. */
  readonly acceptable: boolean;
  /** Nodes tried in this batch and set aside because, drained with it, one of their pods offended. */
  readonly setAside?: readonly string[];
}

/**
 * Plans drains against one cluster state. The plan of a single node is kept: the pool plan judges a
 * node alone more than once against the same state (when it offends in a batch, and again when it is
 * set aside), and the planner is pure, so the kept plan is the one it would build again.
 */
export class BatchPlanner {
  readonly index: ClusterIndex;
  private readonly options: PlanOptions;
  private readonly alone = new Map<string, DrainPlan>();
  /** The last plan of several nodes: the batch chooser asks for the plan it has just judged. */
  private last: { readonly key: string; readonly plan: DrainPlan } | undefined;

  constructor(index: ClusterIndex, options: PlanOptions) {
    this.index = index;
    this.options = options;
  }

  plan(nodes: readonly string[]): DrainPlan {
    if (nodes.length !== 1) {
      const key = nodes.join('\u0000');
      if (this.last?.key !== key) this.last = { key, plan: buildPlan(this.index, { ...this.options, nodes }) };
      return this.last.plan;
    }
    const [node] = nodes as [string];
    let plan = this.alone.get(node);
    if (!plan) this.alone.set(node, (plan = buildPlan(this.index, { ...this.options, nodes })));
    return plan;
  }

  /** The nodes whose drain together is refused or blocked whatever the scheduler does (drainBlockedNodes): offenders, found without placing a pod. */
  surelyOffending(nodes: readonly string[]): string[] {
    return drainBlockedNodes(this.index, { ...this.options, nodes });
  }

  /** The nodes of a drain plan that offend: a blocked or refused pod, or a replacement that finds no node. */
  offending(nodes: readonly string[]): string[] {
    const sure = this.surelyOffending(nodes);
    return sure.length > 0 ? sure : offendingNodes(this.plan(nodes));
  }
}

/**
 * The order the pool is taken in: the nodes with the fewest pods first. The first batch's replacements
 * can only land on nodes not yet done (so those pods move twice), which costs least when it moves the
 * fewest pods; every later batch finds the nodes done before it back in service and nearly empty, where
 * the scheduler's least-allocated scoring puts replacements. Ties by name, so the plan is repeatable.
 */
export function poolOrder(index: ClusterIndex, pool: readonly string[]): string[] {
  const pods = (node: string) => index.podsOnNode(node).length;
  return [...pool].sort((a, b) => pods(a) - pods(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** Plans of one batch that may refill it with untried nodes after dropping offenders; later ones only drop. */
const REFILL_ATTEMPTS = 2;

/**
 * Chooses the next batch among `queue` (in pool order): the first `maxUnavailable` nodes, planned
 * together; while that drain is blocked or leaves a replacement without a node, the nodes holding the
 * offending pods leave the batch (they are `deferred`: set aside, to be judged alone once the queue is
 * empty) and, for the first attempts, untried nodes take their places. Filling the batch is worth it: a
 * batch costs the operator's command and the node's return (minutes), a budget wave inside a batch only
 * a replacement's start-up (seconds). `batch` is null when every node tried offended. At most
 * REFILL_ATTEMPTS + 1 attempts with refills, then each attempt drops at least one node. An attempt whose
 * nodes surely offend (refused or blocked whatever the scheduler does) drops them without a full plan.
 */
export function chooseBatch(
  planner: BatchPlanner,
  queue: readonly string[],
  maxUnavailable: number,
): { batch: ChosenBatch | null; deferred: string[] } {
  let chosen = queue.slice(0, maxUnavailable);
  let untried = queue.slice(maxUnavailable);
  const deferred: string[] = [];
  for (let attempt = 0; ; attempt++) {
    const offenders = planner.offending(chosen);
    if (offenders.length === 0)
      return {
        batch: { nodes: chosen, plan: planner.plan(chosen), acceptable: true, setAside: [...deferred] },
        deferred,
      };
    deferred.push(...offenders);
    const kept = chosen.filter((n) => !offenders.includes(n));
    if (attempt < REFILL_ATTEMPTS) {
      const refill = untried.slice(0, maxUnavailable - kept.length);
      untried = untried.slice(refill.length);
      kept.push(...refill);
    }
    if (kept.length === 0) {
      // Every node offends together: the first one is tried alone, so a node that is fine alone is not
      // set aside for good (the end of the pool judges every set-aside node alone and queues it again).
      if (chosen.length === 1) return { batch: null, deferred };
      kept.push(deferred.splice(deferred.indexOf(offenders[0]!), 1)[0]!);
    }
    chosen = kept;
  }
}

/** Nodes (in plan order) of the pods that make a batch unacceptable: refused, never evicted, or a replacement that finds no node. */
export function offendingNodes(plan: DrainPlan): string[] {
  const offending = new Set(plan.pods.filter(isOffending).map((p) => p.node));
  return plan.nodes.filter((n) => offending.has(n));
}

function isOffending(p: PodPlan): boolean {
  if (p.action === 'refuse' || p.outcome === 'blocked') return true;
  return isRemovedByDrain(p) && p.replacement !== null && !p.replacement.schedulable;
}
