import type { V1Node } from '@kubernetes/client-node';
import { backoffDelayMs, type BackoffSchedule } from '../drain/backoff.js';
import type { Clock } from '../drain/clock.js';
import { DrainMarked, DrainMarks } from '../drain/drain-mark.js';
import type { DrainApi } from '../kube/drain-api.js';
import type { ClusterChange, RunApi } from '../kube/run-api.js';
import { budgetKey, budgetOfKey, type BudgetKey } from '../plan/budgets.js';
import { drainTimesOf, type BatchDrainTimes } from '../plan/pool-eta.js';
import type { DrainPlan } from '../plan/types.js';
import type { Snapshot } from '../snapshot/types.js';
import { blockedWithoutBound, drainBatch, planBatch, type BatchDrainResult } from './batch-drain.js';
import { budgetChange, ChangeFeed, nodeChange } from './changes.js';
import { runCommand, type CommandResult } from './command.js';
import { dropResult, keepResult, keptResult, type KeptResult } from './command-log.js';
import { ApiAway, durably } from './durable.js';
import type { NodeState, RunEvent, RunEventBody, RunResult } from './events.js';
import { LeaseLost, writeOwnNode } from './lease-keeper.js';
import { mapLimited } from './parallel.js';
import { RunEta } from './run-eta.js';
import { unsettled, workloadsMoved } from './settled.js';
import { RunWindow, type GroupHooks, type WindowEnd, type WindowSteps } from './window-loop.js';
import {
  ANNOTATION,
  historyWith,
  isFailedPhase,
  lifecycleConditions,
  phaseSeal,
  reached,
  RETURNING,
  trustedPhase,
  UNFINISHED_COMMAND,
  type NodePhase,
  type RunDefinition,
} from './state.js';

export interface RunDeps {
  readonly api: RunApi;
  readonly drain: DrainApi;
  readonly clock: Clock;
  /** A fresh picture of the cluster, read before each batch's drain. */
  readonly loadSnapshot: () => Promise<Snapshot>;
  readonly emit: (event: RunEvent) => void;
  /** Write the node lifecycle conditions on node status (the user may patch nodes/status). */
  readonly writeConditions: boolean;
  readonly kubeconfig?: string | undefined;
  /** The command that continues this run, for the final event. */
  readonly resumeCommand: (rerunCommand: boolean) => string;
  /**
   * --pause: waits for the operator once a batch is drained ('continue'), or says the run stops here
   * ('stop': no terminal to wait on; the nodes stay drained until --resume).
   */
  readonly pause?: { readonly waitingFor: 'key' | 'resume'; readonly wait: () => Promise<'continue' | 'stop'> };
  /** Where the command's output is kept (command-log.ts), said in the first and last events. */
  readonly commandLog?: string | undefined;
  /**
   * Confirms, before each write, that the run still holds its Lease (LeaseKeeper.confirm): throws
   * LeaseLost when it does not, and the run stops there.
   */
  readonly confirmHeld: () => Promise<void>;
  /**
   * Until when (epoch ms) the run's Lease lets it hold its nodes (LeaseKeeper.heldUntil): a write or a read
   * the API server does not answer is tried again until then (durable.ts).
   */
  readonly heldUntil: () => number;
  /** Runs the operator's command (runCommand; replaceable only to observe it). */
  readonly runCommand?: typeof runCommand;
}

export interface RunControl {
  /**
   * Stops the run (a first Ctrl-C): nothing new starts, drains stop evicting, waits end; commands already
   * running go on to their end and their outcome is recorded. Every node stays in its recorded phase.
   */
  readonly signal: AbortSignal;
  /** Kills the commands still running (a second Ctrl-C): their nodes stay in phase command-running. */
  readonly killCommands: AbortSignal;
  /** --resume --rerun-command: run the command again on nodes whose command did not finish or failed. */
  readonly rerunCommand: boolean;
  readonly resumed: boolean;
  readonly holder: string;
}

/**
 * How often the run reads what it waits for (a node's return, budgets, the cluster settling) when nothing
 * it watches has changed (ChangeFeed): a change wakes a wait at once, the timer is the fallback should a
 * watch be late or down. A node or a budget is one small GET; a fresh plan reads a whole snapshot. The
 * reads of a node or a budget back off (250 ms, doubled up to 5 s): a wait whose watch is down never
 * turns into a GET every 250 ms.
 */
const POLL: BackoffSchedule = { initialMs: 250, factor: 2, maxMs: 5_000 };
const SETTLE_POLL_MS = 1000;
/** A fresh plan woken by changes reads a snapshot at most this often: a busy cluster changes all the time. */
const REPLAN_MIN_MS = 200;

