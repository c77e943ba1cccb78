import type { V1Lease, V1Node } from '@kubernetes/client-node';
import type { RunApi } from '../kube/run-api.js';
import { mapLimited } from './parallel.js';
import {
  activeHolder,
  ANNOTATION,
  definitionOf,
  leaseFor,
  leaseName,
  microTime,
  RENEW_SECONDS,
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

/** What the run needs to be allowed to do, checked before anything is written. */
export async function checkAccess(ctx: ClaimContext): Promise<{ conditions: boolean }> {
  const { api, namespace } = ctx;
  const needs = [
    {
      verb: 'create',
      group: 'coordination.k8s.io',
      resource: 'leases',
      namespace,
      why: `create Leases in namespace "${namespace}" (the run's state)`,
    },
    {
      verb: 'update',
      group: 'coordination.k8s.io',
      resource: 'leases',
      namespace,
      why: `update Leases in namespace "${namespace}" (the run's state)`,
    },
    { verb: 'patch', resource: 'nodes', why: 'patch nodes (cordon, uncordon and the phase annotations)' },
    { verb: 'create', resource: 'pods', subresource: 'eviction', why: 'create pods/eviction (the drain)' },
  ];
  // Asked at once; the first refusal in the list's order is the one reported.
  const [conditions, ...allowed] = await Promise.all([
    api.canI({ verb: 'patch', resource: 'nodes', subresource: 'status' }),
    ...needs.map(({ why: _why, ...check }) => api.canI(check)),
  ]);
  const refused = needs.find((_, i) => !allowed[i]);
  if (refused) throw new RunRefused(`cannot ${refused.why}: nothing was changed`);
  return { conditions };
}

/**
 * Refuses when a node of the pool belongs to another run: held (its Lease renewed and not expired) always,
 * naming the holder; stopped (Lease expired, released or gone) unless --take-over. The nodes are those of
 * the cluster read the pool was planned on (their annotations name the run); claimRun reads each again.
 */
export async function checkNodesFree(ctx: ClaimContext, nodes: readonly V1Node[], takeOver: boolean): Promise<void> {
  for (const node of nodes) {
    const other = runOfNode(node);
    const refusal = other ? await refusalFor(ctx, node.metadata?.name ?? '', other, takeOver) : null;
    if (refusal) throw new RunRefused(refusal);
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
 * what it claimed, deletes its Lease and refuses, naming the other run.
 */
export async function claimRun(ctx: ClaimContext, definition: RunDefinition, takeOver: boolean): Promise<V1Lease> {
  const lease = await ctx.api.createLease(ctx.namespace, leaseFor(definition, ctx.holder, ctx.nowMs, ctx.namespace));
  const claim = {
    [ANNOTATION.run]: definition.id,
    [ANNOTATION.phase]: 'pending',
    [ANNOTATION.since]: new Date(ctx.nowMs).toISOString(),
  };
  const claimed: string[] = [];
  let refusal: string | null = null;
  await mapLimited(definition.batches.flat(), async (node) => {
    while (refusal === null) {
      const read = await ctx.api.readNode(node);
      const other = runOfNode(read);
      const taken = other && other !== definition.id ? await refusalFor(ctx, node, other, takeOver) : null;
      if (taken) refusal ??= taken;
      else if (await ctx.api.annotateNodeIfUnchanged(node, claim, read.metadata?.resourceVersion)) {
        claimed.push(node);
        return;
      }
    }
  });
  if (refusal === null) return lease;
  const release = { [ANNOTATION.run]: null, [ANNOTATION.phase]: null, [ANNOTATION.since]: null };
  await mapLimited(claimed, (node) => ctx.api.annotateNode(node, release));
  await ctx.api.deleteLease(ctx.namespace, leaseName(definition.id));
  throw new RunRefused(refusal);
}

/**
 * Finds the run to resume (the one named, or the only one in the namespace) and takes its Lease: refused
 * while another process holds it and it has not expired.
 */
export async function takeRunForResume(
  ctx: ClaimContext,
  runId: string | undefined,
  /** A problem with the recorded run that refuses the resume before anything is written (its command). */
  check: (definition: RunDefinition) => string | null = () => null,
): Promise<{ lease: V1Lease; definition: RunDefinition }> {
  const leases = await ctx.api.listLeases(ctx.namespace, runId ? `${RUN_LABEL}=${runId}` : RUN_LABEL);
  if (leases.length === 0) {
    throw new RunRefused(
      runId ? `no run ${runId} in namespace "${ctx.namespace}"` : `no run to resume in namespace "${ctx.namespace}"`,
    );
  }
  if (leases.length > 1) {
    const ids = leases.map((l) => l.metadata?.labels?.[RUN_LABEL]).join(', ');
    throw new RunRefused(
      `${leases.length} runs to resume in namespace "${ctx.namespace}" (${ids}): name one with --resume RUN`,
    );
  }
  const lease = leases[0]!;
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
  return { lease: taken, definition };
}

/**
 * Renews the Lease every RENEW_SECONDS while the run works; `lost` aborts when another process took it
 * (an update refused with 409, or a holder that is not us). `release` clears the holder so that a resume
 * need not wait for the Lease to expire; `remove` deletes it when the run is done.
 */
export class LeaseKeeper {
  private timer: NodeJS.Timeout | undefined;
  private current: V1Lease;

  constructor(
    private readonly ctx: Omit<ClaimContext, 'nowMs'> & { now: () => number },
    lease: V1Lease,
    private readonly lost: (why: string) => void,
  ) {
    this.current = lease;
  }

  start(): void {
    this.timer = setInterval(() => void this.renew(), RENEW_SECONDS * 1000);
    this.timer.unref();
  }

  private async renew(): Promise<void> {
    try {
      const now = microTime(this.ctx.now());
      this.current = await this.ctx.api.replaceLease(this.ctx.namespace, {
        ...this.current,
        spec: { ...this.current.spec, renewTime: now },
      });
    } catch (err) {
      const latest = await this.ctx.api
        .readLease(this.ctx.namespace, this.current.metadata?.name ?? '')
        .catch(() => null);
      if (latest && latest.spec?.holderIdentity !== this.ctx.holder) {
        this.stop();
        this.lost(`the run's lease was taken by ${latest.spec?.holderIdentity ?? 'someone else'}`);
      } else if (latest) {
        this.current = latest;
      }
      void err;
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  async release(): Promise<void> {
    this.stop();
    const latest = await this.ctx.api.readLease(this.ctx.namespace, this.current.metadata?.name ?? '');
    if (!latest || latest.spec?.holderIdentity !== this.ctx.holder) return;
    await this.ctx.api.replaceLease(this.ctx.namespace, { ...latest, spec: { ...latest.spec, holderIdentity: '' } });
  }

  async remove(): Promise<void> {
    this.stop();
    await this.ctx.api.deleteLease(this.ctx.namespace, this.current.metadata?.name ?? '');
  }
}
