import { BudgetExplainer } from './budget-explainer.js';
import { BudgetStatusJudge } from './budget-staleness.js';
import { budgetKey } from '../plan/budgets.js';
import { BudgetWaiter } from './budget-wait.js';
import { systemClock, type Clock } from './clock.js';
import { Slots } from './concurrency.js';
import { cordonNodes, type CordonOutcome } from './cordon-nodes.js';
import { DrainPods, type PodEntry } from './drain-pods.js';
import { DrainStop } from './drain-stop.js';
import { DrainWatches } from './drain-watches.js';
import { DrainWarnings } from './drain-warnings.js';
import type { DrainEvent } from './events.js';
import { budgetWaitMs, escalatedConfig, escalatingEvent, msUntilEscalation } from './escalation-deadline.js';
import { evictionGroups, groupHoldsBack } from './eviction-groups.js';
import { classifyEviction, refusedForSeveralBudgets } from './eviction-retry.js';
import {
  answered,
  budgetChanged,
  budgetStatusJudged,
  disappeared,
  requestSent,
  waitSkipped,
  withStaleStatus,
  type PodAction,
} from './pod-machine.js';
import type { DrainDeps, DrainRequest } from './drain-request.js';
import { SERVER_DRY_RUN_WARNING, startEvents } from './start-events.js';
import { finishedEvent, type FinishedEvent } from './summary.js';
import { clientDryRunState, podWriteOptions, requestWords } from './removal-requests.js';
import { SurgeRunner, type SurgeWork } from './surge.js';
import { surgeEndReason, surgeSettled, surgesByPod } from './surge-coordination.js';
import { GoneTracker } from './wait-for-gone.js';
import { findLatePods, type LateWork } from './late-pods.js';

export type { DrainDeps, DrainRequest } from './drain-request.js';

/**
 * How often the drained nodes are listed again once the drain's pods are gone: pods still bound to them
 * after that (a controller that sets spec.nodeName itself ignores the cordon) are left, and said.
 */
export const LATE_LISTS = 4;

/**
 * Drains: cordon every node, then evict every target through the Eviction API, each pod driven by its
 * state machine (pod-machine.ts), with bounded concurrency, budget waits woken by the budgets' watch and
 * completion seen by the nodes' pod watch. Resolves with the `finished` event (also emitted) and never
 * throws for API errors: they end up in events.
 */
export function runDrain(request: DrainRequest, deps: DrainDeps): Promise<FinishedEvent> {
  return new DrainRun(request, deps).run();
}

class DrainRun {
  private readonly emit = (event: DrainEvent): void => this.deps.emit(event);
  private readonly clock: Clock;
  private readonly stop = new DrainStop();
  private readonly pods: DrainPods;
  private readonly budgets: BudgetWaiter;
  private readonly statuses: BudgetStatusJudge;
  private readonly gone: GoneTracker;
  private readonly slots: Slots;
  private readonly watches: DrainWatches;
  private readonly warnings: DrainWarnings;
  /** What holds a budget a pod waits for, and the other budgets that select the pod. */
  private readonly explainer: BudgetExplainer;
  /** Aborted when run() returns, so that no loop outlives the drain. */
  private readonly ended = new AbortController();
  private cordon: CordonOutcome = { cordoned: [], cordonedHere: [], error: null };
  private readonly surge: SurgeRunner;
  /** Pod uid → the surge its eviction waits for. */
  private readonly surgeOf: ReadonlyMap<string, SurgeWork>;
  /** The uids of every pod the drain took on or left alone: a new list of its nodes is compared with them. */
  private readonly known: Set<string>;

