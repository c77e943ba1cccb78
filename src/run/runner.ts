import type { V1Node } from '@kubernetes/client-node';
import type { Clock } from '../drain/clock.js';
import type { DrainApi } from '../kube/drain-api.js';
import type { RunApi } from '../kube/run-api.js';
import { drainTimesOf, type BatchDrainTimes } from '../plan/pool-eta.js';
import type { DrainPlan } from '../plan/types.js';
import type { Snapshot } from '../snapshot/types.js';
import { blockedWithoutBound, drainBatch, planBatch } from './batch-drain.js';
import { runCommand, type CommandResult } from './command.js';
import type { NodeState, RunEvent, RunResult } from './events.js';
import { mapLimited } from './parallel.js';
import { RunEta } from './run-eta.js';
import { hasNotReadyTaint, unsettled, workloadsMoved } from './settled.js';
import {
  ANNOTATION,
  isFailedPhase,
  lifecycleConditions,
  nodePhase,
  reached,
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
  /** Runs the operator's command (runCommand; replaceable only to observe it). */
  readonly runCommand?: typeof runCommand;
}

export interface RunControl {
  /** Aborts the run: drains stop evicting, commands are killed, every node stays in its recorded phase. */
  readonly signal: AbortSignal;
  /** --resume --rerun-command: run the command again on nodes whose command did not finish or failed. */
  readonly rerunCommand: boolean;
  readonly resumed: boolean;
  readonly holder: string;
}

/**
 * How often the run reads what it waits for (a node's return, budgets, the cluster settling): short, so
 * that a wait ends soon after its state is reached; each read is one small GET.
 */
