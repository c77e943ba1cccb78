import { refusalLines } from './drain-filters/pod-delete-list.js';
import { isRemovedByDrain } from './pool-state.js';
import type { BudgetPlan, NoExecuteBudgetBreach, PodPlan, ReadVerdict } from './types.js';
import { plural } from '../wording.js';

export interface VerdictWithReasons {
  readonly verdict: ReadVerdict;
  readonly reasons: readonly string[];
}

/**
 * blocked: some pod is refused by kubectl's filters or can never be evicted (its budget, or an admission
 * policy that denies its eviction: admission/pod-admission.ts), or whether its budget (or a policy, or a
 * webhook) lets it go is unknown (`outcomeUnknown`: the budget waits for a replacement whose fate is
 * unknown, or a webhook whose answer the plan cannot tell decides, and a drain that may never finish is
 * not called one that finishes); slow: some eviction waits for its budget
 * (one that goes either way, in a wave such a replacement decides, `waveUnknown`, only waits); clear
 * otherwise. Reasons come most important first: refusals in kubectl's "cannot delete" wording, pods that
 * can never go, pods that may never go, budgets that make the drain wait and the pods whose wave is
 * unknown, then the replacements of pods still held on their node that would find no node, and budgets
 * that --disable-eviction breaks.
 * Removed pods whose replacement finds no node are outages (outages.ts), said by their own lines.
 */
export function decideVerdict(
  pods: readonly PodPlan[],
  budgets: readonly BudgetPlan[],
  brokenByDeletes: readonly NoExecuteBudgetBreach[] = [],
): VerdictWithReasons {
  const refused = pods.filter((p) => p.action === 'refuse');
  const uncertain = pods.filter((p) => p.outcomeUnknown !== undefined);
  const blocked = pods.filter((p) => p.outcome === 'blocked' && p.outcomeUnknown === undefined);
  const waiting = pods.filter((p) => p.outcome === 'waits' && p.outcomeUnknown === undefined);
  // Pods held back only because kubectl stops their node are covered by the refusal lines.
  const refusedNodes = new Set(refused.map((p) => p.node));
  const reasons = [
    ...refusalLines(refused),
    ...blockedLines(
      blocked.filter((p) => !refusedNodes.has(p.node)),
      pods,
    ),
    ...groupedLines(
      uncertain,
      (names, unknown) => `whether ${names} can be evicted is unknown, so the drain may not finish: ${unknown}`,
      (p) => p.outcomeUnknown!,
    ),
    ...slowBudgetLines(budgets, waiting),
    ...webhookLines(pods),
    ...groupedLines(
      waiting.filter((p) => p.waveUnknown !== undefined),
      (names, unknown) => `${names} can be evicted either way, but in which wave is unknown: ${unknown}`,
      (p) => p.waveUnknown!,
    ),
    ...preemptionLines(pods),
    // The replacements of pods the drain removes are the outages' lines (outages.ts); these are the rest.
    ...groupedLines(
      pods.filter((p) => p.replacement && !p.replacement.schedulable && !isRemovedByDrain(p)),
      (names, message) => `no node for the replacement of ${names}: ${message}`,
      (p) => p.replacement!.message,
    ),
    ...brokenByDeletes.map(
      (b) =>
        `--disable-eviction deletes ${plural(b.pods.length, 'healthy pod')} of budget ${b.namespace}/${b.name} at once, ` +
        `which allows ${plural(b.disruptionsAllowed, 'disruption')}: ${b.pods.join(', ')}`,
    ),
  ];
  const verdict: ReadVerdict =
    refused.length > 0 || blocked.length > 0 || uncertain.length > 0
      ? 'blocked'
      : waiting.length > 0
        ? 'slow'
        : 'clear';
  if (verdict === 'clear') reasons.unshift(clearReason(pods));
  return { verdict, reasons };
}

/**
 * The pods that can never be evicted, one line per cause. Pods of one controller under one budget are
 * interchangeable: the plan lets the first in its order go, but the API admits whichever eviction reaches
 * it first. So when the budget is spent on one of them whose replacement finds no node, the line says
 * how many stay, of which pods, and why, without naming a pod the drain may well evict first.
 */
function blockedLines(blocked: readonly PodPlan[], pods: readonly PodPlan[]): string[] {
  const peersOf = new Map(blocked.map((p) => [p, racedPeers(p, pods)] as const));
  const raced = Map.groupBy(
    blocked.filter((p) => peersOf.get(p) !== null),
    (p) => peersOf.get(p)!.key,
  );
  const lines = [...raced].map(([, stay]) => {
    const { budget, peers } = peersOf.get(stay[0]!)!;
    const names = [...peers, ...stay].map((p) => `${p.namespace}/${p.name}`).join(', ');
    const first = peers.length === 1 ? 'the first pod' : `the first ${peers.length} pods`;
    return (
      `cannot evict ${stay.length} of ${names}: no node takes the replacement of ${first} budget ${budget} ` +
      'lets go (whichever the API admits), so the budget never frees up for the rest'
    );
  });
  return [
    ...lines,
    ...groupedLines(
      blocked.filter((p) => peersOf.get(p) === null),
      (names, reason) => `cannot evict ${names}: ${reason}`,
    ),
  ];
}

