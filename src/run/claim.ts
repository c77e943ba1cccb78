import type { V1Lease, V1Node } from '@kubernetes/client-node';
import { firstRefusal } from '../drain/access.js';
import { drainMarkRefusal, liveDrainMark } from '../drain/drain-mark.js';
import { holderGone } from '../process-holder.js';
import type { RbacOption } from '../kube/permissions.js';
import type { RunApi } from '../kube/run-api.js';
import { mapLimited } from './parallel.js';
import {
  activeHolder,
  ANNOTATION,
  definitionOf,
  historyWith,
  leaseFor,
  LEASE_SECONDS,
  leaseName,
  microTime,
  nodePhase,
  RELEASED_NODE,
  RUN_LABEL,
  runOfNode,
  RETURNING,
  runDefinitionAnnotation,
  definitionOfNode,
  secondsLeft,
  UNFINISHED_COMMAND,
  type NodePhase,
  type RunDefinition,
} from './state.js';

/** A refusal before anything is written: one line for the operator. */
export class RunRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunRefused';
  }
}

export interface ClaimContext {
  readonly api: RunApi;
  readonly namespace: string;
  readonly holder: string;
  readonly nowMs: number;
}

/** --take-over, and whether the operator consents to run again a command that ran or may still run there. */
export interface TakeOver {
  readonly rerunCommand: boolean;
}

/**
 * How a take-over or a resume waits out a vanished Lease (its holder may still be at work): said to the
 * operator, and the wait itself.
 */
export interface LeaseWait {
  readonly note: (message: string) => void;
  readonly sleep: (ms: number) => Promise<void>;
}

const sleeping: LeaseWait = { note: () => undefined, sleep: (ms) => new Promise((r) => setTimeout(r, ms)) };

/**
 * Phases in which a node's command ran or may still run and the node is not back in service: a take-over
 * starts the node over (drained, its command run again, uncordoned), so it takes such a node only with
 * --rerun-command, as --resume asks before it runs a command again.
 */
const COMMAND_UNDER_WAY: ReadonlySet<NodePhase> = new Set([...UNFINISHED_COMMAND, ...RETURNING]);

/**
 * What the run needs to be allowed to do (its role, kube/permissions.ts, with what its flags add), checked
 * before anything is written; and whether it may write the node lifecycle conditions (best effort).
 */
export async function checkAccess(
  ctx: ClaimContext,
  options: readonly RbacOption[] = [],
): Promise<{ conditions: boolean }> {
  const [conditions, refusal] = await Promise.all([
    ctx.api.canI({ verb: 'patch', resource: 'nodes', subresource: 'status' }),
    firstRefusal(ctx.api, 'run', options, ctx.namespace),
  ]);
  if (refusal) throw new RunRefused(`${refusal}: nothing was changed`);
  return { conditions };
}

/**
 * Refuses when a node of the pool belongs to another run: held (its Lease renewed and not expired) always,
 * naming the holder; stopped (Lease expired, released or gone) unless --take-over, and a node whose
 * command ran or may still run unless --take-over --rerun-command too. A run whose Lease is gone may still
 * have a process at work (the Lease deleted under it): a take-over waits a Lease's duration first, and
 * refuses if the run wrote on its nodes meanwhile. A node a drain is working on (its live drain mark) is
 * refused too, naming that drain. The nodes are those of the cluster read the pool was planned on (their
 * annotations name the run); claimRun claims each from that read, and reads again a node changed since.
 */
export async function checkNodesFree(
  ctx: ClaimContext,
  nodes: readonly V1Node[],
  takeOver: TakeOver | false,
  wait: LeaseWait = sleeping,
): Promise<void> {
  const leaseGone = new Map<string, V1Node[]>();
  for (const node of nodes) {
    const other = runOfNode(node);
    const refusal = await nodeTaken(ctx, node, null, takeOver);
    if (refusal) throw new RunRefused(refusal);
    if (other && takeOver && !(await ctx.api.readLease(ctx.namespace, leaseName(other)))) {
      leaseGone.set(other, [...(leaseGone.get(other) ?? []), node]);
    }
  }
  if (leaseGone.size === 0) return;
  wait.note(
    `the Lease of run ${[...leaseGone.keys()].join(', ')} is gone: waiting ${LEASE_SECONDS}s (a Lease's duration) before taking its nodes, in case a process still works on them`,
  );
  await wait.sleep(LEASE_SECONDS * 1000);
  for (const [other, taken] of leaseGone) await refuseIfAtWork(ctx, other, taken, 'this take-over');
}