/** A batch with nothing left to drain (resumed past its drain), or without a recorded estimate. */
const NO_DRAIN: BatchDrainTimes = { drainSeconds: 0, replacementsReadySeconds: 0 };

/**
 * Drives a run batch by batch: cordon and drain (the drain engine), the operator's command once per node,
 * the node's return (Ready, and a new bootID with --expect-reboot), uncordon, and the batch's budgets back
 * to where they were before the next batch starts. Each node's phase is written to the node before the
 * step starts, so an interruption leaves every node in a recorded phase and a resume starts each node at
 * that phase. A failed step leaves its node cordoned and stops the run after the batch (--keep-going: goes
 * on with the next batches); a node whose command failed is never uncordoned.
 */
export async function runPool(definition: RunDefinition, control: RunControl, deps: RunDeps): Promise<RunEvent> {
  const run = new PoolRun(definition, control, deps);
  return run.run();
}

class PoolRun {
  private readonly phases = new Map<string, { batch: number; phase: NodePhase; problem?: string | undefined }>();
  private readonly eta: RunEta;
  /** Nodes found drained when the run (a resume) started: their pause is over, --resume said go on. */
  private readonly drainedBefore = new Set<string>();
  private paused = false;
  /** The sliding window over the plan's order: what is in flight and what is held (window-loop.ts). */
  private readonly window: RunWindow;
  /** Nodes known to be cordoned: found so when the run started, cordoned by its drains, not yet uncordoned. */
  private readonly cordoned = new Set<string>();
  /** Workloads whose pods this process's drains moved (namespace/Kind/name): the next plan waits for them. */
  private readonly moved = new Set<string>();
  private readonly changes = new ChangeFeed();
  /** Every node of the run: a change to one of them may unblock a fresh plan. */
  private readonly runNodes: ReadonlySet<string>;
  /** Nodes whose command is running now. */
  private readonly commandsRunning = new Set<string>();
  /** Why the command could not start, once it could not: the run stops. */
  private cannotStart: string | undefined;
  /** Command results this machine kept for a node still recorded command-running: a resume writes them. */
  private readonly keptResults = new Map<string, KeptResult>();

  constructor(
    private readonly definition: RunDefinition,
    private readonly control: RunControl,
    private readonly deps: RunDeps,
  ) {
    this.eta = new RunEta(definition.estimates, definition.commandSeconds);
    this.runNodes = new Set(definition.batches.flat());
    this.window = new RunWindow(definition.batches, definition.options.keepGoing, this.windowSteps());
  }

  async run(): Promise<RunEvent> {
    const { definition, control } = this;
    await this.readPhases();
    this.emit({
      type: 'run-started',
      runId: definition.id,
      holder: control.holder,
      batches: definition.batches,
      command: definition.command,
      resumed: control.resumed,
      commandLog: this.commandLog,
      phases: Object.fromEntries(definition.batches.flat().map((node) => [node, this.phaseOf(node)])),
    });
    await this.writeKeptResults();
    const first = definition.batches.findIndex((nodes) => !nodes.every((n) => this.phaseOf(n) === 'done'));
    if (first >= 0) this.emitEta(first + 1, 'started', definition.estimates?.batches[first] ?? null);
    const watch = this.deps.api.watchChanges((change) => this.changes.changed(change));
    const told = this.tellInterrupts();
    try {
      return await this.afterWindow(this.window, await this.window.run(definition.options.pause === true));
    } finally {
      told.dispose();
      watch.stop();
    }
  }

  /** The window's end, said: every node where it is, how to go on, and the error or result. */
  private async afterWindow(window: RunWindow, { failed, error }: WindowEnd): Promise<RunEvent> {
    // A run that lost its Lease was stopped by it (LeaseKeeper aborts): it ends as failed, with the reason.
    const lost = this.control.signal.reason instanceof LeaseLost ? this.control.signal.reason : undefined;
    const ended = error ?? (lost ? { err: lost } : undefined);
    if (ended) {
      // Where every node is (its last recorded phase) and how to go on, before the error itself.
      await this.finish('failed', ended.err instanceof LeaseLost);
      throw ended.err;
    }
    if (this.aborted) return this.finish('interrupted');
    if (this.paused) return this.finish('paused');
    // Batches the run stopped in (not all their nodes started, or after one that did not finish) end too, in order.
    for (const { batch, ok } of window.stoppedBatches()) this.emit({ type: 'batch-finished', batch, ok });
    return this.finish(failed ? 'failed' : 'done');
  }

