import type { ClusterIndex } from '../snapshot/cluster-index.js';
import { BatchPlanner, chooseBatch, poolOrder, type ChosenBatch } from './batching.js';
import { batchEta, drainTimesOf, poolEta } from './pool-eta.js';
import { clusterAfterBatch, isRemovedByDrain } from './pool-state.js';
import type { PoolBatch, PoolPlan, PoolPlanOptions } from './pool-types.js';
import type { BudgetPlan, DrainPlan, Verdict } from './types.js';
import { slowBudgetLine } from './verdict.js';
import { plural } from '../wording.js';

/**
 * The whole run over a pool, batch after batch, without touching the cluster: each batch is planned
 * with the single-drain planner (filters, budgets and waves, the scheduling simulation) against the
 * cluster as it will be when the batch starts — earlier batches back in service with the replacements
 * they caused, later nodes still holding their pods. Batches are chosen by `chooseBatch`; the nodes that
 * offend in a batch are set aside and judged alone once every other node has found its batch, against
 * the cluster as those batches leave it; a node that cannot be drained even alone then becomes a batch of
 * its own, at the end of the run, which blocks it (planning goes on without it, so every problem shows
 * at once). Pure: snapshot and options in, PoolPlan out.
 */
export function buildPoolPlan(index: ClusterIndex, options: PoolPlanOptions): PoolPlan {
  const pool = [...new Set(options.nodes)];
  for (const name of pool) if (!index.node(name)) throw new Error(`node "${name}" not found`);
  if (!Number.isInteger(options.maxUnavailable) || options.maxUnavailable < 1) {
    throw new Error(`max unavailable must be at least 1 (got ${options.maxUnavailable})`);
  }

  const chosen: ChosenBatch[] = [];
  let planner = new BatchPlanner(index, options);
  let queue = poolOrder(index, pool);
  // Nodes that offended in a batch: judged alone, against the cluster as it is then, once the queue is empty.
  let aside: string[] = [];
  const take = (batch: ChosenBatch) => {
    chosen.push(batch);
    // A node whose replacements find no room still drains; one that is blocked keeps its pods.
    if (batch.plan.verdict !== 'blocked') {
      planner = new BatchPlanner(clusterAfterBatch(planner.index, batch.plan, chosen.length), options);
    }
  };
  while (queue.length > 0 || aside.length > 0) {
    if (queue.length > 0) {
      const { batch, deferred } = chooseBatch(planner, queue, options.maxUnavailable);
      aside.push(...deferred);
      queue = queue.filter((n) => !deferred.includes(n) && !batch?.nodes.includes(n));
      if (batch) take(batch);
      continue;
    }
    const fine = aside.filter((n) => planner.offending([n]).length === 0);
    if (fine.length > 0) {
      queue = fine;
      aside = aside.filter((n) => !fine.includes(n));
      continue;
    }
    const judged = aside.map((node) => ({ node, plan: planner.plan([node]) }));
    // Every node left offends even alone: each is a batch of its own that cannot go as planned, taken
    // one after another while the cluster stays as it is (a blocked batch leaves it so).
    for (const { node, plan } of judged) {
      aside.shift();
      take({ nodes: [node], plan, acceptable: false });
      if (plan.verdict !== 'blocked') break;
    }
  }

  const commandSeconds = options.commandSeconds ?? null;
  const batchOf = new Map(chosen.flatMap((b, i) => b.nodes.map((n) => [n, i + 1] as const)));
  const later = (node: string | null | undefined, number: number) => (batchOf.get(node ?? '') ?? 0) > number;
  const batches = chosen.map((b, i) => {
    const batch = poolBatch(b, i + 1, batchOf, commandSeconds);
    const why = smallerBecause(b, options.maxUnavailable);
    return why === undefined ? batch : { ...batch, smaller: why };
  });
  const movedTwice = batches.flatMap((b) =>
    b.plan.pods.filter((p) => later(p.replacement?.placedOn, b.number)).map((p) => `${p.namespace}/${p.name}`),
  );
  const { verdict, reasons } = poolVerdict(batches, movedTwice);
  return {
    kind: 'PoolPlan',
    apiVersion: 'maint.kubectl.io/v1alpha1',
    nodes: pool,
    maxUnavailable: options.maxUnavailable,
    verdict,
    verdictReasons: reasons,
    batches,
    movedTwice,
    eta: poolEta(
      batches.map((b) => b.eta),
      commandSeconds,
    ),
    caveats: [...POOL_CAVEATS, ...batchCaveats(batches)],
  };
}

/** What the pool plan assumes on top of each batch's own caveats. */
export const POOL_CAVEATS: readonly string[] = [
  'between batches every replacement is taken as Running and Ready on the node the simulation placed it on, and the nodes of the batch as back in service, uncordoned',
  'a replacement keeps its original name in later batches (the name its controller picks is not known in advance)',
];

/**
 * Each batch's caveats once, without the pods each names (a batch's plan in -o json names them), and with
 * the batches it concerns when not every one.
 */