  constructor(
    private readonly request: DrainRequest,
    private readonly deps: DrainDeps,
  ) {
    this.clock = deps.clock ?? systemClock;
    this.warnings = new DrainWarnings(this.emit, this.clock);
    this.pods = new DrainPods(request, deps.maxFailures ?? 10, () => this.explainer, this.clock, this.emit);
    this.budgets = new BudgetWaiter(this.clock);
    this.statuses = new BudgetStatusJudge(
      this.clock,
      (namespace, selector) => deps.api.listPods(namespace, selector),
      (key, stale) => this.pods.forWaiters(key, (machine) => budgetStatusJudged(machine, stale)),
      (key, error) => this.warnings.once(`count ${key}`, `cannot count the pods of budget ${key} (${error.message})`),
    );
    this.gone = new GoneTracker(
      this.clock,
      async (ns, name) => {
        const pod = await deps.api.readPod(ns, name);
        if (pod) this.pods.noteFinalizers(pod);
        return pod;
      },
      (ref, error) =>
        this.warnings.once(
          `read ${ref.namespace}/${ref.name}`,
          `cannot read pod ${ref.namespace}/${ref.name} to see whether it is gone (${error.message}); waiting for its watch`,
        ),
      (ref) => this.watches.podsFollowed(ref.node),
    );
    this.slots = new Slots(request.concurrency);
    this.explainer = new BudgetExplainer({
      api: deps.api,
      clock: this.clock,
      pods: () => this.pods.states(),
      numbers: (key) => this.budgets.numbers(key),
      show: (pod, state) => this.pods.show(pod, state),
      warnOnce: (what, message) => this.warnings.once(what, message),
      signal: AbortSignal.any([this.stop.signal, this.ended.signal]),
      listsPods: request.dryRun === 'none',
    });
    const watched = { gone: this.gone, budgets: this.budgets, statuses: this.statuses, explainer: this.explainer };
    this.watches = new DrainWatches(
      deps.api,
      { ...watched, podSeen: (pod) => this.pods.noteFinalizers(pod) },
      (what, message) => this.warnings.once(what, message),
    );
    this.budgets.onChange((key, numbers) => this.pods.forWaiters(key, (machine) => budgetChanged(machine, numbers)));
    this.surge = new SurgeRunner(deps.api, request.nodes, this.clock, this.emit);
    this.surgeOf = surgesByPod(request.surge, request.dryRun);
    this.known = new Set([...request.targets, ...request.skipped].map((pod) => pod.ref.uid));
  }

  async run(): Promise<FinishedEvent> {
    const { request } = this;
    const stopTimer = this.stop.arm(request.signal, request.timeoutMs, this.clock);
    try {
      for (const event of startEvents(request, this.pods.states(), this.clock.now())) this.emit(event);
      this.cordon = await cordonNodes(request, this.deps.api, this.clock, this.emit);
      if (this.cordon.error) return this.finish(this.cordon.error);
      if (request.dryRun === 'server') this.warnings.warn(SERVER_DRY_RUN_WARNING);
      if (request.dryRun === 'client') {
        for (const entry of this.pods.all()) {
          this.pods.update(entry, { ...entry.machine, state: clientDryRunState(entry.target) });
        }
        return this.finish();
      }
      if (request.dryRun === 'none') {
        // The nodes are cordoned, so extra replicas land elsewhere: start them now, while the watches start.
        for (const work of request.surge?.deployments ?? []) void this.surge.ready(work, this.stop.signal);
        await this.watches.start(request.nodes, request.targets, this.clock, this.stop.signal);
        for (const left of request.surge?.restoreFirst ?? [])
          await this.surge.restore(left.namespace, left.name, 'an interrupted drain left it surged');
      }
      try {
        // kubectl lists a node's pods once it is cordoned: a pod bound since the plan read the node is drained
        // too, and one kubectl's filters refuse stops the drain before its first eviction, as kubectl's does.
        if ((await this.takeLatePods()).refused) return this.finish();
        await this.driveInGroups();
        await this.driveLatePods();
      } finally {
        await this.surge.restoreAll(surgeEndReason(this.stop.stoppedBy));
      }
      return this.finish();
    } finally {
      stopTimer.abort();
      this.ended.abort();
      this.watches.stopAll();
    }
  }

  /**
   * Every pod at once (kubectl's way), or, with an eviction order, group after group: a group starts once
   * every pod of the one before is gone (or skipped). A pod that failed holds the later groups back: the
   * order was asked for because they must not go before it.
   */
  private async driveInGroups(): Promise<void> {
    const groups = evictionGroups(this.pods.all());
    if (groups.length <= 1) {
      await Promise.all(this.pods.all().map((entry) => this.drive(entry)));
      return;
    }
    for (const [at, { index, entries }] of groups.entries()) {
      if (this.stop.signal.aborted) return;
      const pods = entries.map((e) => e.target.ref);
      this.emit({ type: 'group', atMs: this.clock.now(), index, of: groups.length, position: at + 1, pods });
      await Promise.all(entries.map((entry) => this.drive(entry)));
      const failed = entries.filter((e) => e.machine.state.phase === 'failed').map((e) => e.target.ref);
      const heldBack = groupHoldsBack(at + 1, groups.length, failed);
      if (heldBack) return this.warnings.warn(heldBack);
    }
  }