  /** What the window asks of the node steps. */
  private windowSteps(): WindowSteps {
    return {
      runGroup: (batch, nodes, hooks) => this.runGroup(batch, nodes, hooks),
      phaseOf: (node) => this.phaseOf(node),
      isCordoned: (node) => this.cordoned.has(node),
      halted: () => this.aborted || this.paused || this.cannotStart !== undefined,
      stopping: () => this.aborted || this.paused,
      emit: (event) => this.emit(event),
      batchFinished: (batch, ok) => {
        this.emit({ type: 'batch-finished', batch, ok });
        this.emitEta(batch, 'finished', null);
      },
      untilRetry: async (since, slotFreed) => {
        await this.changeOrTimeout(
          SETTLE_POLL_MS,
          (change) => change.kind === 'pdb' || this.runNodes.has(change.name),
          (signal) => slotFreed.next(signal),
        );
        await this.notSooner(since);
      },
      now: () => this.deps.clock.now(),
    };
  }

  /** Says, at each Ctrl-C, which commands run on (the first) or are killed (the second). */
  private tellInterrupts(): { dispose: () => void } {
    const { signal, killCommands } = this.control;
    const tell = (step: 'stop' | 'kill') => () =>
      this.emit({ type: 'interrupt', step, commands: [...this.commandsRunning] });
    const onStop = tell('stop');
    const onKill = tell('kill');
    signal.addEventListener('abort', onStop, { once: true });
    killCommands.addEventListener('abort', onKill, { once: true });
    return {
      dispose: () => {
        signal.removeEventListener('abort', onStop);
        killCommands.removeEventListener('abort', onKill);
      },
    };
  }

  private get commandLog(): string | null {
    return this.definition.command.length > 0 ? (this.deps.commandLog ?? null) : null;
  }

  private get aborted(): boolean {
    return this.control.signal.aborted;
  }

  /**
   * A group of one batch's nodes (the whole batch in lockstep) through drain, command, return and the
   * budgets' recovery; true when every node is back in service and the budgets too. 'passed-over' when its
   * fresh plan was blocked while other nodes were out and the window had others to try (nothing written).
   */
  private async runGroup(batch: number, nodes: readonly string[], hooks: GroupHooks): Promise<boolean | 'passed-over'> {
    // 1. Drain the nodes not yet drained (a resumed run drains again: it is idempotent). A node whose
    // command failed or that did not come back was drained: a resume goes on from its command or its return.
    const toDrain = nodes.filter((n) => needsDrain(this.phaseOf(n)));
    let budgetsBefore: ReadonlyMap<BudgetKey, number> = new Map();
    let times: BatchDrainTimes = this.definition.estimates?.batches[batch - 1] ?? NO_DRAIN;
    if (toDrain.length > 0) {
      const fresh = await this.settledPlan(toDrain, nodes.length, hooks.passOver);
      if (fresh === 'passed-over') return fresh;
      const { snapshot, plan, blocked } = fresh;
      if (this.aborted) return false;
      times = drainTimesOf(plan);
      this.emitEta(batch, 'started', times);
      if (blocked) {
        // Neither cordoned nor drained: these nodes leave the window. Nodes of the group a resume found
        // drained go on with their command and return.
        await mapLimited(toDrain, (node) => this.setPhase(node, batch, 'drain-failed', blocked));
        for (const node of toDrain) hooks.nodeDone(node);
        if (toDrain.length === nodes.length) return false;
      } else {
        budgetsBefore = await this.drainStep(batch, toDrain, snapshot, plan, hooks);
        if (this.aborted) return false;
      }
    }
    if (!(await this.pauseStep(batch, nodes))) return false;
    // 2. The operator's command, once per node, all nodes of the batch at once.
    this.emitEta(batch, 'drained', times);
    const commandStarted = this.deps.clock.now();
    hooks.planned();
    // 3. Back in service: Ready again, then uncordon; each node's slot is free once it is.
    const commands = await mapLimited(
      nodes,
      async (node) => {
        const ran = await this.commandStep(batch, node);
        if (!this.aborted) await this.returnStep(batch, node);
        if (!this.aborted && !this.cannotStart) hooks.nodeDone(node);
        return ran;
      },
      nodes.length,
    );
    if (this.cannotStart) throw new CommandCannotStart(this.cannotStart);
    if (this.aborted) return false;
    if (commands.includes('ran') && nodes.every((n) => this.phaseOf(n) === 'done')) {
      this.eta.recordCommand((this.deps.clock.now() - commandStarted) / 1000);
    }
    // 4. The budgets the batch touched back to where they were, so the next drain does not stall.
    const budgetsOk = await this.waitForBudgets(batch, budgetsBefore);
    return budgetsOk && nodes.every((n) => !isFailedPhase(this.phaseOf(n)));
  }

