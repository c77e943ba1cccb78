import type { V1Lease, V1Node } from '@kubernetes/client-node';
import { firstRefusal } from '../drain/access.js';
import { drainMarkRefusal, liveDrainMark } from '../drain/drain-mark.js';
import type { RbacOption } from '../kube/permissions.js';
import type { RunApi } from '../kube/run-api.js';
import { mapLimited } from './parallel.js';
import {
  activeHolder,
  ANNOTATION,
  definitionOf,
  historyWith,
  leaseFor,
  leaseName,
  microTime,
  RELEASED_NODE,
  RUN_LABEL,
  runOfNode,
  secondsLeft,
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
 * naming the holder; stopped (Lease expired, released or gone) unless --take-over. A node a drain is
 * working on (its live drain mark) is refused too, naming that drain. The nodes are those of
 * the cluster read the pool was planned on (their annotations name the run); claimRun reads each again.
 */
export async function checkNodesFree(ctx: ClaimContext, nodes: readonly V1Node[], takeOver: boolean): Promise<void> {
  for (const node of nodes) {
    const other = runOfNode(node);
    const refusal = other ? await refusalFor(ctx, node.metadata?.name ?? '', other, takeOver) : null;
    if (refusal) throw new RunRefused(refusal);
    const mark = liveDrainMark(node, ctx.nowMs);
    if (mark) throw new RunRefused(drainMarkRefusal(node.metadata?.name ?? '', mark, ctx.nowMs));
  }
}

/** Why `node`, in run `other`, may not be taken by a new run; null when it may (stopped, and --take-over). */
async function refusalFor(ctx: ClaimContext, node: string, other: string, takeOver: boolean): Promise<string | null> {
  const lease = await ctx.api.readLease(ctx.namespace, leaseName(other));
  const holder = lease ? activeHolder(lease, ctx.nowMs) : null;
  if (lease && holder) {
    return `node "${node}" is in run ${other} held by ${holder} (its lease expires in ${secondsLeft(lease, ctx.nowMs)}s unless renewed): nothing was changed`;
  }
  if (takeOver) return null;
  const who = lease?.spec?.holderIdentity ? `, last held by ${lease.spec.holderIdentity}` : '';
  return `node "${node}" is in run ${other}, which stopped${who}: resume it with kubectl maint run --resume ${other}, or take its nodes with --take-over; nothing was changed`;
}

/**
 * Creates the run's Lease, held by us, then claims each node (phase pending). A claim is a patch guarded
 * by the resourceVersion of the read that found the node free (changed since: read and decide again), so
 * two runs started at once over the same node cannot both hold it: the one that finds it taken gives back
 * what it claimed, deletes its Lease and refuses, naming the other run and what it wrote and undid. Any
 * other failure undoes the claim the same way before it is thrown.
 */
export async function claimRun(ctx: ClaimContext, definition: RunDefinition, takeOver: boolean): Promise<V1Lease> {
  const lease = await ctx.api.createLease(ctx.namespace, leaseFor(definition, ctx.holder, ctx.nowMs, ctx.namespace));
  const since = new Date(ctx.nowMs).toISOString();
  const claim = {
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
      while (refusal === null) {
        const read = await ctx.api.readNode(node);
        const other = runOfNode(read);
        const mark = liveDrainMark(read, ctx.nowMs);
        const taken = mark
          ? drainMarkRefusal(node, mark, ctx.nowMs)
          : other && other !== definition.id
            ? await refusalFor(ctx, node, other, takeOver)
            : null;
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
): Promise<{ lease: V1Lease; definition: RunDefinition; picked: string | null }> {
  const leases = await ctx.api.listLeases(ctx.namespace, runId ? `${RUN_LABEL}=${runId}` : RUN_LABEL);
  if (leases.length === 0) {
    throw new RunRefused(
      runId ? `no run ${runId} in namespace "${ctx.namespace}"` : `no run to resume in namespace "${ctx.namespace}"`,
    );
  }
  const free = leases.filter((l) => activeHolder(l, ctx.nowMs) === null);
  const candidates = runId || free.length === 0 ? leases : free;
  if (candidates.length > 1) {
    throw new RunRefused(
      `${candidates.length} unfinished runs in namespace "${ctx.namespace}": ${candidates.map((l) => leaseSummary(l, ctx.nowMs)).join('; ')}; name one with --resume RUN (kubectl maint runs shows them)`,
    );
  }
  const lease = candidates[0]!;
  const definition = definitionOf(lease);
  const holder = activeHolder(lease, ctx.nowMs);
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

/** "ID (started …, held by … | expired, last held by … | stopped)": a run in one phrase, to choose between runs. */
export function leaseSummary(lease: V1Lease, nowMs: number): string {
  const id = lease.metadata?.labels?.[RUN_LABEL] ?? lease.metadata?.name ?? '';
  const started = lease.metadata?.creationTimestamp;
  const when = started ? `started ${new Date(started).toISOString().replace(/\.\d+Z$/, 'Z')}, ` : '';
  const holder = activeHolder(lease, nowMs);
  const last = lease.spec?.holderIdentity;
  const state = holder ? `held by ${holder}` : last ? `expired, last held by ${last}` : 'stopped';
  return `${id} (${when}${state})`;
}