/**
 * After waiting out a vanished Lease: refused when run `runId` shows it is at work (a Lease again, or a
 * phase written on one of `before`'s nodes since they were read).
 */
async function refuseIfAtWork(ctx: ClaimContext, runId: string, before: readonly V1Node[], who: string) {
  const lease = await ctx.api.readLease(ctx.namespace, leaseName(runId));
  const written = (n: V1Node) => `${runOfNode(n)} ${n.metadata?.annotations?.[ANNOTATION.since]}`;
  for (const node of before) {
    const name = node.metadata?.name ?? '';
    if (lease || written(await ctx.api.readNode(name)) !== written(node)) {
      throw new RunRefused(
        `node "${name}" is in run ${runId}, which ${lease ? 'has a Lease again' : 'wrote on it'} while ${who} waited: that run is at work; nothing was changed`,
      );
    }
  }
}

/**
 * Why `read` may not join run `runId`: another run's claim first, the lasting fact (that run's drain of it
 * marks it too while it lasts), then a live drain mark of a drain outside any run; null when it is free.
 */
async function nodeTaken(
  ctx: ClaimContext,
  read: V1Node,
  runId: string | null,
  takeOver: TakeOver | false,
): Promise<string | null> {
  const other = runOfNode(read);
  const byRun = other && other !== runId ? await refusalFor(ctx, read, other, takeOver) : null;
  if (byRun) return byRun;
  const mark = liveDrainMark(read, ctx.nowMs);
  return mark ? drainMarkRefusal(read.metadata?.name ?? '', mark, ctx.nowMs) : null;
}

/** Why `node`, in run `other`, may not be taken by a new run; null when it may (stopped, and --take-over). */
async function refusalFor(
  ctx: ClaimContext,
  read: V1Node,
  other: string,
  takeOver: TakeOver | false,
): Promise<string | null> {
  const node = read.metadata?.name ?? '';
  const lease = await ctx.api.readLease(ctx.namespace, leaseName(other));
  const holder = lease ? liveHolder(lease, ctx.nowMs) : null;
  if (lease && holder) {
    return `node "${node}" is in run ${other} held by ${holder} (its lease expires in ${secondsLeft(lease, ctx.nowMs)}s unless renewed): nothing was changed`;
  }
  if (!takeOver) {
    const who = lease?.spec?.holderIdentity ? `, last held by ${lease.spec.holderIdentity}` : '';
    return `node "${node}" is in run ${other}, which stopped${who}: resume it with kubectl maint run --resume ${other}, or take its nodes with --take-over; nothing was changed`;
  }
  const phase = nodePhase(read);
  if (phase && COMMAND_UNDER_WAY.has(phase) && !takeOver.rerunCommand) {
    const what =
      phase === 'command-running'
        ? 'its command may still be running'
        : phase === 'command-failed'
          ? 'its command failed'
          : phase === 'command-killed'
            ? 'its command was killed'
            : 'its command ran and it is not back in service';
    return `node "${node}" is in run ${other} in phase ${phase} (${what}): a take-over starts it over and runs its command again, only with --take-over --rerun-command; or resume that run with kubectl maint run --resume ${other}; nothing was changed`;
  }
  return null;
}

/**
 * Creates the run's Lease, held by us, then claims each node (phase pending). A claim is a patch guarded
 * by the resourceVersion of the read that found the node free (changed since: read and decide again), so
 * two runs started at once over the same node cannot both hold it: the one that finds it taken gives back
 * what it claimed, deletes its Lease and refuses, naming the other run and what it wrote and undid. Any
 * other failure undoes the claim the same way before it is thrown. `judgedFree` holds the nodes as
 * checkNodesFree found them free (the read the pool was planned on): a node unchanged since is claimed
 * without another read or another check, a changed one is refused by its guard, read again and judged.
 */
