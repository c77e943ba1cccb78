import { DrainMarked, DrainMarks } from '../drain/drain-mark.js';
import type { ClusterChange } from '../kube/run-api.js';
import { budgetKey, type BudgetKey } from '../plan/budgets.js';
import type { DrainPlan } from '../plan/types.js';
import type { Snapshot } from '../snapshot/types.js';
import { blockedWithoutBound, drainBatch, planBatch, type BatchDrainResult } from './batch-drain.js';
import { budgetChange } from './changes.js';
import { durably } from './durable.js';
import { mapLimited } from './parallel.js';
import { unsettled, workloadsMoved } from './settled.js';
import { SETTLE_POLL_MS, type StepBase } from './step-context.js';
import { isFailedPhase, reached, type NodePhase } from './state.js';
import type { GroupHooks, RunWindow } from './window-loop.js';

/**
 * What the drain step uses, and writes: the nodes' phases, the nodes the run knows cordoned, and the
 * workloads its drains moved (the next fresh plan waits for them).
 */
export interface DrainStep extends StepBase {
  readonly cordoned: Set<string>;
  readonly moved: Set<string>;
  /** Every node of the run: a change to one of them may unblock a fresh plan. */
  readonly runNodes: ReadonlySet<string>;
  readonly window: Pick<RunWindow, 'inFlight' | 'slotFreed'>;
}

/** Whether a resumed (or fresh) node is drained first: not yet drained, or its drain failed. */
export function needsDrain(phase: NodePhase): boolean {
  return phase === 'drain-failed' || (!isFailedPhase(phase) && !reached(phase, 'drained'));
}

/** Cordons and drains the nodes from their fresh plan; the budgets they touched, with their disruptionsAllowed before. */
export async function drainStep(
  s: DrainStep,
  batch: number,
  toDrain: readonly string[],
  { snapshot, plan }: { snapshot: Snapshot; plan: DrainPlan },
  hooks: GroupHooks,
): Promise<ReadonlyMap<BudgetKey, number>> {
  const { deps, definition } = s;
  // Marked as `kubectl maint drain` marks its nodes, naming the run: a drain started meanwhile refuses.
  const marks = new DrainMarks(deps.api, s.control.holder, () => deps.clock.now(), definition.id);
  const marking = `the drain of ${toDrain.join(', ')} starts once its drain marks are written`;
  const refused = await durably(() => marks.take(toDrain), s.waits.durability(marking)).then(
    () => null,
    (err: unknown) => {
      if (err instanceof DrainMarked) return err.message.replace(/: nothing was changed$/, '');
      throw err;
    },
  );
  if (refused !== null) {
    // Another drain works on a node of the group: neither cordoned nor drained, for a resume to drain.
    await mapLimited(toDrain, (node) => s.phases.set(node, batch, 'drain-failed', refused));
    hooks.planned();
    return new Map();
  }
  // The next group is planned once these nodes are cordoned: its plan must see them out of service.
  const cordoned = new Set<string>();
  let drained: BatchDrainResult;
  try {
    await mapLimited(toDrain, (node) => s.phases.set(node, batch, 'draining'));
    drained = await drainBatch(snapshot, plan, toDrain, definition.options, {
      api: deps.drain,
      emit: (event) => {
        if (event.type === 'cordoned' && !event.dryRun) {
          s.cordoned.add(event.node);
          if (cordoned.add(event.node).size === toDrain.length) hooks.planned();
        }
        s.emit({ type: 'drain', batch, nodes: toDrain, event });
      },
      signal: s.control.signal,
    });
  } finally {
    await marks.release().catch(() => undefined);
  }
  hooks.planned();
  for (const workload of workloadsMoved(plan)) s.moved.add(workload);
  if (s.aborted()) return drained.budgetsBefore;
  await mapLimited(toDrain, (node) => {
    const problem = drained.notDrained.get(node);
    return s.phases.set(node, batch, problem ? 'drain-failed' : 'drained', problem);
  });
  return drained.budgetsBefore;
}

