import type { V1Node } from '@kubernetes/client-node';
import type { RunApi } from '../kube/run-api.js';
import { holderGone } from '../process-holder.js';

/**
 * One drain per node: `kubectl maint drain` marks each node it works on with an annotation naming the
 * process and when the mark expires, renews it while it drains and removes it at the end. A second drain,
 * or a run, finds a live mark and refuses, naming the first. A mark whose process died expires; on the
 * host that made it, it is void at once (a drain killed with SIGKILL can be run again straight away).
 */
export const DRAIN_MARK = 'maint.kubectl.io/drain';
export const MARK_SECONDS = 30;
const RENEW_SECONDS = 10;

export interface DrainMark {
  readonly holder: string;
  /** ISO time the mark expires unless renewed. */
  readonly expires: string;
  /** The run whose drain this is (`kubectl maint run`); absent for `kubectl maint drain`. */
  readonly run?: string;
}

/** A refusal before anything is written: one line for the operator. */
export class DrainMarked extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DrainMarked';
  }
}

/**
 * The node's drain mark while it is live: not expired at `nowMs`, and its process not known to have ended
 * (`gone`); null otherwise.
 */
export function liveDrainMark(
  node: V1Node,
  nowMs: number,
  gone: (holder: string) => boolean = holderGone,
): DrainMark | null {
  const text = node.metadata?.annotations?.[DRAIN_MARK];
  if (!text) return null;
  try {
    const mark = JSON.parse(text) as DrainMark;
    return typeof mark.holder === 'string' && Date.parse(mark.expires) > nowMs && !gone(mark.holder) ? mark : null;
  } catch {
    return null;
  }
}

/** Why a node with a live drain mark may not be drained (or run) by anyone else. */
export function drainMarkRefusal(node: string, mark: DrainMark, nowMs: number): string {
  const left = Math.max(0, Math.ceil((Date.parse(mark.expires) - nowMs) / 1000));
  const by = typeof mark.run === 'string' ? `run ${mark.run} (${mark.holder})` : mark.holder;
  return `node "${node}" is being drained by ${by} (its drain mark expires in ${left}s unless renewed): nothing was changed`;
}

type MarkApi = Pick<RunApi, 'readNode' | 'annotateNode' | 'annotateNodeIfUnchanged' | 'canI'>;

/**
 * The marks of one drain: taken before the cordon, renewed while it drains, removed at the end. A run's
 * drains mark their nodes too, naming the run (`run`): a mark of the same run left by a process of it that
 * was killed is the run's own, taken over by the process that resumes it.
 */
export class DrainMarks {
  private readonly marked: string[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly api: MarkApi,
    private readonly holder: string,
    private readonly now: () => number,
    private readonly run?: string,
  ) {}

  private value(): string {
    const expires = new Date(this.now() + MARK_SECONDS * 1000).toISOString();
    return JSON.stringify({ holder: this.holder, expires, ...(this.run === undefined ? {} : { run: this.run }) });
  }

  private isOwn(mark: DrainMark): boolean {
    return mark.holder === this.holder || (this.run !== undefined && mark.run === this.run);
  }

  /**
   * Marks every node, all at once, each write guarded by the read that found it free; a node another
   * process marks refuses the drain (DrainMarked, the first node's in the given order) once every write
   * has ended, the marks taken removed first. A user RBAC does not let patch nodes goes on unmarked: the
   * cordon is refused next, and that is the error the drain reports.
   */
  async take(nodes: readonly string[]): Promise<void> {
    // Asked first, so that a user who may not patch nodes sends no mark the API server would refuse. A
    // run's drains are not asked: the run checked its whole role, patch nodes included, before it wrote
    // anything (run/claim.ts).
    if (this.run === undefined && !(await this.api.canI({ verb: 'patch', resource: 'nodes' }))) return;
    const taken = await Promise.allSettled(nodes.map((node) => this.takeOne(node)));
    const failed = taken.find((result) => result.status === 'rejected');
    if (failed) {
      await this.release().catch(() => undefined);
      throw failed.reason;
    }
    this.timer = setInterval(() => void this.renew(), RENEW_SECONDS * 1000);
    this.timer.unref();
  }

  private async takeOne(node: string): Promise<void> {
    for (;;) {
      const read = await this.api.readNode(node);
      const mark = liveDrainMark(read, this.now());
      if (mark && !this.isOwn(mark)) throw new DrainMarked(drainMarkRefusal(node, mark, this.now()));
      if (
        await this.api.annotateNodeIfUnchanged(node, { [DRAIN_MARK]: this.value() }, read.metadata?.resourceVersion)
      ) {
        this.marked.push(node);
        return;
      }
    }
  }

  private async renew(): Promise<void> {
    const value = this.value();
    // A renewal that fails is tried again at the next tick; the mark lasts three ticks.
    await Promise.all(this.marked.map((node) => this.api.annotateNode(node, { [DRAIN_MARK]: value }))).catch(
      () => undefined,
    );
  }

  /** Removes the marks this drain holds (one another process took since, after ours expired, stays). */
  async release(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    const nodes = this.marked.splice(0);
    await Promise.all(
      nodes.map(async (node) => {
        for (;;) {
          const read = await this.api.readNode(node);
          if (liveDrainMark(read, 0)?.holder !== this.holder) return;
          if (await this.api.annotateNodeIfUnchanged(node, { [DRAIN_MARK]: null }, read.metadata?.resourceVersion))
            return;
        }
      }),
    );
  }
}
