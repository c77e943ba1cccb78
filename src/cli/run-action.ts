import { delimiter } from 'node:path';
import { rbacOptionsOf } from '../drain/access.js';
import { systemClock } from '../drain/clock.js';
import type { KubeClient } from '../kube/client.js';
import type { RunApi } from '../kube/run-api.js';
import { checkAccess, checkNodesFree, claimRun, RunRefused, type ClaimContext, type LeaseWait } from '../run/claim.js';
import { LeaseKeeper, LeaseLost, writeOwnNode } from '../run/lease-keeper.js';
import { resolveCommand } from '../run/command.js';
import { commandLogDir, CommandLogs } from '../run/command-log.js';
import { RunTrail } from '../run/node-trail.js';
import { mapLimited } from '../run/parallel.js';
import type { RunEvent } from '../run/events.js';
import { CommandCannotStart, runPool } from '../run/runner.js';
import { ApiAway, durably } from '../run/durable.js';
import { newRunDefinition, resumeRun, ResumeNotTaken, type TakenRun } from '../run/start.js';
import {
  commandSecondsAnnotation,
  isFailedPhase,
  RELEASED_NODE,
  releasedAnnotation,
  type RunOptions,
} from '../run/state.js';
import type { LiveCluster } from '../snapshot/load-live.js';
import type { Snapshot } from '../snapshot/types.js';
import { matchesLabelSelector } from '../snapshot/label-selector.js';
import type { PoolPlan } from '../plan/pool-types.js';
import type { ClusterTarget } from '../ui/proceed-question.js';
import { RunLines } from '../ui/run-log-text.js';
import { ask, canAsk, clusterTarget, type Answer } from './confirm.js';
import { DEFAULT_STATE_NAMESPACE } from '../kube/defaults.js';
import { earlierRunsNote, missingStateNamespace } from '../run/state-namespace-check.js';
import type { RunCommandValues } from './commands/run.js';
import { drainOptionsFrom, drainSettingsFrom } from './drain-flags.js';
import { CliError, ExitCode, planExitCode, UsageError } from './exit-codes.js';
import { processHolder } from '../process-holder.js';
import { connect } from './kube-connect.js';
import { asCliError } from './kube-flag-values.js';
import { nodeSelection, type NodeSelection } from './node-selection.js';
import { waitForKey } from './pause-key.js';
import { blockedRunRefusal } from './way-out.js';
import { openEventSink, showPlan, writeErr, writeOut, type EventSink } from './output.js';
import { indexAndNodes } from './plan-input.js';
import { poolPlanOf } from './pool-plan.js';
import { terminalWidth } from './terminal.js';

/**
 * `kubectl maint run`'s work, loaded only when the command runs: checks that write nothing (the
 * command, the nodes, permissions, other runs, the pool plan), then the claim in the cluster, then the
 * run itself with its Lease renewed, and the clean-up or the resume command at the end.
 */
/** What talks to the cluster, loaded once the command runs (start-up: see eslint.config.js). */
async function clusterModules() {
  const [drainApiModule, drainClientModule, runApiModule, loadLiveModule, cachedModule, nodeEventsModule] =
    await Promise.all([
      import('../kube/drain-api.js'),
      import('../kube/drain-client.js'),
      import('../kube/run-api.js'),
      import('../snapshot/load-live.js'),
      import('../kube/cached-apis.js'),
      import('../kube/node-events.js'),
    ]);
  return {
    drainApi: drainApiModule.drainApi,
    drainClientFor: drainClientModule.drainClientFor,
    runApi: runApiModule.runApi,
    loadLiveSnapshot: loadLiveModule.loadLiveSnapshot,
    openLiveCluster: loadLiveModule.openLiveCluster,
    cachedDrainApi: cachedModule.cachedDrainApi,
    cachedRunApi: cachedModule.cachedRunApi,
    recordNodeEvents: nodeEventsModule.recordNodeEvents,
  };
}