  /** Cordons and drains the nodes from their fresh plan; the budgets they touched, with their disruptionsAllowed before. */
  private async drainStep(
    batch: number,
    toDrain: readonly string[],
    snapshot: Snapshot,
    plan: DrainPlan,
    hooks: GroupHooks,
  ): Promise<ReadonlyMap<BudgetKey, number>> {
    // Marked as `kubectl maint drain` marks its nodes, naming the run: a drain started meanwhile refuses.
    const marks = new DrainMarks(this.deps.api, this.control.holder, () => this.deps.clock.now(), this.definition.id);
    const marking = `the drain of ${toDrain.join(', ')} starts once its drain marks are written`;
    const refused = await durably(() => marks.take(toDrain), this.durability(marking)).then(
      () => null,
      (err: unknown) => {
        if (err instanceof DrainMarked) return err.message.replace(/: nothing was changed$/, '');
        throw err;
      },
    );
    if (refused !== null) {
      // Another drain works on a node of the group: neither cordoned nor drained, for a resume to drain.
      await mapLimited(toDrain, (node) => this.setPhase(node, batch, 'drain-failed', refused));
      hooks.planned();
      return new Map();
    }
    // The next group is planned once these nodes are cordoned: its plan must see them out of service.
    const cordoned = new Set<string>();
    let drained: BatchDrainResult;
    try {
      await mapLimited(toDrain, (node) => this.setPhase(node, batch, 'draining'));
      drained = await drainBatch(snapshot, plan, toDrain, this.definition.options, {
        api: this.deps.drain,
        emit: (event) => {
          if (event.type === 'cordoned' && !event.dryRun) {
            this.cordoned.add(event.node);
            if (cordoned.add(event.node).size === toDrain.length) hooks.planned();
          }
          this.emit({ type: 'drain', batch, nodes: toDrain, event });
        },
        signal: this.control.signal,
      });
    } finally {
      await marks.release().catch(() => undefined);
    }
    hooks.planned();
    for (const workload of workloadsMoved(plan)) this.moved.add(workload);
    if (this.aborted) return drained.budgetsBefore;
    await mapLimited(toDrain, (node) => {
      const problem = drained.notDrained.get(node);
      return this.setPhase(node, batch, problem ? 'drain-failed' : 'drained', problem);
    });
    return drained.budgetsBefore;
  }

  /**
   * The batch's fresh plan, and why it is blocked when it is (null otherwise). A blocked plan is trusted
   * only once the cluster has settled after the earlier batches (their nodes free of the not-ready taint,
   * the workloads they moved all Ready) or --budget-timeout has passed: until then it is planned again.
   * Blocked while other nodes are out, it is 'passed-over' when `passOver` says the window has others to
   * try; otherwise it plans again here.
   */
  private async settledPlan(
    nodes: readonly string[],
    slots: number,
    passOver: () => boolean,
  ): Promise<{ snapshot: Snapshot; plan: DrainPlan; blocked: string | null } | 'passed-over'> {
    const { clock } = this.deps;
    let deadline = clock.now() + this.definition.options.budgetTimeoutMs;
    // What a blocked plan waits for shows on the run's nodes (back, taints lifted) or on its budgets.
    for (;;) {
      const returned = new Set([...this.phases].filter(([, s]) => reached(s.phase, 'returned')).map(([n]) => n));
      const read = clock.now();
      const inFlightAtRead = this.window.inFlight;
      const snapshot = await this.deps.loadSnapshot();
      const plan = planBatch(snapshot, nodes, this.definition.options, clock.now());
      const blocked = blockedWithoutBound(plan, this.definition.options);
      // A node of the window came back while the cluster was read: the snapshot may show it still cordoned,
      // and `returned` above does not name it, so the settled check below would trust a plan made without
      // it. Read again.
      if (blocked && inFlightAtRead > slots && this.window.inFlight <= slots) continue;
      const budgets = budgetChange(new Set(plan.budgets.map((b) => budgetKey(b.namespace, b.name))));
      const relevant = (change: ClusterChange) =>
        budgets(change) || (change.kind === 'node' && this.runNodes.has(change.name));
      if (blocked && this.window.inFlight > slots) {
        if (passOver()) return 'passed-over';
        // Other nodes of the window are out, and their drains move pods meanwhile: plan again once one of
        // them is back, or its budgets or nodes change (a replacement of theirs became Ready), or a moment later.
        const woken = await this.changeOrTimeout(SETTLE_POLL_MS, relevant, (signal) =>
          this.window.slotFreed.next(signal),
        );
        if (!woken) return { snapshot, plan, blocked };
        await this.notSooner(read);
        deadline = clock.now() + this.definition.options.budgetTimeoutMs;
        continue;
      }
      if (
        !blocked ||
        clock.now() >= deadline ||
        unsettled(snapshot, returned, this.moved, this.definition.id).length === 0
      ) {
        return { snapshot, plan, blocked };
      }
      // A whole snapshot per read: on a change of what it waits for, or now and then.
      if (!(await this.changeOrTimeout(SETTLE_POLL_MS, relevant))) return { snapshot, plan, blocked };
      await this.notSooner(read);
    }
  }

