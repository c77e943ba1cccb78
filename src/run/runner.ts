import type { BatchDrainTimes } from '../plan/pool-eta.js';
import { drainTimesOf } from '../plan/pool-eta.js';
import type { BudgetKey } from '../plan/budgets.js';
import { waitForBudgets } from './budget-recovery.js';
import { ChangeFeed } from './changes.js';
import { commandStep, writeKeptResults, type CommandStep } from './command-step.js';
import { keptResult, type KeptResult } from './command-log.js';
import { drainStep, freshPlan, needsDrain, type DrainStep } from './drain-step.js';
import type { RunEvent, RunEventBody, RunResult } from './events.js';
import { LeaseLost } from './lease-keeper.js';
import { mapLimited } from './parallel.js';
import { pauseStep } from './pause-step.js';
import { PhaseStore, startingPhases } from './phase-store.js';
import { returnStep } from './return-step.js';
import { RunEta } from './run-eta.js';
import { RunWaits, SETTLE_POLL_MS, type RunControl, type RunDeps } from './step-context.js';
import { isFailedPhase, UNFINISHED_COMMAND, type RunDefinition } from './state.js';
import { RunWindow, type GroupHooks, type WindowEnd, type WindowSteps } from './window-loop.js';

export type { RunControl, RunDeps } from './step-context.js';

/** A batch with nothing left to drain (resumed past its drain), or without a recorded estimate. */
const NO_DRAIN: BatchDrainTimes = { drainSeconds: 0, replacementsReadySeconds: 0 };

/**
 * Drives a run batch by batch: cordon and drain (the drain engine), the operator's command once per node,
 * the node's return (Ready, and a new bootID with --expect-reboot), uncordon, and the batch's budgets back
 * to where they were (the window may start the next batch meanwhile: window-loop.ts). Each node's phase is written to the node before the
 * step starts, so an interruption leaves every node in a recorded phase and a resume starts each node at
 * that phase. A failed step leaves its node cordoned and stops the run after the batch (--keep-going: goes
 * on with the next batches); a node whose command failed is never uncordoned.
 */
export async function runPool(definition: RunDefinition, control: RunControl, deps: RunDeps): Promise<RunEvent> {
  const run = new PoolRun(definition, control, deps);
  return run.run();
}

class PoolRun implements DrainStep, CommandStep {
  readonly phases: PhaseStore;
  readonly waits: RunWaits;
  private readonly eta: RunEta;
  /** Nodes found drained when the run (a resume) started: their pause is over, --resume said go on. */
  private readonly drainedBefore = new Set<string>();
  private paused = false;
  /** The sliding window over the plan's order: what is in flight and what is held (window-loop.ts). */
  readonly window: RunWindow;
  /** Nodes known to be cordoned: found so when the run started, cordoned by its drains, not yet uncordoned. */
  readonly cordoned = new Set<string>();
  /** Workloads whose pods this process's drains moved (namespace/Kind/name): the next plan waits for them. */
  readonly moved = new Set<string>();
  private readonly changes = new ChangeFeed();
  readonly runNodes: ReadonlySet<string>;
  /** Nodes whose command is running now. */
  readonly commandsRunning = new Set<string>();
  /** Why the command could not start, once it could not: the run stops. */
  private cannotStart: string | undefined;
  /** Command results this machine kept for a node still recorded command-running: a resume writes them. */
  private readonly keptResults: KeptResult[] = [];

  constructor(
    readonly definition: RunDefinition,
    readonly control: RunControl,
    readonly deps: RunDeps,
  ) {
    this.eta = new RunEta(definition.estimates, definition.commandSeconds);
    this.runNodes = new Set(definition.batches.flat());
    this.window = new RunWindow(definition.batches, definition.options.keepGoing, this.windowSteps());
    this.waits = new RunWaits(deps, control.signal, this.changes, this.emit);
    this.phases = new PhaseStore(definition, deps, (what) => this.waits.durability(what), this.emit);
  }

  readonly aborted = (): boolean => this.control.signal.aborted;

  readonly emit = (event: RunEventBody): void => {
    this.deps.emit({ ...event, atMs: this.deps.clock.now() } as RunEvent);
  };