/**
 * `planCommand`: the plan of the same pool with the user's own flags, named under the preface of the
 * question for the rest of the plan.
 */
export async function runCommandAction(
  nodeArgs: string[],
  argv: string[],
  values: RunCommandValues,
  planCommand = 'kubectl maint plan',
): Promise<number> {
  if (values.resume !== undefined && (nodeArgs.length > 0 || values.selector || argv.length > 0)) {
    throw new UsageError('--resume takes the nodes and the command from the run: give neither');
  }
  if (values.pause && values.resume !== undefined)
    throw new UsageError('--resume pauses as the run was started: drop --pause');
  if (values.pause && argv.length > 0) {
    throw new UsageError('--pause is for a run without a command (the command is the maintenance): drop one of them');
  }
  if (values.rerunCommand && values.resume === undefined && !values.takeOver) {
    throw new UsageError('--rerun-command goes with --resume or --take-over');
  }
  if (values.dryRun && values.resume !== undefined) {
    throw new UsageError("--dry-run shows a new run's plan: a run to resume has its batches already");
  }
  const selection = values.resume === undefined ? nodeSelection(nodeArgs, values.selector) : undefined;
  // Resolved here, before anything is written: an absolute path and this directory, recorded with the run.
  const command = resolveCommand(argv);
  if ('problem' in command) throw new CliError(`${command.problem}: nothing was changed`);
  const client = await connect(values);
  const { runApi, loadLiveSnapshot, openLiveCluster } = await clusterModules();
  if (values.dryRun) {
    // The run's plan, from the same read and the same planner as the run: nothing is claimed or written.
    const { index, nodes } = indexAndNodes(await loadLiveSnapshot(client, values), selection!);
    const plan = poolPlanOf(index, nodes, values);
    await showPlan(plan, values.output === 'json' ? 'json' : undefined);
    return planExitCode(plan, false);
  }
  const api = runApi(client);
  const holder = processHolder();
  // The cluster is read once, when the run first plans, and kept current from watches for every plan after.
  let opened: Promise<LiveCluster> | undefined;
  const live = () =>
    (opened ??= openLiveCluster(client, {
      ...values,
      onNotice: (message) => writeErr(`note: ${message}\n`),
    }));
  const ctx = { api, namespace: values.stateNamespace, holder, nowMs: Date.now() };
  const missing = await missingStateNamespace(api, values.stateNamespace).catch((err: unknown) => {
    throw asCliError(err);
  });
  if (missing) throw new CliError(missing);
  // A run whose Lease vanished may still have a process at work: a take-over or a resume waits it out, saying so.
  const leaseWait = {
    note: (message: string) => writeErr(`note: ${message}\n`),
    sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
  };
  let runId: string | undefined;
  try {
    const taken =
      values.resume !== undefined
        ? await resumeRun(
            ctx,
            { runId: values.resume === true ? undefined : values.resume, rerunCommand: values.rerunCommand === true },
            (picked) => writeErr(`note: resuming ${picked}, the only run to resume\n`),
            leaseWait,
          ).catch((err: unknown) => {
            throw err instanceof ResumeNotTaken ? namingRun(err.runId, asCliError(err.cause)) : err;
          })
        : await startRun(
            ctx,
            values,
            command,
            async () => (await live()).snapshot(),
            selection!,
            (plan) => confirmRun(plan, command.argv, values, clusterTarget(client), planCommand),
            leaseWait,
          );
    runId = taken.definition.id;
    if (!taken.conditions) {
      writeErr(
        'note: cannot patch nodes/status: the node lifecycle conditions are not written; the phases are in the node annotations\n',
      );
    }
    return await drive(taken, { api, holder, values, client, live: await live() });
  } catch (err) {
    // Declining is the user's choice, not a failure: kubectl delete --interactive says it cancelled and exits 0.
    if (err instanceof RunDeclined) {
      writeOut('run cancelled: nothing was changed\n');
      return ExitCode.Ok;
    }
    if (err instanceof RunRefused && values.resume !== undefined && /^no run/.test(err.message)) {
      // A run started when runs were kept in kube-system: say where it is.
      const note = await earlierRunsNote(api, values.stateNamespace);
      throw new CliError(note ? `${err.message}; ${note}` : err.message);
    }
    if (err instanceof RunRefused || err instanceof LeaseLost || err instanceof CommandCannotStart) {
      throw new CliError(err.message);
    }
    // Where each node is, and the command that goes on, were said (the final event): then why it stopped.
    if (err instanceof ApiAway) throw namingRun(runId, new CliError(err.message));
    throw namingRun(runId, asCliError(err));
  } finally {
    if (opened) (await opened.catch(() => undefined))?.stop();
  }
}