const POLL_MS = 250;
const SETTLE_POLL_MS = 1000;

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
  /** Workloads whose pods this process's drains moved (namespace/Kind/name): the next plan waits for them. */
  private readonly moved = new Set<string>();

  constructor(
    private readonly definition: RunDefinition,
    private readonly control: RunControl,
    private readonly deps: RunDeps,
  ) {
    this.eta = new RunEta(definition.estimates);
  }

  async run(): Promise<RunEvent> {
    const { definition, control } = this;
    this.emit({
      type: 'run-started',
      runId: definition.id,
      holder: control.holder,
      batches: definition.batches,
      command: definition.command,
      resumed: control.resumed,
    });
    await this.readPhases();
    const first = definition.batches.findIndex((nodes) => !nodes.every((n) => this.phaseOf(n) === 'done'));
    if (first >= 0) this.emitEta(first + 1, 'started', definition.estimates?.batches[first] ?? null);
    let failed = false;
    for (const [i, nodes] of definition.batches.entries()) {
      const batch = i + 1;
      if (nodes.every((n) => this.phaseOf(n) === 'done')) continue;
      this.emit({ type: 'batch-started', batch, nodes });
      const ok = await this.runBatch(batch, nodes);
      if (this.paused && !this.aborted) return this.finish('paused');
      this.emit({ type: 'batch-finished', batch, ok });
      if (this.aborted) return this.finish('interrupted');
      this.emitEta(batch, 'finished', null);
      if (!ok) {
        failed = true;
        if (!definition.options.keepGoing) break;
      }
    }
    return this.finish(failed ? 'failed' : 'done');
  }

  private get aborted(): boolean {
    return this.control.signal.aborted;
  }

  private async runBatch(batch: number, nodes: readonly string[]): Promise<boolean> {
    const { options } = this.definition;
    // 1. Drain the nodes not yet drained (a resumed run drains again: it is idempotent).
    const toDrain = nodes.filter((n) => !reached(this.phaseOf(n), 'drained'));
    let budgetsBefore: ReadonlyMap<string, number> = new Map();
    let times: BatchDrainTimes = this.definition.estimates?.batches[batch - 1] ?? NO_DRAIN;
    if (toDrain.length > 0) {
      const { snapshot, plan, blocked } = await this.settledPlan(toDrain);
      if (this.aborted) return false;
      times = drainTimesOf(plan);
      this.emitEta(batch, 'started', times);
      if (blocked) {
        await mapLimited(toDrain, (node) => this.setPhase(node, batch, 'drain-failed', blocked));
        return false;
      }
      await mapLimited(toDrain, (node) => this.setPhase(node, batch, 'draining'));
      const drained = await drainBatch(snapshot, plan, toDrain, options, {
        api: this.deps.drain,
        emit: (event) => this.emit({ type: 'drain', batch, event }),
        signal: this.control.signal,
      });
      for (const workload of workloadsMoved(plan)) this.moved.add(workload);
      budgetsBefore = drained.budgetsBefore;
      if (this.aborted) return false;
      await mapLimited(toDrain, (node) => {
        const problem = drained.notDrained.get(node);
        return this.setPhase(node, batch, problem ? 'drain-failed' : 'drained', problem);
      });
    }
    if (!(await this.pauseStep(batch, nodes))) return false;
    // 2. The operator's command, once per node, all nodes of the batch at once.
    this.emitEta(batch, 'drained', times);
    const commandStarted = this.deps.clock.now();
    const commands = await mapLimited(nodes, (node) => this.commandStep(batch, node), nodes.length);
    if (this.aborted) return false;
    // 3. Back in service: Ready again, then uncordon.
    await mapLimited(nodes, (node) => this.returnStep(batch, node), nodes.length);
    if (this.aborted) return false;
    if (commands.includes('ran') && nodes.every((n) => this.phaseOf(n) === 'done')) {
      this.eta.recordCommand((this.deps.clock.now() - commandStarted) / 1000);
    }
    // 4. The budgets the batch touched back to where they were, so the next drain does not stall.
    const budgetsOk = await this.waitForBudgets(batch, budgetsBefore);
    return budgetsOk && nodes.every((n) => !isFailedPhase(this.phaseOf(n)));
  }

  /**
   * The batch's fresh plan, and why it is blocked when it is (null otherwise). A blocked plan is trusted
   * only once the cluster has settled after the earlier batches (their nodes free of the not-ready taint,
   * the workloads they moved all Ready) or --budget-timeout has passed: until then it is planned again.
   */
  private async settledPlan(
    nodes: readonly string[],
  ): Promise<{ snapshot: Snapshot; plan: DrainPlan; blocked: string | null }> {
    const { clock } = this.deps;
    const deadline = clock.now() + this.definition.options.budgetTimeoutMs;
    const returned = new Set([...this.phases].filter(([, s]) => reached(s.phase, 'returned')).map(([n]) => n));
    for (;;) {
      const snapshot = await this.deps.loadSnapshot();
      const plan = planBatch(snapshot, nodes, this.definition.options, clock.now());
      const blocked = blockedWithoutBound(plan, this.definition.options);
      if (!blocked || clock.now() >= deadline || unsettled(snapshot, returned, this.moved).length === 0) {
        return { snapshot, plan, blocked };
      }
      // A whole snapshot per read: read less often than a node or a budget.
      if (!(await clock.sleep(SETTLE_POLL_MS, this.control.signal))) return { snapshot, plan, blocked };
    }
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
    const rerun = this.control.rerunCommand && (phase === 'command-running' || phase === 'command-failed');
    if (phase !== 'drained' && !rerun) return 'not-run';
    if (this.definition.command.length === 0) {
      await this.setPhase(node, batch, 'command-done');
      return 'not-run';
    }
    if (this.definition.options.expectReboot) {
      const bootId = (await this.deps.api.readNode(node)).status?.nodeInfo?.bootID ?? '';
      await this.deps.api.annotateNode(node, { [ANNOTATION.bootId]: bootId });
    }
    await this.setPhase(node, batch, 'command-running');
    const result: CommandResult = await (this.deps.runCommand ?? runCommand)({
      argv: this.definition.command,
      node,
      runId: this.definition.id,
      kubeconfig: this.deps.kubeconfig,
      timeoutMs: this.definition.options.commandTimeoutMs,
      signal: this.control.signal,
      onLine: (stream, line) => this.emit({ type: 'command-output', node, stream, line }),
    });
    this.emit({ type: 'command-finished', node, exitCode: result.exitCode, failure: result.failure });
    if (result.interrupted) return 'ran'; // stays command-running: the resume says so
    await (result.failure
      ? this.setPhase(node, batch, 'command-failed', `command ${result.failure}`)
      : this.setPhase(node, batch, 'command-done'));
    return 'ran';
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
    if (phase !== 'command-done' && phase !== 'returning' && phase !== 'returned') return;
    if (phase !== 'returned') {
      await this.setPhase(node, batch, 'returning');
      const back = await this.waitUntilBack(node);
      if (back === 'aborted') return;
      if (back !== 'back') return this.setPhase(node, batch, 'not-returned', back);
      await this.setPhase(node, batch, 'returned');
    }
    if (this.definition.options.uncordon) await this.deps.api.uncordon(node);
    await this.setPhase(node, batch, 'done');
  }

  /** Until the node is Ready (and, with --expect-reboot, reports another bootID than before the command). */
  private async waitUntilBack(node: string): Promise<'back' | 'aborted' | string> {
    const { clock } = this.deps;
    const deadline = clock.now() + this.definition.options.nodeReadyTimeoutMs;
    let last: V1Node | undefined;
    for (;;) {
      last = await this.deps.api.readNode(node);
      if (isBack(last, this.definition.options.expectReboot)) return 'back';
      if (clock.now() >= deadline) break;
      if (!(await clock.sleep(POLL_MS, this.control.signal))) return 'aborted';
    }
    const seconds = Math.round(this.definition.options.nodeReadyTimeoutMs / 1000);
    if (!isReady(last)) return `not Ready after ${seconds}s (--node-ready-timeout)`;
    return hasNotReadyTaint(last)
      ? `Ready but still tainted not-ready after ${seconds}s (--node-ready-timeout)`
      : `still reports the bootID it had before the command after ${seconds}s (--expect-reboot)`;
  }

  /** Until every budget the batch drained is back to its disruptionsAllowed from before the batch. */
  private async waitForBudgets(batch: number, before: ReadonlyMap<string, number>): Promise<boolean> {
    if (before.size === 0) return true;
    const { clock } = this.deps;
    const deadline = clock.now() + this.definition.options.budgetTimeoutMs;
    let reported = '';
    for (;;) {
      const short: Array<{ name: string; before: number; now: number }> = [];
      for (const [name, allowed] of before) {
        const [namespace, pdbName] = name.split('/') as [string, string];
        const pdb = await this.deps.api.readPdb(namespace, pdbName);
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
      if (!(await clock.sleep(POLL_MS, this.control.signal))) return false;
    }
  }

  private async readPhases(): Promise<void> {
    const batchOf = this.definition.batches.flatMap((nodes, i) => nodes.map((node) => ({ node, batch: i + 1 })));
    const read = await mapLimited(batchOf, ({ node }) => this.deps.api.readNode(node));
    for (const [i, { node, batch }] of batchOf.entries()) {
      const phase = nodePhase(read[i]!) ?? 'pending';
      this.phases.set(node, { batch, phase });
      if (phase === 'drained') this.drainedBefore.add(node);
    }
  }

  private phaseOf(node: string): NodePhase {
    return this.phases.get(node)?.phase ?? 'pending';
  }

  /** Records the phase on the node (annotation, and the lifecycle conditions where allowed), then tells the listeners. */
  async setPhase(node: string, batch: number, phase: NodePhase, problem?: string): Promise<void> {
    const nowIso = new Date(this.deps.clock.now()).toISOString();
    await Promise.all([
      this.deps.api.annotateNode(node, {
        [ANNOTATION.run]: this.definition.id,
        [ANNOTATION.phase]: phase,
        [ANNOTATION.since]: nowIso,
      }),
      this.deps.writeConditions ? this.deps.api.setNodeConditions(node, lifecycleConditions(phase, nowIso)) : null,
    ]);
    this.phases.set(node, { batch, phase, problem });
    this.emit({ type: 'phase', node, batch, phase, problem });
  }

  private async finish(result: RunResult): Promise<RunEvent> {
    const nodes: NodeState[] = [...this.phases].map(([node, s]) => ({
      node,
      batch: s.batch,
      phase: s.phase,
      problem: s.problem,
    }));
    const needsRerun = nodes.some((n) => n.phase === 'command-running' || n.phase === 'command-failed');
    const event: RunEvent = {
      type: 'run-finished',
      atMs: this.deps.clock.now(),
      runId: this.definition.id,
      result,
      nodes,
      resumeCommand: result === 'done' ? null : this.deps.resumeCommand(needsRerun),
    };
    this.deps.emit(event);
    return event;
  }

  private emit(event: DistributiveOmit<RunEvent, 'atMs'>): void {
    this.deps.emit({ ...event, atMs: this.deps.clock.now() } as RunEvent);
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

function isReady(node: V1Node | undefined): boolean {
  return (node?.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/**
 * Ready, free of the not-ready taints (the node lifecycle controller lifts them a moment after Ready; until
 * then nothing is scheduled there), and with --expect-reboot another bootID than before the command.
 */
function isBack(node: V1Node, expectReboot: boolean): boolean {
  if (!isReady(node) || hasNotReadyTaint(node)) return false;
  if (!expectReboot) return true;
  const before = node.metadata?.annotations?.[ANNOTATION.bootId];
  return before === undefined || node.status?.nodeInfo?.bootID !== before;
}