  /**
   * Until a change `wants` accepts, `also` resolves or `ms` pass, whichever comes first; false when the run
   * is aborted. The waits that lose the race are dropped.
   */
  private async changeOrTimeout(
    ms: number,
    wants: (change: ClusterChange) => boolean,
    also?: (signal: AbortSignal) => Promise<boolean>,
  ): Promise<boolean> {
    const done = new AbortController();
    const stop = () => done.abort();
    this.control.signal.addEventListener('abort', stop, { once: true });
    try {
      return await Promise.race([
        this.changes.next(done.signal, wants),
        this.deps.clock.sleep(ms, done.signal),
        ...(also ? [also(done.signal)] : []),
      ]);
    } finally {
      this.control.signal.removeEventListener('abort', stop);
      done.abort();
    }
  }

  /** Waits out what is left of REPLAN_MIN_MS since `since` (a snapshot read started then). */
  private async notSooner(since: number): Promise<void> {
    const left = since + REPLAN_MIN_MS - this.deps.clock.now();
    if (left > 0) await this.deps.clock.sleep(left, this.control.signal);
  }

  /**
   * --pause: once the batch is drained, the operator's turn. Nodes drained by this process wait (a key on
   * a terminal; otherwise the run stops, to be continued by --resume); nodes a resume found drained go on.
   * False when the run stops here.
   */
  private async pauseStep(batch: number, nodes: readonly string[]): Promise<boolean> {
    if (!this.definition.options.pause || this.definition.command.length > 0) return true;
    const waiting = nodes.filter((n) => this.phaseOf(n) === 'drained' && !this.drainedBefore.has(n));
    if (waiting.length === 0) return true;
    const pause = this.deps.pause ?? { waitingFor: 'resume' as const, wait: async () => 'stop' as const };
    this.emit({
      type: 'paused',
      batch,
      nodes: waiting,
      waitingFor: pause.waitingFor,
      resumeCommand: this.deps.resumeCommand(false),
    });
    const answer = await pause.wait();
    if (answer === 'stop') this.paused = true;
    return answer === 'continue' && !this.aborted;
  }

  /** Runs the command on the node when its phase calls for it; 'ran' when it did (whatever its outcome). */
  private async commandStep(batch: number, node: string): Promise<'ran' | 'not-run'> {
    const phase = this.phaseOf(node);
    const rerun = this.control.rerunCommand && UNFINISHED_COMMAND.has(phase);
    if ((phase !== 'drained' && !rerun) || this.aborted) return 'not-run';
    if (this.definition.command.length === 0) {
      await this.setPhase(node, batch, 'command-done');
      return 'not-run';
    }
    // With --expect-reboot, the bootID before the command is recorded with the phase, in the same write.
    const bootId = this.definition.options.expectReboot
      ? ((await this.read(`node ${node}`, () => this.deps.api.readNode(node))).status?.nodeInfo?.bootID ?? '')
      : undefined;
    await this.setPhase(node, batch, 'command-running', undefined, {
      annotations: bootId === undefined ? {} : { [ANNOTATION.bootId]: bootId },
    });
    this.commandsRunning.add(node);
    const result: CommandResult = await (this.deps.runCommand ?? runCommand)({
      argv: this.definition.command,
      node,
      runId: this.definition.id,
      cwd: this.definition.commandDir,
      kubeconfig: this.deps.kubeconfig,
      timeoutMs: this.definition.options.commandTimeoutMs,
      // A first Ctrl-C lets the command finish: an operator's reboot or firmware flash cut off mid-way
      // leaves the node worse off than either end. Only a second one kills it.
      signal: this.control.killCommands,
      onLine: (stream, line) => this.emit({ type: 'command-output', node, stream, line }),
    }).finally(() => this.commandsRunning.delete(node));
    if (result.cannotStart) {
      // Not the node's failure: the command itself is gone. The node is drained, as before the attempt,
      // and the run stops with one line (runGroup).
      await this.setPhase(node, batch, 'drained');
      this.cannotStart ??= `command ${this.definition.command[0]} cannot start on node ${node}: ${result.cannotStart}`;
      return 'not-run';
    }
    this.emit({ type: 'command-finished', node, exitCode: result.exitCode, failure: result.failure });
    if (result.interrupted) {
      // Killed by a second Ctrl-C: a phase of its own, so the summary, `runs` and a resume say so.
      await this.setPhase(node, batch, 'command-killed', 'command killed (interrupted)');
      return 'ran';
    }
    // Kept on this machine until it is written: a write the API server does not take (away, or this
    // process gone first) never turns a command that ran into one a resume would call interrupted.
    const kept: KeptResult = {
      runId: this.definition.id,
      node,
      exitCode: result.exitCode,
      failure: result.failure,
      at: new Date(this.deps.clock.now()).toISOString(),
    };
    const dir = this.deps.commandLog;
    if (dir) keepResult(dir, kept);
    await this.writeResult(batch, kept);
    if (dir) dropResult(dir, node);
    return 'ran';
  }

