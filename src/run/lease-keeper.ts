import type { V1Lease, V1Node } from '@kubernetes/client-node';
import { releaseAnnotations } from '../kube/autoscaler-annotations.js';
import type { RunApi } from '../kube/run-api.js';
import { LEASE_SECONDS, microTime, RENEW_SECONDS, RUN_LABEL, runOfNode } from './state.js';

/** A renewal that did not reach the API server is tried again this soon, not at the next period. */
const RENEW_RETRY_MS = 1000;

/**
 * The run no longer holds what it drives: its Lease was deleted or is held by another process, or one of
 * its nodes was claimed by another run. The run stops before its next write; the message says why.
 */
export class LeaseLost extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LeaseLost';
  }
}

export interface KeeperContext {
  readonly api: RunApi;
  readonly namespace: string;
  readonly holder: string;
  readonly now: () => number;
}

/**
 * Keeps the run's Lease while the run works: renews it every RENEW_SECONDS and watches it, so that a Lease
 * deleted or taken by another process is noticed at once (`lost` is called, once), and `confirm` reads it
 * again before each write. A run that loses its Lease stops: it never takes it back, since whoever deleted
 * or took it may already drive the run's nodes. `release` clears the holder so that a resume need not wait
 * for the Lease to expire; `remove` deletes it when the run is done.
 */
export class LeaseKeeper {
  private timer: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  private renewing = false;
  private watch: { stop(): void } | undefined;
  private current: V1Lease;
  private lostWith: LeaseLost | null = null;
  private heldUntilMs: number;
  /** The Lease read that `confirm` is waiting on, shared by every caller that asks meanwhile. */
  private confirming: Promise<V1Lease | null> | undefined;

  constructor(
    private readonly ctx: KeeperContext,
    lease: V1Lease,
    private readonly lost: (err: LeaseLost) => void,
  ) {
    this.current = lease;
    // The Lease was taken (created or replaced) with this process's clock in renewTime.
    const renewed = Date.parse(String(lease.spec?.renewTime ?? ''));
    this.heldUntilMs = (Number.isNaN(renewed) ? ctx.now() : renewed) + this.durationMs;
  }

  private get durationMs(): number {
    return (this.current.spec?.leaseDurationSeconds ?? LEASE_SECONDS) * 1000;
  }

  /**
   * Until when (epoch ms, this process's clock) the Lease lets the run hold its nodes: its last renewal
   * that the API server took, counted from when it was sent, plus the Lease's duration. No other process
   * takes the run's nodes before then (claim.ts); after it, one may.
   */
  heldUntil(): number {
    return this.heldUntilMs;
  }

  private get name(): string {
    return this.current.metadata?.name ?? '';
  }

  /** Why the run lost its Lease, once it has. */
  get lostReason(): LeaseLost | null {
    return this.lostWith;
  }

  start(): void {
    this.timer = setInterval(() => void this.renew(), RENEW_SECONDS * 1000);
    this.timer.unref();
    // Events after stop (the run's own release or removal) are not a loss.
    this.watch = this.ctx.api.watchLease(this.ctx.namespace, this.name, (lease) => {
      if (this.timer) this.check(lease);
    });
  }

  /**
   * Throws LeaseLost unless the Lease, read now, is still held by this process. Callers that ask while a
   * read is on its way share its answer (the writes of a batch's nodes, asked at once): the Lease as the
   * API server had it at most one round trip before they asked, the window there is anyway between a read
   * and the write it guards.
   */
  async confirm(): Promise<void> {
    if (this.lostWith) throw this.lostWith;
    this.confirming ??= this.ctx.api.readLease(this.ctx.namespace, this.name).finally(() => {
      this.confirming = undefined;
    });
    this.check(await this.confirming);
    if (this.lostWith) throw this.lostWith;
  }

  /** Marks the Lease lost when `lease` (null: deleted) is no longer held by this process. */
  private check(lease: V1Lease | null): void {
    if (this.lostWith) return;
    const holder = lease?.spec?.holderIdentity;
    if (lease && holder === this.ctx.holder) return;
    const how = !lease ? 'deleted by someone else' : holder ? `now held by ${holder}` : 'released by someone else';
    const run = this.current.metadata?.labels?.[RUN_LABEL] ?? this.name;
    this.lostWith = new LeaseLost(
      `run ${run} lost its Lease ${this.ctx.namespace}/${this.name} (${how}): it stopped before its next write, and each node keeps its last recorded phase (kubectl maint runs shows them)`,
    );
    this.stop();
    this.lost(this.lostWith);
  }