export async function claimRun(
  ctx: ClaimContext,
  definition: RunDefinition,
  takeOver: TakeOver | false,
  judgedFree: ReadonlyMap<string, V1Node> = new Map(),
): Promise<V1Lease> {
  const lease = await ctx.api.createLease(ctx.namespace, leaseFor(definition, ctx.holder, ctx.nowMs, ctx.namespace));
  const since = new Date(ctx.nowMs).toISOString();
  const claim = {
    ...runDefinitionAnnotation(definition),
    [ANNOTATION.run]: definition.id,
    [ANNOTATION.runNamespace]: ctx.namespace,
    [ANNOTATION.phase]: 'pending',
    [ANNOTATION.since]: since,
    [ANNOTATION.history]: historyWith(null, 'pending', since),
  };
  const claimed: string[] = [];
  let refusal: string | null = null;
  try {
    await mapLimited(definition.batches.flat(), async (node) => {
      let free = judgedFree.get(node);
      while (refusal === null) {
        const read = free ?? (await ctx.api.readNode(node));
        const taken = free ? null : await nodeTaken(ctx, read, definition.id, takeOver);
        free = undefined;
        if (taken) refusal ??= taken;
        else if (await ctx.api.annotateNodeIfUnchanged(node, claim, read.metadata?.resourceVersion)) {
          claimed.push(node);
          return;
        }
      }
    });
  } catch (err) {
    await undoClaim(ctx, definition.id, claimed).catch(() => undefined);
    throw err;
  }
  if (refusal === null) return lease;
  await undoClaim(ctx, definition.id, claimed);
  const nodes = claimed.length > 0 ? ` and claimed ${claimed.map((n) => `"${n}"`).join(', ')}` : '';
  throw new RunRefused(
    (refusal as string).replace(
      /: nothing was changed$/,
      `: this run had created its Lease ${ctx.namespace}/${leaseName(definition.id)}${nodes} (the other run claimed its node meanwhile), and undid ${claimed.length > 0 ? 'them' : 'it'}`,
    ),
  );
}

/** Removes run `runId`'s claim from `nodes` and deletes its Lease: a start that did not go ahead. */
export async function undoClaim(ctx: ClaimContext, runId: string, nodes: readonly string[]): Promise<void> {
  await mapLimited(nodes, (node) => ctx.api.annotateNode(node, RELEASED_NODE));
  await ctx.api.deleteLease(ctx.namespace, leaseName(runId));
}

/**
 * Finds the run to resume and takes its Lease. Named: that run. Not named: the one unfinished run that no
 * live process holds (`picked`: the run as it was found, in one phrase), refused naming them when there are several, or naming the holder when
 * every one is held. Refused while another process holds the Lease and it has not expired.
 */
export async function takeRunForResume(
  ctx: ClaimContext,
  runId: string | undefined,
  /** A problem with the recorded run that refuses the resume before anything is written (its command). */
  check: (definition: RunDefinition) => string | null = () => null,
  wait: LeaseWait = sleeping,
): Promise<{ lease: V1Lease; definition: RunDefinition; picked: string | null }> {
  const leases = await ctx.api.listLeases(ctx.namespace, runId ? `${RUN_LABEL}=${runId}` : RUN_LABEL);
  const free = leases.filter((l) => liveHolder(l, ctx.nowMs) === null);
  // Runs only their nodes name (their Lease lost; the nodes record what the run is): looked for when no
  // run with a Lease is there to resume.
  const withoutLease =
    (runId && leases.length === 0) || (!runId && free.length === 0)
      ? await runsWithoutLease(ctx.api, leases, runId)
      : new Map<string, V1Node[]>();
  if (leases.length === 0 && withoutLease.size === 0) {
    throw new RunRefused(
      runId ? `no run ${runId} in namespace "${ctx.namespace}"` : `no run to resume in namespace "${ctx.namespace}"`,
    );
  }
  const candidates = runId || free.length + withoutLease.size === 0 ? leases : free;
  if (candidates.length + withoutLease.size > 1) {
    const listed = [
      ...candidates.map((l) => leaseSummary(l, ctx.nowMs)),
      ...[...withoutLease.keys()].map((id) => `${id} (its Lease lost)`),
    ];
    throw new RunRefused(
      `${listed.length} unfinished runs in namespace "${ctx.namespace}": ${listed.join('; ')}; name one with --resume RUN (kubectl maint runs shows them)`,
    );
  }
  const [lost] = withoutLease;
  if (lost) {
    const [id, nodes] = lost;
    const taken = await retakeLostRun(ctx, id, nodes, check, wait);
    return { ...taken, picked: runId === undefined ? `${id} (its Lease lost)` : null };
  }
  const lease = candidates[0]!;
  const definition = definitionOf(lease);
  const holder = liveHolder(lease, ctx.nowMs);
  if (holder && holder !== ctx.holder) {
    throw new RunRefused(
      `run ${definition.id} is held by ${holder} (its lease expires in ${secondsLeft(lease, ctx.nowMs)}s unless renewed): nothing was changed`,
    );
  }
  const problem = check(definition);
  if (problem) throw new RunRefused(`${problem}: nothing was changed`);
  const now = microTime(ctx.nowMs);
  const taken = await ctx.api.replaceLease(ctx.namespace, {
    ...lease,
    spec: { ...lease.spec, holderIdentity: ctx.holder, acquireTime: now, renewTime: now },
  });
  return { lease: taken, definition, picked: runId === undefined ? leaseSummary(lease, ctx.nowMs) : null };
}