/** The run's question was answered no: nothing was written. */
class RunDeclined extends Error {}

/** A failure once the run is known names it: the operator may have several. */
function namingRun(runId: string | undefined, err: unknown): unknown {
  if (runId === undefined || !(err instanceof Error) || err.message.includes(runId)) return err;
  return new CliError(`run ${runId}: ${err.message}`, err instanceof CliError ? err.exitCode : ExitCode.Error);
}

/** Checks that write nothing (permissions, other runs, the pool plan), then claims the run's nodes. */
async function startRun(
  ctx: ClaimContext,
  values: RunCommandValues,
  command: { readonly argv: readonly string[]; readonly dir: string },
  loadSnapshot: () => Promise<Snapshot>,
  selection: NodeSelection,
  confirm: (plan: PoolPlan) => Promise<Answer>,
  leaseWait: LeaseWait,
): Promise<TakenRun> {
  // Access first: a refusal is the one line, before the read's warnings (kinds it may not list) it makes moot.
  const { conditions } = await checkAccess(ctx, rbacOptionsOf(drainOptionsFrom(values)));
  const { index, nodes } = indexAndNodes(await loadSnapshot(), selection);
  const takeOver = values.takeOver === true && { rerunCommand: values.rerunCommand === true };
  const planned = new Map(nodes.map((name) => [name, index.node(name)!]));
  await checkNodesFree(ctx, [...planned.values()], takeOver, leaseWait);
  const plan = poolPlanOf(index, nodes, values);
  if (plan.verdict === 'blocked' && !values.forceStart) {
    throw new CliError(blockedRunRefusal(plan), ExitCode.Blocked);
  }
  const answer = await confirm(plan);
  if (answer === 'interrupted') throw new CliError('interrupted: nothing was changed', ExitCode.Interrupted);
  if (answer === 'no') throw new RunDeclined();
  const definition = newRunDefinition(plan, command, runOptionsFrom(values), new Date());
  const lease = await claimRun(ctx, definition, takeOver, planned);
  return { definition, lease, conditions, fresh: true };
}

/**
 * Asks on a terminal before anything is written, as drain does: the pool plan's verdict, batches and
 * estimate, then the question naming the verdict and the cluster again, so both are on the screen the
 * answer is typed on. --yes, -o json and no terminal go ahead without asking.
 */
async function confirmRun(
  plan: PoolPlan,
  argv: readonly string[],
  values: RunCommandValues,
  target: ClusterTarget,
  planCommand: string,
): Promise<Answer> {
  if (values.yes || values.output === 'json' || !canAsk()) return 'yes';
  const [{ renderPoolPlanText }, { runQuestion }] = await Promise.all([
    import('../ui/pool-plan-text.js'),
    import('../ui/proceed-question.js'),
  ]);
  const width = terminalWidth(process.stderr) ?? Number.POSITIVE_INFINITY;
  // Reasons carry text from the cluster: shown without control sequences.
  writeErr(`${renderPoolPlanText(plan, { width, briefFor: planCommand })}\n`);
  return ask(runQuestion(plan, { command: argv, uncordon: values.uncordon !== false }, target, width));
}