  private async renew(): Promise<void> {
    if (this.renewing || !this.timer) return;
    this.renewing = true;
    const sent = this.ctx.now();
    try {
      // Replaced at the resourceVersion last seen: a Lease someone else took or changed meanwhile (even
      // while the API server was away from here) is refused with 409, never taken back.
      this.current = await this.ctx.api.replaceLease(this.ctx.namespace, {
        ...this.current,
        spec: { ...this.current.spec, renewTime: microTime(sent) },
      });
      this.heldUntilMs = sent + this.durationMs;
    } catch {
      // Refused (409: changed by someone else, 404: deleted) or the API is unreachable: read it to know which.
      const latest = await this.ctx.api.readLease(this.ctx.namespace, this.name).then(
        (lease) => ({ lease }),
        () => null,
      );
      if (!latest) {
        // Unreachable: tried again soon, so that the Lease is renewed as soon as the server is back.
        this.retryRenewal();
      } else {
        this.check(latest.lease);
        // Still ours (a conflict with a stale copy of it): renewed from the latest copy at once.
        if (!this.lostWith && latest.lease) {
          this.current = latest.lease;
          this.retryRenewal();
        }
      }
    } finally {
      this.renewing = false;
    }
  }

  private retryRenewal(): void {
    if (!this.timer || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.renew();
    }, RENEW_RETRY_MS);
    this.retry.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.retry) clearTimeout(this.retry);
    this.retry = undefined;
    this.watch?.stop();
    this.watch = undefined;
  }

  /** Gives the Lease back, recording `annotations` on it in the same write. */
  async release(annotations?: Readonly<Record<string, string>>): Promise<void> {
    this.stop();
    await giveBack(this.ctx, this.name, annotations);
  }

  async remove(): Promise<void> {
    this.stop();
    await this.ctx.api.deleteLease(this.ctx.namespace, this.name);
  }
}

/** Clears the holder of Lease `name` if it is still `holder`: the run stopped and may be resumed at once. */
export async function giveBack(
  ctx: { readonly api: RunApi; readonly namespace: string; readonly holder: string },
  name: string,
  annotations?: Readonly<Record<string, string>>,
): Promise<void> {
  const latest = await ctx.api.readLease(ctx.namespace, name);
  if (!latest || latest.spec?.holderIdentity !== ctx.holder) return;
  const metadata = annotations
    ? { ...latest.metadata, annotations: { ...latest.metadata?.annotations, ...annotations } }
    : latest.metadata;
  await ctx.api.replaceLease(ctx.namespace, { ...latest, metadata, spec: { ...latest.spec, holderIdentity: '' } });
}

/**
 * Writes annotations (and with `uncordon` the uncordon) on a node of run `runId`, only while the node is
 * still claimed by that run: the write is guarded by the resourceVersion of the read that saw the claim,
 * so a node another run took meanwhile (--take-over) is never written. Throws LeaseLost when it was taken.
 * With `releaseAutoscalers`, the autoscaler annotations the run's cordon set are given back in the same
 * write (kube/autoscaler-annotations.ts): the node's maintenance is over. `annotations` may be made from
 * that read (what the node records already). `confirm` (the run's check that it still holds its Lease) is
 * asked beside the node's first read, not before it: the write is sent only once both have answered.
 */
export async function writeOwnNode(
  api: RunApi,
  runId: string,
  node: string,
  annotations: Readonly<Record<string, string | null>> | ((read: V1Node) => Readonly<Record<string, string | null>>),
  options: {
    readonly uncordon?: boolean;
    readonly releaseAutoscalers?: boolean;
    readonly confirm?: () => Promise<void>;
  } = {},
): Promise<void> {
  for (let reads = 0; ; reads += 1) {
    const [read] = await Promise.all([api.readNode(node), reads === 0 ? options.confirm?.() : undefined]);
    const owner = runOfNode(read);
    if (owner !== runId) {
      const now = owner ? `is in run ${owner}` : 'is no longer claimed by any run';
      throw new LeaseLost(
        `node "${node}" ${now}: run ${runId} stopped before its next write, and each node keeps its last recorded phase`,
      );
    }
    const own = typeof annotations === 'function' ? annotations(read) : annotations;
    const release = options.releaseAutoscalers ? releaseAnnotations(read.metadata?.annotations) : null;
    const write = release ? { ...release, ...own } : own;
    const rv = read.metadata?.resourceVersion;
    if (await api.annotateNodeIfUnchanged(node, write, rv, { uncordon: options.uncordon === true })) return;
  }
}