/** The runs that nodes name and that have no Lease among `leases` (only `runId`'s when given), with their nodes. */
async function runsWithoutLease(
  api: RunApi,
  leases: readonly V1Lease[],
  runId: string | undefined,
): Promise<Map<string, V1Node[]>> {
  const known = new Set(leases.map((l) => l.metadata?.labels?.[RUN_LABEL]));
  const runs = new Map<string, V1Node[]>();
  for (const node of await api.listNodes()) {
    const id = runOfNode(node);
    if (!id || known.has(id) || (runId !== undefined && id !== runId)) continue;
    runs.set(id, [...(runs.get(id) ?? []), node]);
  }
  return runs;
}

/**
 * Run `runId` whose Lease is lost, taken again from what its nodes record: after a Lease's duration (its
 * last holder may still be at work: a Lease deleted under it), unless the run shows it is at work, a new
 * Lease held by this process. Refused when no node records the run readably (its annotation removed or edited).
 */
async function retakeLostRun(
  ctx: ClaimContext,
  runId: string,
  nodes: readonly V1Node[],
  check: (definition: RunDefinition) => string | null,
  wait: LeaseWait,
): Promise<{ lease: V1Lease; definition: RunDefinition }> {
  const definition = nodes.map(definitionOfNode).find((d) => d !== null);
  if (!definition) {
    throw new RunRefused(
      `run ${runId} lost its Lease, and its nodes do not record what it is (their run annotation removed or unreadable): end it with kubectl maint run --abandon ${runId}; nothing was changed`,
    );
  }
  const problem = check(definition);
  if (problem) throw new RunRefused(`${problem}: nothing was changed`);
  wait.note(
    `run ${runId} lost its Lease: waiting ${LEASE_SECONDS}s (a Lease's duration) before taking it again, in case a process still works on its nodes`,
  );
  await wait.sleep(LEASE_SECONDS * 1000);
  await refuseIfAtWork(ctx, runId, nodes, 'this resume');
  const lease = await ctx.api
    .createLease(ctx.namespace, leaseFor(definition, ctx.holder, Date.now(), ctx.namespace))
    .catch((err: unknown) => {
      if ((err as { kind?: string }).kind === 'conflict' || (err as { status?: number }).status === 409) {
        throw new RunRefused(
          `run ${runId} was taken again by another process while this resume waited; nothing was changed`,
        );
      }
      throw err;
    });
  return { lease, definition };
}

/**
 * Who holds the Lease now (activeHolder), unless it is a process of this host that no longer exists (killed:
 * its Lease not yet expired, but nobody renews it).
 */
export function liveHolder(lease: V1Lease, nowMs: number): string | null {
  const holder = activeHolder(lease, nowMs);
  return holder && !holderGone(holder) ? holder : null;
}

/** "ID (started …, held by … | expired, last held by … | stopped)": a run in one phrase, to choose between runs. */
export function leaseSummary(lease: V1Lease, nowMs: number): string {
  const id = lease.metadata?.labels?.[RUN_LABEL] ?? lease.metadata?.name ?? '';
  const started = lease.metadata?.creationTimestamp;
  const when = started ? `started ${new Date(started).toISOString().replace(/\.\d+Z$/, 'Z')}, ` : '';
  const holder = liveHolder(lease, nowMs);
  const last = lease.spec?.holderIdentity;
  const state = holder ? `held by ${holder}` : last ? `expired, last held by ${last}` : 'stopped';
  return `${id} (${when}${state})`;
}