/**
 * For a pod blocked behind its only budget: the pods of the same controller and budget the plan let go
 * before it, when each of them left no schedulable replacement (so any of them could have been the one
 * left behind). Null otherwise.
 */
function racedPeers(
  pod: PodPlan,
  pods: readonly PodPlan[],
): { key: string; budget: string; peers: readonly PodPlan[] } | null {
  const budget = pod.pdbs.length === 1 ? `${pod.pdbs[0]!.namespace}/${pod.pdbs[0]!.name}` : null;
  const owner = pod.controller ? `${pod.namespace}/${pod.controller.kind}/${pod.controller.name}` : null;
  if (budget === null || owner === null) return null;
  const sameGroup = (p: PodPlan) =>
    p.controller !== null &&
    `${p.namespace}/${p.controller.kind}/${p.controller.name}` === owner &&
    p.pdbs.length === 1 &&
    `${p.pdbs[0]!.namespace}/${p.pdbs[0]!.name}` === budget;
  const peers = pods.filter((p) => p.wave !== null && p.outcome !== 'blocked' && sameGroup(p));
  const unreplaced = peers.filter((p) => p.replacement !== null && !p.replacement.schedulable);
  if (peers.length === 0 || unreplaced.length !== peers.length) return null;
  return { key: `${owner} ${budget}`, budget, peers };
}

/**
 * Replacements that make room by preemption: the scheduler deletes lower-priority pods elsewhere (no
 * eviction, no budget asked), one line per replacement naming the victims and the budgets that breaks.
 * A replacement whose fate is unknown only may: the victims are the plan's answer, not a certainty.
 */
function preemptionLines(pods: readonly PodPlan[]): string[] {
  return pods.flatMap((p) => {
    const preemption = p.replacement?.preemption;
    if (!preemption) return [];
    const victims = preemption.victims.map((v) => `${v.namespace}/${v.name}`).join(', ');
    const budgets =
      preemption.budgetsBroken.length > 0 ? `, breaking budget ${preemption.budgetsBroken.join(', ')}` : '';
    const preempts =
      p.replacement!.unknown === undefined ? 'preempts' : 'may preempt (whether it does is unknown: see the caveats)';
    return [
      `the replacement of ${p.namespace}/${p.name} ${preempts} ${victims} on ${preemption.node}: deleted, not evicted${budgets}`,
    ];
  });
}

function clearReason(pods: readonly PodPlan[]): string {
  const evicted = pods.filter((p) => p.outcome === 'immediate').length;
  const verb = pods.some((p) => p.action === 'delete') ? 'deleted' : 'evicted';
  return evicted === 0
    ? 'nothing to evict'
    : `${evicted === 1 ? 'the pod' : `all ${evicted} pods`} can be ${verb} at once`;
}

function slowBudgetLines(budgets: readonly BudgetPlan[], waiting: readonly PodPlan[]): string[] {
  const waitingKeys = new Set(waiting.flatMap((p) => p.pdbs.map((b) => `${b.namespace}/${b.name}`)));
  return budgets.filter((b) => waitingKeys.has(`${b.namespace}/${b.name}`)).map(slowBudgetLine);
}

/** "budget shop/web lets 1 pod go at a time: 2 waves, each waiting for replacements to become Ready". */
export function slowBudgetLine(b: BudgetPlan): string {
  return (
    `budget ${b.namespace}/${b.name} lets ${plural(b.perWave, 'pod')} go at a time: ${plural(b.waves, 'wave')}, each waiting for replacements to become Ready` +
    (b.stale ? ' (its status is stale: the first wave waits for the disruption controller)' : '')
  );
}

/**
 * The admission webhooks that decide the drain's requests (unless one refuses them, said among the blocked
 * pods, or the pod's outcome is unknown for what it says, said among the pods that may never go), one line
 * per webhook naming its pods: a drain a webhook decides is never called clear without it.
 */
function webhookLines(pods: readonly PodPlan[]): string[] {
  const decided = pods.flatMap((p) =>
    p.admission?.denied
      ? []
      : (p.admission?.webhooks ?? [])
          .filter((w) => w.answer !== 'admit' && w.text !== p.outcomeUnknown)
          .map((w) => ({ p, w })),
  );
  return groupedLines(
    decided.map(({ p, w }) => ({ ...p, outcomeReason: w.text })),
    (names, text) => `${names}: ${text}`,
  );
}

/** One line per distinct text, naming the pods that share it in plan order. */
function groupedLines(
  pods: readonly PodPlan[],
  line: (names: string, text: string) => string,
  textOf: (pod: PodPlan) => string = (p) => p.outcomeReason,
): string[] {
  const groups = Map.groupBy(pods, textOf);
  return [...groups].map(([text, list]) => line(list.map((p) => `${p.namespace}/${p.name}`).join(', '), text));
}