/** What a fresh plan read just now calls for (freshPlan). */
export type PlanVerdict = 'take' | 'read-again' | 'others-out' | 'wait-to-settle';

/**
 * A plan not blocked is taken. A blocked one is read again when a node of the window came back while the
 * cluster was read (the snapshot may show it still cordoned); waits for the others out when more nodes
 * are out than the group's slots; is taken once --budget-timeout has passed or the cluster has settled
 * (`settled`, asked only then); otherwise waits for it to settle.
 */
export function planVerdict(p: {
  readonly blocked: boolean;
  readonly slots: number;
  readonly inFlightAtRead: number;
  readonly inFlight: number;
  readonly pastDeadline: boolean;
  readonly settled: () => boolean;
}): PlanVerdict {
  if (!p.blocked) return 'take';
  if (p.inFlightAtRead > p.slots && p.inFlight <= p.slots) return 'read-again';
  if (p.inFlight > p.slots) return 'others-out';
  return p.pastDeadline || p.settled() ? 'take' : 'wait-to-settle';
}

/**
 * The batch's fresh plan, and why it is blocked when it is (null otherwise). A blocked plan is trusted
 * only once the cluster has settled after the earlier batches (their nodes free of the not-ready taint,
 * the workloads they moved all Ready) or --budget-timeout has passed: until then it is planned again.
 * Blocked while other nodes are out, it is 'passed-over' when `passOver` says the window has others to
 * try; otherwise it plans again here.
 */
export async function freshPlan(
  s: DrainStep,
  nodes: readonly string[],
  slots: number,
  passOver: () => boolean,
): Promise<{ snapshot: Snapshot; plan: DrainPlan; blocked: string | null } | 'passed-over'> {
  const { deps, definition, waits } = s;
  const { clock } = deps;
  let deadline = clock.now() + definition.options.budgetTimeoutMs;
  /** When the change this plan reads again for woke it: a snapshot made since shows it. */
  let woken: number | undefined;
  // What a blocked plan waits for shows on the run's nodes (back, taints lifted) or on its budgets.
  for (;;) {
    const returned = s.phases.returned();
    const read = clock.now();
    const inFlightAtRead = s.window.inFlight;
    const snapshot = await deps.loadSnapshot(woken);
    const planning = clock.now();
    const plan = planBatch(snapshot, nodes, definition.options, planning);
    waits.planned(planning);
    const blocked = blockedWithoutBound(plan, definition.options);
    const verdict = planVerdict({
      blocked: blocked !== null,
      slots,
      inFlightAtRead,
      inFlight: s.window.inFlight,
      pastDeadline: clock.now() >= deadline,
      settled: () => unsettled(snapshot, returned, s.moved, definition.id).length === 0,
    });
    if (verdict === 'take') return { snapshot, plan, blocked };
    woken = undefined;
    if (verdict === 'read-again') continue;
    const budgets = budgetChange(new Set(plan.budgets.map((b) => budgetKey(b.namespace, b.name))));
    const relevant = (change: ClusterChange) =>
      budgets(change) || (change.kind === 'node' && s.runNodes.has(change.name));
    if (verdict === 'others-out') {
      if (passOver()) return 'passed-over';
      // Other nodes of the window are out, and their drains move pods meanwhile: plan again once one of
      // them is back, or its budgets or nodes change (a replacement of theirs became Ready), or a moment later.
      const woke = await waits.changeSlotOrTimeout(SETTLE_POLL_MS, relevant, s.window.slotFreed);
      if (!woke.awake) return { snapshot, plan, blocked };
      woken = clock.now();
      await waits.notSooner(read, !woke.freed);
      deadline = clock.now() + definition.options.budgetTimeoutMs;
      continue;
    }
    // A whole snapshot per read: on a change of what it waits for, or now and then.
    if (!(await waits.changeOrTimeout(SETTLE_POLL_MS, relevant))) return { snapshot, plan, blocked };
    woken = clock.now();
    await waits.notSooner(read);
  }
}