  cannotStartBecause(reason: string): void {
    this.cannotStart ??= reason;
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
      phases: Object.fromEntries(definition.batches.flat().map((node) => [node, this.phases.phaseOf(node)])),
    });
    await writeKeptResults(this, this.keptResults);
    const first = definition.batches.findIndex((nodes) => !nodes.every((n) => this.phases.phaseOf(n) === 'done'));
    if (first >= 0) this.emitEta(first + 1, 'started', definition.estimates?.batches[first] ?? null);
    const watch = this.deps.api.watchChanges((change) => this.changes.changed(change));
    const told = this.tellInterrupts();
    try {
      const end = await this.window.run(definition.options.pause === true);
      await this.phases.settled();
      return await this.afterWindow(this.window, end);
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
      this.finish('failed', ended.err instanceof LeaseLost);
      throw ended.err;
    }
    if (this.aborted()) return this.finish('interrupted');
    if (this.paused) return this.finish('paused');
    // Batches the run stopped in (not all their nodes started, or after one that did not finish) end too, in order.
    for (const { batch, ok } of window.stoppedBatches()) this.emit({ type: 'batch-finished', batch, ok });
    return this.finish(failed ? 'failed' : 'done');
  }

  /** What the window asks of the node steps. */
  private windowSteps(): WindowSteps {
    return {
      runGroup: (batch, nodes, hooks) => this.runGroup(batch, nodes, hooks),
      phaseOf: (node) => this.phases.phaseOf(node),
      isCordoned: (node) => this.cordoned.has(node),
      halted: () => this.aborted() || this.paused || this.cannotStart !== undefined,
      stopping: () => this.aborted() || this.paused,
      emit: (event) => this.emit(event),
      batchFinished: (batch, ok) => {
        this.emit({ type: 'batch-finished', batch, ok });
        this.emitEta(batch, 'finished', null);
      },
      untilRetry: async (since, slotFreed) => {
        const { freed } = await this.waits.changeSlotOrTimeout(
          SETTLE_POLL_MS,
          (change) => change.kind === 'pdb' || this.runNodes.has(change.name),
          slotFreed,
        );
        await this.waits.notSooner(since, !freed);
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

  /**
   * A group of one batch's nodes (the whole batch in lockstep) through drain, command, return and the
   * budgets' recovery; true when every node is back in service and the budgets too. 'passed-over' when its
   * fresh plan was blocked while other nodes were out and the window had others to try (nothing written).
   */
  private async runGroup(batch: number, nodes: readonly string[], hooks: GroupHooks): Promise<boolean | 'passed-over'> {
    // 1. Drain the nodes not yet drained (a resumed run drains again: it is idempotent). A node whose
    // command failed or that did not come back was drained: a resume goes on from its command or its return.
    const toDrain = nodes.filter((n) => needsDrain(this.phases.phaseOf(n)));
    let budgetsBefore: ReadonlyMap<BudgetKey, number> = new Map();
    let times: BatchDrainTimes = this.definition.estimates?.batches[batch - 1] ?? NO_DRAIN;
    if (toDrain.length > 0) {
      const fresh = await freshPlan(this, toDrain, nodes.length, hooks.passOver);
      if (fresh === 'passed-over') return fresh;
      if (this.aborted()) return false;
      times = drainTimesOf(fresh.plan);
      this.emitEta(batch, 'started', times);
      if (fresh.blocked) {
        // Neither cordoned nor drained: these nodes leave the window. Nodes of the group a resume found
        // drained go on with their command and return.
        const blocked = fresh.blocked;
        await mapLimited(toDrain, (node) => this.phases.set(node, batch, 'drain-failed', blocked));
        for (const node of toDrain) hooks.nodeDone(node);
        if (toDrain.length === nodes.length) return false;
      } else {
        budgetsBefore = await drainStep(this, batch, toDrain, fresh, hooks);
        if (this.aborted()) return false;
      }
    }
    const paused = await pauseStep(this, batch, nodes, this.drainedBefore);
    if (paused === 'paused') this.paused = true;
    if (paused !== 'go-on') return false;
    // 2. The operator's command, once per node, all nodes of the batch at once.
    this.emitEta(batch, 'drained', times);
    const commandStarted = this.deps.clock.now();
    hooks.planned();
    // 3. Back in service: Ready again, then uncordon; each node's slot is free once it is.
    const commands = await mapLimited(
      nodes,
      async (node) => {
        const ran = await commandStep(this, batch, node);
        if (!this.aborted()) await returnStep(this, batch, node);
        if (!this.aborted() && !this.cannotStart) hooks.nodeDone(node);
        return ran;
      },
      nodes.length,
    );
    if (this.cannotStart) throw new CommandCannotStart(this.cannotStart);
    if (this.aborted()) return false;
    if (commands.includes('ran') && nodes.every((n) => this.phases.phaseOf(n) === 'done')) {
      this.eta.recordCommand((this.deps.clock.now() - commandStarted) / 1000);
    }
    // 4. The budgets the batch touched back to where they were, so the next drain does not stall.
    const budgetsOk = await waitForBudgets(this, batch, budgetsBefore, hooks.finishing);
    return budgetsOk && nodes.every((n) => !isFailedPhase(this.phases.phaseOf(n)));
  }

  /** The ETA now, at a step of `batch`: that batch's time left and the batches after it not yet done. */
  private emitEta(batch: number, step: 'started' | 'drained' | 'finished', times: BatchDrainTimes | null): void {
    const later = this.definition.batches
      .map((nodes, i) => ({ nodes, number: i + 1 }))
      .filter((b) => b.number > batch && !b.nodes.every((n) => this.phases.phaseOf(n) === 'done'))
      .map((b) => b.number);
    this.emit({ type: 'eta', batch, ...this.eta.at(step, times, later) });
  }

  /** Each node's phase as the run finds it (startingPhases), and what the run keeps of it. */
  private async readPhases(): Promise<void> {
    const { definition, deps } = this;
    const reads = await mapLimited(definition.batches.flat(), (node) => deps.api.readNode(node));
    for (const { node, batch, phase, distrusted, cordoned } of startingPhases(definition, reads)) {
      const kept =
        phase === 'command-running' && deps.commandLog ? keptResult(deps.commandLog, definition.id, node) : null;
      if (kept) this.keptResults.push(kept);
      if (distrusted) {
        this.emit({
          type: 'warning',
          message: `node "${node}": its phase "${distrusted}" was not written by run ${definition.id} (edited by hand?): not trusted, the node starts over (drained again, its command run again)`,
        });
      }
      this.phases.found(node, batch, phase);
      if (phase === 'drained') this.drainedBefore.add(node);
      if (cordoned) this.cordoned.add(node);
      // A node a resume finds out of service (mid-way, or failed and still cordoned) counts against the window.
      if (cordoned && phase !== 'pending' && phase !== 'done') this.window.held.add(node);
    }
  }

  /** The final event. `lost`: the run lost its hold, and no resume command would continue it. */
  private finish(result: RunResult, lost = false): RunEvent {
    const nodes = this.phases.states();
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
}

/** The operator's command could not start: the run stops, every node in its recorded phase. */
export class CommandCannotStart extends Error {}