interface DriveContext {
  readonly api: RunApi;
  readonly holder: string;
  readonly values: RunCommandValues;
  readonly client: KubeClient;
  /** The cluster as the run's plans read it, kept current by watches that also feed the drains' and the run's. */
  readonly live: LiveCluster;
}

async function drive(
  { definition, lease, conditions }: TakenRun,
  { api: directApi, holder, values, client, live }: DriveContext,
): Promise<number> {
  const { drainApi, drainClientFor, cachedDrainApi, cachedRunApi, recordNodeEvents } = await clusterModules();
  const api = cachedRunApi(directApi, live.cache);
  const abort = new AbortController();
  const killCommands = new AbortController();
  // Losing the Lease stops the run (runner.ts ends it as failed, with the reason).
  const keeper = new LeaseKeeper({ api, namespace: values.stateNamespace, holder, now: Date.now }, lease, (lost) =>
    abort.abort(lost),
  );
  keeper.start();
  // Ctrl-C or SIGTERM: the first stops the run and lets running commands finish, the second kills them,
  // a third exits at once (a run stuck on an API that does not answer). The exit code is the first
  // signal's, as drain's: 130 after SIGINT, 143 after SIGTERM.
  let interrupts = 0;
  let stoppedBy: NodeJS.Signals = 'SIGINT';
  const onSigint = (signal: NodeJS.Signals = 'SIGINT') => {
    interrupts += 1;
    if (interrupts === 1) stoppedBy = signal;
    if (interrupts === 1) abort.abort();
    else if (interrupts === 2) killCommands.abort();
    else process.exit(signalExitCode(stoppedBy));
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  const sink = await eventSink(values.output);
  const commandLog = definition.command.length > 0 ? commandLogDir(definition.id) : undefined;
  const logs = commandLog
    ? new CommandLogs(commandLog, (message) => sink.emit({ type: 'warning', atMs: Date.now(), message }))
    : undefined;
  // The run's trail on its nodes (Kubernetes Events): best effort.
  const events = recordNodeEvents(client, (message) => sink.emit({ type: 'warning', atMs: Date.now(), message }));
  const trail = new RunTrail(definition.id, holder, definition.command, definition.options.uncordon);
  const emit = (event: RunEvent) => {
    logs?.take(event);
    sink.emit(event);
    for (const step of trail.eventsOf(event)) events.record(step);
  };
  const ns = values.stateNamespace === DEFAULT_STATE_NAMESPACE ? '' : ` --state-namespace ${values.stateNamespace}`;
  let finished: RunEvent;
  try {
    finished = await runPool(
      definition,
      {
        signal: abort.signal,
        killCommands: killCommands.signal,
        rerunCommand: values.rerunCommand === true,
        resumed: values.resume !== undefined,
        holder,
      },
      {
        api,
        drain: cachedDrainApi(drainApi(drainClientFor(client)), live.cache, matchesLabelSelector),
        clock: systemClock,
        loadSnapshot: (builtSince) => live.snapshot(builtSince),
        emit,
        commandLog,
        writeConditions: conditions,
        kubeconfig: client.target.files.length > 0 ? client.target.files.join(delimiter) : undefined,
        confirmHeld: () => keeper.confirm(),
        heldUntil: () => keeper.heldUntil(),
        resumeCommand: (rerun) => `kubectl maint run --resume ${definition.id}${rerun ? ' --rerun-command' : ''}${ns}`,
        pause: process.stdin.isTTY
          ? { waitingFor: 'key', wait: () => waitForKey(process.stdin, abort.signal, () => onSigint('SIGINT')) }
          : { waitingFor: 'resume', wait: async () => 'stop' },
      },
    );
  } catch (err) {
    // The API failed under the run: give the Lease back so that a resume need not wait for it to expire.
    // A run that lost it has nothing to give back.
    if (!(err instanceof LeaseLost)) await keeper.release().catch(() => undefined);
    throw err;
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
    await events.flush();
    await logs?.close();
    await sink.done();
  }
  if (finished.type === 'run-finished' && finished.result === 'done') {
    // The clean-up outlasts an API server that is away, as the run's own writes do (durable.ts).
    const durability = {
      clock: systemClock,
      heldUntil: () => keeper.heldUntil(),
      onAway: (reason: string, seconds: number) =>
        writeErr(
          `warning: API server unreachable: the run is done, and its clean-up is tried again for up to ${seconds}s: ${reason}\n`,
        ),
    };
    await durably(() => keeper.confirm(), durability);
    // Nodes released when the run stopped before are another's to write now, or no one's.
    const released = new Set(definition.released ?? []);
    await mapLimited(
      definition.batches.flat().filter((node) => !released.has(node)),
      (node) =>
        durably(() => writeOwnNode(api, definition.id, node, RELEASED_NODE, { releaseAutoscalers: true }), durability),
    );
    await durably(() => keeper.remove(), durability);
    return ExitCode.Ok;
  }
  // Nodes done are back in service: released (their claim removed) so that other runs and drains may take
  // them while this run waits for a resume, which leaves them done (recorded on the Lease first).
  const done =
    finished.type === 'run-finished' ? finished.nodes.filter((n) => n.phase === 'done').map((n) => n.node) : [];
  // The command times it measured too, so that a resume's estimate goes on from them.
  const measured = finished.type === 'run-finished' ? commandSecondsAnnotation(finished.commandSeconds) : {};
  await keeper.release({ ...(done.length > 0 ? releasedAnnotation(definition, done) : {}), ...measured });
  await mapLimited(done, (node) =>
    writeOwnNode(api, definition.id, node, RELEASED_NODE, { releaseAutoscalers: true }).catch(() => undefined),
  );
  const code = runExitCode(finished);
  return code === ExitCode.Interrupted ? signalExitCode(stoppedBy) : code;
}

/** The shell's convention, 128 + the signal's number: 130 after SIGINT (Ctrl-C), 143 after SIGTERM. */
function signalExitCode(signal: NodeJS.Signals): ExitCode {
  return signal === 'SIGTERM' ? ExitCode.Terminated : ExitCode.Interrupted;
}

/**
 * The exit code of a run that was not done. Paused is where the operator asked the run to stop, not a
 * failure, unless a node of the paused batch failed (its drain): the pause names only the drained nodes,
 * and a pipeline gating on 0 would go on to the maintenance of a node that still holds its pods.
 */
export function runExitCode(finished: RunEvent): ExitCode {
  if (finished.type !== 'run-finished') return ExitCode.Error;
  if (finished.result === 'interrupted') return ExitCode.Interrupted;
  if (finished.result === 'paused' && !finished.nodes.some((n) => isFailedPhase(n.phase))) return ExitCode.Ok;
  return ExitCode.Error;
}

/** -o json: one event per line; a terminal without -o: the live pool view; otherwise one line per event. */
function eventSink(format: 'text' | 'json' | undefined): Promise<EventSink<RunEvent>> {
  return openEventSink<RunEvent>(format, {
    live: async () => {
      const { startRunInk } = await import('../ui/run-view.js');
      const ink = startRunInk();
      return { emit: (event) => ink.onEvent(event), done: () => ink.done() };
    },
    lines: () => {
      const lines = new RunLines();
      return (event) => lines.lines(event);
    },
  });
}

/** The run's flags as it records them: every drain flag whole, as `drain` takes them, then the run's own. */
export function runOptionsFrom(values: RunCommandValues): RunOptions {
  return {
    drain: drainSettingsFrom(values),
    commandTimeoutMs: values.commandTimeout,
    nodeReadyTimeoutMs: values.nodeReadyTimeout,
    budgetTimeoutMs: values.budgetTimeout,
    expectReboot: values.expectReboot === true,
    uncordon: values.uncordon !== false,
    keepGoing: values.keepGoing === true,
    pause: values.pause === true,
  };
}