  /**
   * Once the drain's pods are gone, its nodes are listed again: a pod bound since (by a scheduler that had
   * not yet seen the cordon) is drained too, up to LATE_LISTS lists; one found by the last list is left,
   * and fails the drain. A drain with a failed pod lists nothing more: it has not drained its nodes anyway.
   */
  private async driveLatePods(): Promise<void> {
    for (let list = 1; list <= LATE_LISTS; list++) {
      if (this.pods.all().some((entry) => entry.machine.state.phase === 'failed')) return;
      const { entries } = await this.takeLatePods(list === LATE_LISTS);
      if (entries.length === 0) return;
      await Promise.all(entries.map((entry) => this.drive(entry)));
    }
  }

  /**
   * Lists the drained nodes' pods and takes on those the drain does not know, as the plan would have
   * treated them: pods to evict (returned, for the caller to drive), pods left alone (said skipped) and
   * pods kubectl's filters refuse (failed, with kubectl's reason). `last`: the pods to evict are failed too.
   */
  private async takeLatePods(last = false): Promise<{ entries: PodEntry[]; refused: boolean }> {
    const { classifyLate, dryRun, nodes } = this.request;
    if (!classifyLate || dryRun !== 'none' || this.stop.signal.aborted) return { entries: [], refused: false };
    let work: LateWork;
    try {
      const nowSeconds = Math.floor(this.clock.now() / 1000);
      work = await findLatePods(this.deps.api, nodes, this.known, classifyLate, nowSeconds);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.warnings.once(
        'list late pods',
        `cannot list the pods of ${nodes.join(', ')} again (${message}): a pod bound since the plan read them is not drained`,
      );
      return { entries: [], refused: false };
    }
    for (const pod of [...work.targets, ...work.skipped, ...work.refused]) this.known.add(pod.ref.uid);
    const joining = last ? [] : work.targets;
    // A refused pod is never driven: its target only carries it into the summary.
    const failing = [
      ...work.refused.map(({ ref, reason }) => ({
        target: { ref, method: 'evict' as const, pdbs: [], ownGraceSeconds: 0 },
        error: `bound to ${ref.node} since the plan: ${reason}`,
      })),
      ...(last ? work.targets : []).map((target) => ({
        target,
        error: `bound to ${target.ref.node} again after ${LATE_LISTS} lists of its pods: something binds pods to it despite the cordon`,
      })),
    ];
    if (joining.length + failing.length > 0) {
      const pods = [...joining, ...failing.map((f) => f.target)].map((t) => t.ref);
      this.emit({ type: 'late-pods', atMs: this.clock.now(), pods });
    }
    for (const { ref, reason } of work.skipped) this.pods.show(ref, { phase: 'skipped', reason });
    for (const { target, error } of failing) {
      const entry = this.pods.add(target);
      this.pods.update(entry, { ...entry.machine, state: { phase: 'failed', error } });
    }
    const entries = joining.map((target) => this.pods.add(target));
    for (const entry of entries) this.pods.show(entry.target.ref, entry.machine.state);
    return { entries, refused: work.refused.length > 0 };
  }

  /**
   * A surged pod waits for its Deployment's extra replicas to be Ready before its first eviction, and its
   * Deployment goes back once every surged pod of it is settled. Other pods are driven at once.
   */
  private async drive(entry: PodEntry): Promise<void> {
    const work = this.surgeOf.get(entry.target.ref.uid);
    if (!work) return this.drivePod(entry);
    await this.surge.ready(work, this.stop.signal);
    await this.drivePod(entry);
    if (surgeSettled(work, (uid) => this.pods.get(uid)?.machine.state))
      await this.surge.restore(work.namespace, work.name);
  }