function batchCaveats(batches: readonly PoolBatch[]): string[] {
  const concerns = new Map<string, Set<number>>();
  for (const b of batches) {
    for (const scope of b.plan.caveatScopes) {
      const rule = scope.rule ?? scope.caveat;
      concerns.set(rule, (concerns.get(rule) ?? new Set()).add(b.number));
    }
  }
  return [...concerns].map(([rule, numbers]) =>
    numbers.size === batches.length && batches.length > 1
      ? `${rule} (every batch)`
      : `${rule} (${numbers.size === 1 ? 'batch' : 'batches'} ${[...numbers].join(', ')})`,
  );
}

/** Why a batch has fewer nodes than allowed: offenders set aside, a node alone at the end, or the pool's last nodes. */
function smallerBecause(b: ChosenBatch, maxUnavailable: number): string | undefined {
  if (b.nodes.length >= maxUnavailable) return undefined;
  const setAside = b.setAside ?? [];
  if (setAside.length > 0) {
    return `${setAside.join(', ')} ${setAside.length === 1 ? 'was' : 'were'} set aside: drained with this batch, a pod of theirs is refused, blocked or finds no node for its replacement (each is judged again once the others have their batch)`;
  }
  if (!b.acceptable) return 'a node that cannot be drained even with no other: a batch of its own, at the end';
  return 'no other node was left to take';
}

/** `batchOf`: the batch number of each pool node. */
function poolBatch(
  b: ChosenBatch,
  number: number,
  batchOf: ReadonlyMap<string, number>,
  commandSeconds: number | null,
): PoolBatch {
  const removed = b.plan.pods.filter(isRemovedByDrain);
  const placed = removed.map((p) => p.replacement?.placedOn).filter((n): n is string => typeof n === 'string');
  const doneNodes = placed.filter((n) => (batchOf.get(n) ?? number) < number).length;
  const laterNodes = placed.filter((n) => (batchOf.get(n) ?? 0) > number).length;
  return {
    number,
    nodes: b.nodes,
    verdict: b.plan.verdict,
    verdictReasons: b.plan.verdictReasons,
    evicted: removed.length,
    waves: Math.max(slowestBudget(b.plan)?.waves ?? 0, removed.length > 0 ? 1 : 0),
    replacementsOn: { doneNodes, laterNodes, outsidePool: placed.length - doneNodes - laterNodes },
    eta: batchEta(drainTimesOf(b.plan), commandSeconds),
    plan: b.plan,
  };
}

/** The budget that forces the most waves in a batch's drain (the first such), or undefined when none. */
function slowestBudget(plan: DrainPlan): BudgetPlan | undefined {
  return plan.budgets.reduce<BudgetPlan | undefined>((w, x) => (x.waves > (w?.waves ?? 0) ? x : w), undefined);
}

/** A slow batch's reason is its slowest budget, whose waves are the batch's; any other, its first reason. */
function batchReason(b: PoolBatch): string {
  const slowest = slowestBudget(b.plan);
  if (b.verdict === 'slow' && slowest && slowest.waves > 1) return slowBudgetLine(slowest);
  return b.verdictReasons[0] ?? b.verdict;
}

/** Known verdicts from least to most severe; one added later ranks just below blocked until placed here. */
const SEVERITY: readonly string[] = ['clear', 'slow', 'incomplete', 'disruptive', 'blocked'];
const severity = (v: Verdict) => (SEVERITY.includes(v) ? SEVERITY.indexOf(v) : SEVERITY.indexOf('blocked') - 0.5);

function poolVerdict(
  batches: readonly PoolBatch[],
  movedTwice: readonly string[],
): { verdict: Verdict; reasons: string[] } {
  const verdict = batches.map((b) => b.verdict).reduce<Verdict>((w, v) => (severity(v) > severity(w) ? v : w), 'clear');
  const label = (b: PoolBatch) => `batch ${b.number} (${b.nodes.join(', ')})`;
  const blocked = batches.filter((b) => b.verdict === 'blocked');
  const reasons = [
    ...blocked.map((b) => `${label(b)} is blocked: ${b.verdictReasons[0] ?? 'blocked'}`),
    ...batches
      .filter((b) => b.verdict !== 'blocked' && b.verdict !== 'clear')
      .map((b) => `${label(b)} is ${b.verdict}: ${batchReason(b)}`),
  ];
  if (movedTwice.length > 0) {
    reasons.push(
      `${plural(movedTwice.length, 'pod')} ${movedTwice.length === 1 ? 'moves' : 'move'} twice: their replacements land on nodes of later batches`,
    );
  }
  if (reasons.length === 0 || verdict === 'clear') {
    const evicted = batches.reduce((n, b) => n + b.evicted, 0);
    reasons.unshift(
      `${plural(batches.length, 'batch', 'batches')}, every pod can go at once in each: ${plural(evicted, 'pod')} evicted in all`,
    );
  }
  return { verdict, reasons };
}