  /** The command's result as the node's phase (command-done or command-failed). */
  private writeResult(batch: number, kept: KeptResult): Promise<void> {
    const { node, failure } = kept;
    const what = { kept: `the result of ${node}'s command (${failure ?? 'exit 0'})` };
    return failure
      ? this.setPhase(node, batch, 'command-failed', `command ${failure}`, what)
      : this.setPhase(node, batch, 'command-done', undefined, what);
  }

  /**
   * A resume on the machine that kept a command's result it could not write (the API server away, or the
   * process gone): written now, and the command is not run again.
   */
  private async writeKeptResults(): Promise<void> {
    await mapLimited([...this.keptResults.values()], async (kept) => {
      const batch = this.phases.get(kept.node)?.batch ?? 1;
      this.emit({
        type: 'warning',
        message: `node "${kept.node}": its command ended (${kept.failure ?? 'exit 0'}) at ${kept.at}, a result this machine kept because it could not be written then: written now, and the command is not run again`,
      });
      await this.writeResult(batch, kept);
      if (this.deps.commandLog) dropResult(this.deps.commandLog, kept.node);
    });
  }

  /** The ETA now, at a step of `batch`: that batch's time left and the batches after it not yet done. */
  private emitEta(batch: number, step: 'started' | 'drained' | 'finished', times: BatchDrainTimes | null): void {
    const later = this.definition.batches
      .map((nodes, i) => ({ nodes, number: i + 1 }))
      .filter((b) => b.number > batch && !b.nodes.every((n) => this.phaseOf(n) === 'done'))
      .map((b) => b.number);
    this.emit({ type: 'eta', batch, ...this.eta.at(step, times, later) });
  }

  private async returnStep(batch: number, node: string): Promise<void> {
    const phase = this.phaseOf(node);
    // not-returned: a resume waits for the node again (its command ran; it is not run again).
    if (!RETURNING.has(phase)) return;
    if (phase !== 'returned') {
      await this.setPhase(node, batch, 'returning');
      const back = await this.waitUntilBack(node);
      if (back === 'aborted') return;
      if (back !== 'back') return this.setPhase(node, batch, 'not-returned', back);
      await this.setPhase(node, batch, 'returned');
    }
    // Uncordoned and done in one write: a node is never left uncordoned in phase returned, nor done and
    // cordoned. Its maintenance is over: the autoscaler annotations the run's cordon set go with it.
    await this.setPhase(node, batch, 'done', undefined, {
      uncordon: this.definition.options.uncordon,
      releaseAutoscalers: true,
    });
    if (this.definition.options.uncordon) this.cordoned.delete(node);
  }

  /** Until the node is Ready (and, with --expect-reboot, reports another bootID than before the command). */
  private async waitUntilBack(node: string): Promise<'back' | 'aborted' | string> {
    const { clock } = this.deps;
    const deadline = clock.now() + this.definition.options.nodeReadyTimeoutMs;
    let last: V1Node | undefined;
    for (let reads = 0; ; reads += 1) {
      try {
        last = await this.read(`node ${node}`, () => this.deps.api.readNode(node), this.control.signal);
      } catch (err) {
        if (this.aborted) return 'aborted';
        throw err;
      }
      if (isBack(last, this.definition.options.expectReboot)) return 'back';
      if (clock.now() >= deadline) break;
      if (!(await this.changeOrTimeout(backoffDelayMs(POLL, reads), nodeChange(node)))) return 'aborted';
    }
    const seconds = Math.round(this.definition.options.nodeReadyTimeoutMs / 1000);
    return this.definition.options.expectReboot && isReady(last)
      ? `still reports the bootID it had before the command after ${seconds}s (--expect-reboot)`
      : `not Ready after ${seconds}s (--node-ready-timeout)`;
  }

