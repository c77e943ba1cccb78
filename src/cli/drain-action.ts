import { DrainMarked, DrainMarks, drainMarkRefusal, liveDrainMark } from '../drain/drain-mark.js';
import type { DrainEvent } from '../drain/events.js';
import type { FinishedEvent } from '../drain/summary.js';
import { drainRequestFor } from '../drain/drain-settings.js';
import { drainTargets, type DrainTargets } from '../drain/targets.js';
import type { DrainOptions, DrainPlan } from '../plan/types.js';
import type { LiveCluster } from '../snapshot/load-live.js';
import { matchesLabelSelector } from '../snapshot/label-selector.js';
import type { Snapshot } from '../snapshot/types.js';
import { drainErrorLine, drainEventLines } from '../ui/drain-log-text.js';
import { initialDrainProgress, reduceDrainEvents, waveHintsFromPlan } from '../ui/drain-live-state.js';
import type { ClusterTarget } from '../ui/proceed-question.js';
import { kubectlRefusal, NOT_CONFIRMED, refusedUnchanged } from '../ui/drain-refusal-text.js';
import type { RunApi } from '../kube/run-api.js';
import type { DrainCommandValues } from './commands/drain.js';
import { ask, canAsk, clusterTarget, type Answer } from './confirm.js';
import { drainSettingsFrom } from './drain-flags.js';
import { commandsWithWayOut } from './way-out.js';
import { CliError, ExitCode, planExitCode } from './exit-codes.js';
import { processHolder } from '../process-holder.js';
import { connect } from './kube-connect.js';
import { asCliError } from './kube-flag-values.js';
import { nodeSelection } from './node-selection.js';
import type { SuggestedCommands } from './suggested-commands.js';
import { openEventSink, writeErr, writeOut, type EventSink } from './output.js';
import { planSnapshot, readProgress } from './plan-input.js';
import { terminalWidth } from './terminal.js';