  /** Runs one pod's machine until it stops, or until the drain stops. */
  private async drivePod(entry: PodEntry): Promise<void> {
    const ref = entry.target.ref;
    const goneSignal = this.gone.track(ref);
    const stopOrGone = AbortSignal.any([this.stop.signal, goneSignal]);
    let action: PodAction = { do: 'request' };
    let holdsSlot = false;
    const release = () => {
      if (holdsSlot) this.slots.release();
      holdsSlot = false;
    };
    try {
      while (action.do !== 'stop' && !this.stop.signal.aborted) {
        if (goneSignal.aborted && entry.machine.state.phase !== 'terminating') {
          action = this.pods.apply(entry, disappeared(entry.machine, entry.config));
          continue;
        }
        switch (action.do) {
          case 'request': {
            if (!holdsSlot) holdsSlot = await this.slots.acquire(stopOrGone);
            if (!holdsSlot) continue; // stopped, or the pod disappeared while queued
            action = await this.send(entry);
            if (action.do !== 'wait-for-gone') release();
            break;
          }
          case 'wait-for-budget': {
            this.watches.watchBudgets(ref.namespace);
            const key = budgetKey(ref.namespace, action.pdb);
            await this.budgets.wait(key, budgetWaitMs(action.fallbackMs, this.msUntilEscalation(entry)), stopOrGone);
            if (this.msUntilEscalation(entry) === 0 && !this.stop.signal.aborted) this.escalate(entry, action.pdb);
            action = { do: 'request' };
            break;
          }
          case 'sleep':
            await this.clock.sleep(action.ms, stopOrGone);
            action = { do: 'request' };
            break;
          case 'wait-for-gone': {
            const how = await this.gone.waitForGone(
              ref,
              this.stop.signal,
              this.request.skipWaitForDeleteTimeoutSeconds,
            );
            if (how === 'gone') action = this.pods.apply(entry, disappeared(entry.machine, entry.config));
            else if (how === 'skip-wait')
              action = this.pods.apply(entry, waitSkipped(entry.machine, this.request.skipWaitForDeleteTimeoutSeconds));
            release();
            break;
          }
        }
      }
    } finally {
      release();
    }
  }

  private msUntilEscalation({ target, config, machine }: PodEntry): number | null {
    const pod = { namespace: target.ref.namespace, method: config.method, waitingSinceMs: machine.waitingSinceMs };
    return msUntilEscalation(this.request.escalation, pod, this.clock.now());
  }

  /** From now on the pod is deleted, not evicted: said in an event of its own, which every view shows as a warning. */
  private escalate(entry: PodEntry, pdb: string): void {
    entry.config = escalatedConfig(entry.config);
    this.emit(escalatingEvent(entry.target.ref, pdb, entry.machine.waitingSinceMs, this.clock.now()));
  }

  /** Sends the eviction (or delete) and feeds the classified answer to the machine. */
  private async send(entry: PodEntry): Promise<PodAction> {
    const { target, config } = entry;
    this.pods.update(entry, requestSent(entry.machine));
    const options = podWriteOptions(target.ref, config, this.request.gracePeriodSeconds);
    const outcome =
      config.method === 'evict' ? await this.deps.api.evict(options) : await this.deps.api.deletePod(options);
    this.warnings.fromServer(target.ref, outcome);
    const budgets = refusedForSeveralBudgets(outcome)
      ? await this.explainer.budgetsNow(target)
      : this.explainer.budgetsOf(target);
    const { namespace, name } = target.ref;
    const step = classifyEviction(outcome, { namespace, name, ...requestWords(config.method), budgets });
    if (step.kind !== 'budget')
      return this.pods.apply(entry, answered(entry.machine, step, this.clock.now(), config, undefined));
    const key = budgetKey(target.ref.namespace, step.pdb);
    const numbers = withStaleStatus(this.budgets.numbers(key), this.statuses.stale(key));
    const action = this.pods.apply(entry, answered(entry.machine, step, this.clock.now(), config, numbers));
    // While a pod waits, count the budget's pods: is its status still following them?
    if (config.dryRun === 'none') void this.statuses.count(key);
    return action;
  }

  private finish(abortedBeforeEvicting?: string): FinishedEvent {
    const event = finishedEvent({
      atMs: this.clock.now(),
      nodes: this.request.nodes,
      dryRun: this.request.dryRun,
      cordoned: this.cordon.cordoned,
      cordonedHere: this.cordon.cordonedHere,
      stoppedBy: abortedBeforeEvicting ? null : this.stop.stoppedBy,
      pods: this.pods.all().map((entry) => ({ ref: entry.target.ref, state: entry.machine.state })),
      abortedBeforeEvicting,
      commands: this.request.commands,
      interruptedBy: typeof this.request.signal?.reason === 'string' ? this.request.signal.reason : undefined,
      timeoutMs: this.request.timeoutMs,
    });
    this.emit(event);
    return event;
  }
}
