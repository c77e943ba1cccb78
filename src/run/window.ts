/**
 * The run's window, as a pure decision: which nodes start next, given the plan's order, how many nodes may
 * be out of service at once (the plan's largest batch, --max-unavailable) and what is out now. The runner
 * (runner.ts) asks after every change and does what it says; nothing here reads the cluster or the clock.
 *
 * A node is out of service from its cordon until it is back (uncordoned). Two kinds count against the width:
 * - in flight: started by this run and not yet finished;
 * - held: out of service and not in flight — a node that ended in a failed phase still cordoned (it stays
 *   cordoned until the operator resumes the run), or, on a resume, a node found cordoned mid-way. A held node
 *   that is still in the queue (a resume continues it) takes no new slot when it starts: it is out already.
 * A node whose batch was never cordoned (its fresh plan was blocked) is neither: its slot is free again.
 */

/** A node of the plan's order, not yet started, with its batch (1-based). */
export interface QueuedNode {
  readonly node: string;
  readonly batch: number;
}

export interface WindowState {
  /** How many nodes may be out of service at once. */
  readonly width: number;
  /** The nodes not yet started, in the plan's order. */
  readonly queue: readonly QueuedNode[];
  /** Nodes started and not yet finished. */
  readonly inFlight: number;
  /** Nodes out of service and not in flight (failed and still cordoned; found cordoned by a resume). */
  readonly held: ReadonlySet<string>;
  /** A node or a batch has failed in this run. */
  readonly failed: boolean;
  /** --keep-going: a failure does not stop the run from starting more nodes. */
  readonly keepGoing: boolean;
  /**
   * Nodes passed over in this turn of the window: their fresh plan was blocked while other nodes were out.
   * The nodes after them in the queue may take the free slot meanwhile (at most PASS_OVER_LIMIT passed over
   * per turn); they are tried again, first, once something changed.
   */
  readonly passedOver?: ReadonlySet<string>;
}

/** How many nodes a turn of the window passes over before it waits: each try reads a whole snapshot. */
export const PASS_OVER_LIMIT = 4;

export type WindowStep =
  /** Start these nodes of `batch` together, as one group (planned and drained as a batch is). */
  | { readonly kind: 'start'; readonly batch: number; readonly nodes: readonly string[] }
  /** Nothing can start until a node in flight finishes. */
  | { readonly kind: 'wait' }
  /**
   * Start nothing more (the nodes in flight finish): `done` every node started; `failed` a failure without
   * --keep-going; `held` every slot is held by nodes this run cannot bring back, and nothing is in flight.
   */
  | { readonly kind: 'stop'; readonly why: 'done' | 'failed' | 'held' };

export function nextStep(state: WindowState): WindowStep {
  const { queue, held } = state;
  if (state.failed && !state.keepGoing) return { kind: 'stop', why: 'failed' };
  if (queue.length === 0) return { kind: 'stop', why: 'done' };
  const passedOver = state.passedOver ?? new Set<string>();
  // The first node not passed over leads; when every node is (or the turn has passed over enough), the
  // window waits for a node in flight, or, with none, goes on from the head of the queue.
  const open = passedOver.size >= PASS_OVER_LIMIT ? [] : queue.filter((q) => !passedOver.has(q.node));
  if (open.length === 0 && state.inFlight > 0) return { kind: 'wait' };
  const candidates = open.length > 0 ? open : queue;
  let free = state.width - state.inFlight - held.size;
  const batch = candidates[0]!.batch;
  const nodes: string[] = [];
  for (const { node, batch: of } of candidates) {
    if (of !== batch) break;
    if (held.has(node)) nodes.push(node);
    else if (free > 0) {
      nodes.push(node);
      free -= 1;
    } else break;
  }
  if (nodes.length > 0) return { kind: 'start', batch, nodes };
  if (state.inFlight > 0) return { kind: 'wait' };
  // Nothing in flight and no free slot: a held node further on in the queue (a resume found it out) goes
  // first, so that the window can turn again; otherwise nothing ever will.
  const out = queue.find((q) => held.has(q.node));
  if (out) return { kind: 'start', batch: out.batch, nodes: [out.node] };
  return { kind: 'stop', why: 'held' };
}

/** Why a `held` stop stopped, in words, for the run's warning. */
export function heldReason(width: number, held: ReadonlySet<string>): string {
  const names = [...held].map((n) => `"${n}"`).join(', ');
  return `every slot of the window (${width} at once) is held by a node still out of service after a failure (${names}): no further node starts`;
}

/**
 * Which batches are finished, reported in the plan's order: a batch is finished once all its nodes have
 * ended, and is reported only once every batch before it is (the window lets batches overlap).
 */
export class BatchProgress {
  private readonly left = new Map<number, number>();
  private readonly failed = new Set<number>();
  private readonly started = new Set<number>();
  private readonly order: number[];

  constructor(queue: readonly QueuedNode[]) {
    for (const { batch } of queue) this.left.set(batch, (this.left.get(batch) ?? 0) + 1);
    this.order = [...this.left.keys()];
  }

  /** True the first time a node of `batch` starts. */
  start(batch: number): boolean {
    if (this.started.has(batch)) return false;
    this.started.add(batch);
    return true;
  }

  /** `count` nodes of `batch` ended (a group); `ok` false when one of them (or the group's budgets) failed. */
  ended(batch: number, count: number, ok: boolean): void {
    this.left.set(batch, (this.left.get(batch) ?? 0) - count);
    if (!ok) this.failed.add(batch);
  }

  /** The batches before `batch` not yet reported finished, in order: a window that starts `batch` slid past them. */
  unfinishedBefore(batch: number): number[] {
    return this.order.filter((b) => b < batch);
  }

  /** The batches now finished whose turn it is, in order, each reported once. */
  finished(): Array<{ batch: number; ok: boolean }> {
    const out: Array<{ batch: number; ok: boolean }> = [];
    while (this.order.length > 0 && this.left.get(this.order[0]!) === 0) {
      const batch = this.order.shift()!;
      out.push({ batch, ok: !this.failed.has(batch) });
    }
    return out;
  }

  /** When the run stops: every started batch not yet reported, in order; ok only if all its nodes ended well. */
  stopped(): Array<{ batch: number; ok: boolean }> {
    const out = this.order
      .filter((b) => this.started.has(b))
      .map((batch) => ({ batch, ok: this.left.get(batch) === 0 && !this.failed.has(batch) }));
    this.order.length = 0;
    return out;
  }
}