  /** Until every budget the batch drained is back to its disruptionsAllowed from before the batch. */
  private async waitForBudgets(batch: number, before: ReadonlyMap<BudgetKey, number>): Promise<boolean> {
    if (before.size === 0) return true;
    const { clock } = this.deps;
    const deadline = clock.now() + this.definition.options.budgetTimeoutMs;
    let reported = '';
    for (let reads = 0; ; reads += 1) {
      const short: Array<{ name: string; before: number; now: number }> = [];
      for (const [name, allowed] of before) {
        const { namespace, name: pdbName } = budgetOfKey(name);
        const pdb = await this.read(`budget ${name}`, () => this.deps.api.readPdb(namespace, pdbName));
        const now = pdb?.status?.disruptionsAllowed ?? allowed;
        const current = (pdb?.status?.observedGeneration ?? 0) >= (pdb?.metadata?.generation ?? 0);
        if (pdb && (now < allowed || !current)) short.push({ name, before: allowed, now });
      }
      if (short.length === 0) return true;
      const text = JSON.stringify(short);
      if (text !== reported) this.emit({ type: 'budgets-waiting', batch, budgets: short });
      reported = text;
      if (clock.now() >= deadline) {
        const names = short.map((b) => `${b.name} (${b.now} of ${b.before} allowed)`).join(', ');
        this.emit({ type: 'warning', message: `batch ${batch}: budgets not back after the batch: ${names}` });
        return false;
      }
      if (!(await this.changeOrTimeout(backoffDelayMs(POLL, reads), budgetChange(before)))) return false;
    }
  }

  private async readPhases(): Promise<void> {
    const batchOf = this.definition.batches.flatMap((nodes, i) => nodes.map((node) => ({ node, batch: i + 1 })));
    const read = await mapLimited(batchOf, ({ node }) => this.deps.api.readNode(node));
    const released = new Set(this.definition.released ?? []);
    for (const [i, { node, batch }] of batchOf.entries()) {
      // Released done when the run stopped: another run or a drain may have it now; it stays done here.
      if (released.has(node)) {
        this.phases.set(node, { batch, phase: 'done' });
        continue;
      }
      const { phase, distrusted } = trustedPhase(read[i]!, this.definition);
      const kept =
        phase === 'command-running' && this.deps.commandLog
          ? keptResult(this.deps.commandLog, this.definition.id, node)
          : null;
      if (kept) this.keptResults.set(node, kept);
      if (distrusted) {
        this.emit({
          type: 'warning',
          message: `node "${node}": its phase "${distrusted}" was not written by run ${this.definition.id} (edited by hand?): not trusted, the node starts over (drained again, its command run again)`,
        });
      }
      this.phases.set(node, { batch, phase });
      if (phase === 'drained') this.drainedBefore.add(node);
      if (read[i]!.spec?.unschedulable) this.cordoned.add(node);
      // A node a resume finds out of service (mid-way, or failed and still cordoned) counts against the window.
      if (this.cordoned.has(node) && phase !== 'pending' && phase !== 'done') this.window.held.add(node);
    }
  }

  private phaseOf(node: string): NodePhase {
    return this.phases.get(node)?.phase ?? 'pending';
  }