/** What `kubectl maint drain` does once its flags are parsed, loaded by it alone: the planner, the engine and their views. */
export async function drainAction(
  nodeArgs: readonly string[],
  values: DrainCommandValues,
  commands: SuggestedCommands,
): Promise<number> {
  const selection = nodeSelection(nodeArgs, values.selector);
  const options = drainSettingsFrom(values);
  const client = await connect(values);
  // The API side and the engine, loaded only now that the command talks to the cluster.
  const [
    { openLiveCluster },
    { runDrain },
    { drainApi },
    { drainClientFor },
    { cachedDrainApi, DRAIN_FOLLOWS },
    { runApi },
    { recordNodeEvents },
    { DrainTrail },
  ] = await Promise.all([
    import('../snapshot/load-live.js'),
    import('../drain/engine.js'),
    import('../kube/drain-api.js'),
    import('../kube/drain-client.js'),
    import('../kube/cached-apis.js'),
    import('../kube/run-api.js'),
    import('../kube/node-events.js'),
    import('../drain/node-trail.js'),
  ]);
  if (values.dryRun === 'none') {
    // Access first, before the read: a refusal is the one line, before the plan and warnings it makes moot,
    // and nothing is written (a drain refused its evictions after the cordon would leave the node cordoned).
    const { firstRefusal, rbacOptionsOf } = await import('../drain/access.js');
    const refusal = await firstRefusal(runApi(client), 'drain', rbacOptionsOf(options), '').catch((err: unknown) => {
      throw asCliError(err);
    });
    if (refusal) throw new CliError(refusedUnchanged(refusal));
  }
  let live: LiveCluster;
  let snapshot: Snapshot;
  const progress = await readProgress();
  // Said once the read's progress is off the screen.
  const notices: string[] = [];
  try {
    // Each kind read once, at the state of etcd now (the drain evicts what this read finds on the node,
    // docs/reads.md); then the pods and budgets the drain waits for are followed from that read's watches.
    live = await openLiveCluster(client, {
      ...values,
      onProgress: progress?.onList,
      follow: DRAIN_FOLLOWS,
      onNotice: (message) => notices.push(message),
    });
    snapshot = await live.snapshot();
  } catch (err) {
    throw asCliError(err);
  } finally {
    progress?.stop();
    for (const notice of notices) writeErr(`note: ${notice}\n`);
  }
  try {
    let plan = planSnapshot(snapshot, selection, options);
    if (values.dryRun === 'none') refuseMarked(snapshot, plan.nodes);
    if (values.dryRun === 'none' && !values.ignoreRunClaim) await refuseClaimed(snapshot, plan.nodes, runApi(client));
    // Asked once the drain may go ahead: a drain another holds calls no webhook.
    if (asksServer(values, options)) {
      const { withAnswersOfServer } = await import('./ask-server.js');
      plan = await withAnswersOfServer(plan, client);
    }
    const work = drainTargets(plan, snapshot.pods);
    const json = values.output === 'json';
    if (!json) {
      const { renderPlanText } = await import('../ui/plan-text.js');
      writeOut(
        renderPlanText(plan, {
          brief: values.details !== true,
          details: values.details === true,
          width: terminalWidth(process.stdout),
          planCommand: commands.plan,
        }),
      );
    }
    refuseLikeKubectl(plan, work);
    const answer = await confirm(plan, work, values, clusterTarget(client));
    if (answer === 'interrupted') {
      writeErr('interrupted: nothing was changed\n');
      return ExitCode.Interrupted;
    }
    // Declining is the user's choice, not a failure: kubectl delete --interactive says it cancelled and exits 0.
    if (answer === 'no') {
      writeOut(`${NOT_CONFIRMED}\n`);
      return ExitCode.Ok;
    }

    // One drain per node: marked before the cordon (a drain that started meanwhile refuses this one),
    // renewed while it drains, removed at the end.
    const marks = new DrainMarks(runApi(client), processHolder(), Date.now);
    if (values.dryRun === 'none') {
      await marks.take(plan.nodes).catch((err: unknown) => {
        throw err instanceof DrainMarked ? new CliError(err.message) : asCliError(err);
      });
    }

    // SIGINT (Ctrl-C) and SIGTERM (kill, a CI job cancelled, a pod stopping) both stop the drain the same
    // way: no new eviction, the nodes stay cordoned, the summary says what remains. A second one leaves at once.
    const abort = new AbortController();
    const sink = await openSink(plan, json, () => abort.abort('SIGINT'), escalationForEngine(options));
    // The drain's trail on its nodes (Kubernetes Events): best effort, never in a dry run.
    const events =
      values.dryRun === 'none'
        ? recordNodeEvents(client, (message) => sink.emit({ type: 'warning', atMs: Date.now(), message }))
        : null;
    const trail = new DrainTrail(`kubectl maint drain (${processHolder()})`);
    const emit = (event: DrainEvent) => {
      sink.emit(event);
      for (const step of events ? trail.eventsOf(event) : []) events?.record(step);
    };
    const onSignal = (signal: NodeJS.Signals) => {
      if (abort.signal.aborted) process.exit(interruptedExitCode(signal));
      abort.abort(signal);
    };
    const signals = ['SIGINT', 'SIGTERM'] as const;
    for (const signal of signals) process.on(signal, onSignal);
    let finished: FinishedEvent;
    try {
      finished = await runDrain(
        drainRequestFor(options, plan, snapshot, {
          dryRun: values.dryRun,
          signal: abort.signal,
          commands: commandsWithWayOut(commands, plan, !json),
        }),
        { api: cachedDrainApi(drainApi(drainClientFor(client)), live.cache, matchesLabelSelector), emit },
      );
    } finally {
      for (const signal of signals) process.off(signal, onSignal);
      await marks.release().catch(() => undefined);
      await events?.flush();
      await sink.done();
    }
    const interruptedBy = typeof abort.signal.reason === 'string' ? abort.signal.reason : 'SIGINT';
    const code = exitCodeOf(finished.result, interruptedBy);
    // A client dry run sends nothing: its answer is the plan's (the same plan `plan NODE…` shows), and so is
    // its exit code — a dry run of a drain the plan calls blocked does not exit 0.
    return values.dryRun === 'client' && code === ExitCode.Ok ? planExitCode(plan, false) : code;
  } finally {
    // The watches the drain followed its pods and budgets with.
    live.stop();
  }
}

/**
 * The plan shown first asks the admission chain (dry runs of its evictions; the drain has the permission,
 * checked before the read) unless --ask-server=false. A dry run does not: a client one sends nothing, a
 * server one's own evictions are those dry runs. --disable-eviction sends no eviction.
 */
function asksServer(values: DrainCommandValues, options: DrainOptions): boolean {
  return values.askServer !== false && values.dryRun === 'none' && !options.disableEviction;
}

function escalationForEngine({ escalation }: DrainOptions) {
  return escalation && { afterMs: escalation.afterSeconds * 1000, namespaces: escalation.namespaces };
}

export function exitCodeOf(result: FinishedEvent['result'], interruptedBy = 'SIGINT'): number {
  switch (result) {
    case 'drained':
    case 'dry-run':
      return ExitCode.Ok;
    case 'interrupted':
      return interruptedExitCode(interruptedBy);
    case 'failed':
    case 'timeout':
      return ExitCode.Error;
  }
}

/** The shell's convention, 128 + the signal's number: 130 after SIGINT, 143 after SIGTERM. */
function interruptedExitCode(signal: string): number {
  return signal === 'SIGTERM' ? ExitCode.Terminated : ExitCode.Interrupted;
}

/** A node another drain is working on (its live mark, as the cluster read showed it): refused, nothing written. */
function refuseMarked(snapshot: Snapshot, nodes: readonly string[]): void {
  for (const node of snapshot.nodes.filter((n) => nodes.includes(n.metadata?.name ?? ''))) {
    const mark = liveDrainMark(node, Date.now());
    if (mark) throw new CliError(drainMarkRefusal(node.metadata?.name ?? '', mark, Date.now()));
  }
}

/** A node a live run has claimed (run/live-claim.ts): refused, nothing written, unless --ignore-run-claim. */
async function refuseClaimed(snapshot: Snapshot, nodes: readonly string[], api: Pick<RunApi, 'readLease'>) {
  const { liveClaimRefusal } = await import('../run/live-claim.js');
  for (const node of snapshot.nodes.filter((n) => nodes.includes(n.metadata?.name ?? ''))) {
    const refusal = await liveClaimRefusal(node, (ns, name) => api.readLease(ns, name), Date.now()).catch(
      (err: unknown) => {
        throw asCliError(err);
      },
    );
    if (refusal) throw new CliError(refusal);
  }
}

/**
 * kubectl drain evicts nothing when a pod fails its filters (unmanaged pods without --force, DaemonSet
 * pods without --ignore-daemonsets, emptyDir without --delete-emptydir-data). Same here, and before the
 * cordon too, so the cluster is left exactly as it was.
 */
function refuseLikeKubectl(plan: DrainPlan, work: DrainTargets): void {
  if (work.refusals.length === 0) return;
  const refusal = kubectlRefusal(plan.nodes, work.refusals);
  writeErr(refusal.lines);
  throw new CliError(refusal.message);
}

/**
 * Asks on a terminal only: kubectl drain never asks, and scripts (no terminal on stdin) rely on that.
 * --yes, -o json and dry runs do not ask either. Ctrl-C at the prompt changes nothing.
 */
async function confirm(
  plan: DrainPlan,
  work: DrainTargets,
  values: DrainCommandValues,
  target: ClusterTarget,
): Promise<Answer> {
  if (values.yes || values.dryRun !== 'none' || values.output === 'json' || !canAsk()) {
    if (values.dryRun === 'none') {
      const { proceedWarningText } = await import('../ui/proceed-question.js');
      const warning = proceedWarningText(plan, values.timeout, widthOf(process.stderr));
      if (warning) writeErr(warning);
    }
    return 'yes';
  }
  const { drainQuestion } = await import('../ui/proceed-question.js');
  const verb = work.targets.some((t) => t.method === 'delete') ? 'delete' : 'evict';
  return ask(drainQuestion(plan, { verb, pods: work.targets.length }, target, widthOf(process.stderr)));
}

/** A terminal's columns, or no limit. */
function widthOf(stream: NodeJS.WriteStream): number {
  return terminalWidth(stream) ?? Number.POSITIVE_INFINITY;
}

/** -o json: one event per line; a terminal (with or without -o text): the live Ink view; otherwise kubectl-like lines. */
function openSink(
  plan: DrainPlan,
  json: boolean,
  onInterrupt: () => void,
  escalation: ReturnType<typeof escalationForEngine>,
): Promise<EventSink<DrainEvent>> {
  const hints = waveHintsFromPlan(plan, escalation || undefined);
  return openEventSink<DrainEvent>(json ? 'json' : undefined, {
    // stdout carries the events; a drain that did not finish also says why in one line on stderr.
    json: () => {
      let progress = initialDrainProgress();
      return (event) => {
        const error = event.type === 'finished' ? drainErrorLine(progress, event) : null;
        progress = reduceDrainEvents(progress, event, { hints });
        return error ? [{ stream: 'stderr', text: error }] : [];
      };
    },
    live: async () => {
      const { startDrainInk } = await import('../ui/drain-view.js');
      const ink = startDrainInk({ hints, onInterrupt });
      return { emit: (event) => ink.onEvent(event), done: () => ink.done() };
    },
    lines: () => {
      let progress = initialDrainProgress();
      return (event) => {
        const lines = drainEventLines(progress, event);
        progress = reduceDrainEvents(progress, event, { hints });
        return lines;
      };
    },
  });
}