  /**
   * Records the phase on the node (annotation, and the lifecycle conditions where allowed), then tells the
   * listeners: only while the run holds its Lease and the node is still its own (else LeaseLost, nothing
   * written). `also`: annotations written with the phase, and the uncordon, in the same request.
   */
  async setPhase(
    node: string,
    batch: number,
    phase: NodePhase,
    problem?: string,
    also: {
      readonly annotations?: Readonly<Record<string, string>>;
      readonly uncordon?: boolean;
      readonly releaseAutoscalers?: boolean;
      /** What the write records, in the words of the warning when the API server is away. */
      readonly kept?: string;
    } = {},
  ): Promise<void> {
    const nowIso = new Date(this.deps.clock.now()).toISOString();
    const { sealKey } = this.definition;
    const write = async () => {
      await this.deps.confirmHeld();
      // The phase, then the conditions: sent at once, the status patch would change the node under the
      // phase's write, guarded by the node's resourceVersion, and send it back for a read and another try.
      await writeOwnNode(
        this.deps.api,
        this.definition.id,
        node,
        (read) => ({
          ...also.annotations,
          [ANNOTATION.phase]: phase,
          [ANNOTATION.since]: nowIso,
          [ANNOTATION.history]: historyWith(read, phase, nowIso),
          ...(sealKey ? { [ANNOTATION.seal]: phaseSeal(sealKey, this.definition.id, node, phase, nowIso) } : {}),
        }),
        { uncordon: also.uncordon === true, releaseAutoscalers: also.releaseAutoscalers === true },
      );
      if (this.deps.writeConditions) await this.deps.api.setNodeConditions(node, lifecycleConditions(phase, nowIso));
    };
    const before = STEP_STARTS.get(phase);
    const what = before
      ? `${node}'s ${before} starts once its phase ${phase} is written`
      : `${also.kept ?? `${node}'s phase ${phase}`} is kept and will be written`;
    try {
      await durably(write, this.durability(what));
    } catch (err) {
      // Where the node really is: a step that had not started left it where it was; a step that ended, at its end.
      if (err instanceof ApiAway && !before) {
        this.phases.set(node, { batch, phase, problem: joined(problem, NOT_WRITTEN) });
      } else if (err instanceof ApiAway) {
        const was = this.phases.get(node);
        if (was) this.phases.set(node, { ...was, problem: joined(was.problem, `${phase}: ${NOT_WRITTEN}`) });
      }
      throw err;
    }
    this.phases.set(node, { batch, phase, problem });
    this.emit({ type: 'phase', node, batch, phase, problem });
  }

  /** A read the run needs, tried again while the API server is away and the run's Lease holds. */
  private read<T>(what: string, attempt: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    return durably(attempt, { ...this.durability(`reading ${what} again once it answers`), signal });
  }

  /** How a write or a read outlasts an API server that is away (durable.ts); `what` names what waits. */
  private durability(what: string) {
    return {
      clock: this.deps.clock,
      heldUntil: this.deps.heldUntil,
      onAway: (reason: string, seconds: number) =>
        this.emit({
          type: 'warning',
          message: `API server unreachable: ${what} (trying again for up to ${seconds}s, while the run's Lease holds its nodes): ${reason}`,
        }),
    };
  }

  /** The final event. `lost`: the run lost its hold, and no resume command would continue it. */
  private async finish(result: RunResult, lost = false): Promise<RunEvent> {
    const nodes: NodeState[] = [...this.phases].map(([node, s]) => ({
      node,
      batch: s.batch,
      phase: s.phase,
      problem: s.problem,
    }));
    const needsRerun = nodes.some((n) => UNFINISHED_COMMAND.has(n.phase));
    const event: RunEvent = {
      type: 'run-finished',
      atMs: this.deps.clock.now(),
      runId: this.definition.id,
      result,
      nodes,
      resumeCommand: result === 'done' || lost ? null : this.deps.resumeCommand(needsRerun),
      commandLog: this.commandLog,
      commandSeconds: this.eta.measuredSeconds(),
    };
    this.deps.emit(event);
    return event;
  }

  private emit(event: RunEventBody): void {
    this.deps.emit({ ...event, atMs: this.deps.clock.now() } as RunEvent);
  }
}

/** Phases written before a step starts, and the step: a write the API server never took means it never started. */
const STEP_STARTS: ReadonlyMap<NodePhase, string> = new Map<NodePhase, string>([
  ['draining', 'drain'],
  ['command-running', 'command'],
  ['returning', 'wait to be back'],
  ['done', 'uncordon'],
]);

const NOT_WRITTEN = "not written to the cluster: the API server did not answer before the run's Lease expired";

const joined = (a: string | undefined, b: string) => (a ? `${a}; ${b}` : b);

/** The operator's command could not start: the run stops, every node in its recorded phase. */
export class CommandCannotStart extends Error {}

/** Whether a resumed (or fresh) node is drained first: not yet drained, or its drain failed. */
function needsDrain(phase: NodePhase): boolean {
  return phase === 'drain-failed' || (!isFailedPhase(phase) && !reached(phase, 'drained'));
}

function isReady(node: V1Node | undefined): boolean {
  return (node?.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/**
 * Ready, and with --expect-reboot another bootID than before the command. The not-ready taint the node
 * lifecycle controller lifts a moment later (1-2 s in the lab) is not waited for here: only a fresh plan
 * that is blocked waits for it (settledPlan), the other drains go on meanwhile.
 */
function isBack(node: V1Node, expectReboot: boolean): boolean {
  if (!isReady(node)) return false;
  if (!expectReboot) return true;
  const before = node.metadata?.annotations?.[ANNOTATION.bootId];
  return before === undefined || node.status?.nodeInfo?.bootID !== before;
}
