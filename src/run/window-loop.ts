import { Notifier } from './changes.js';
import type { RunEventBody } from './events.js';
import { isFailedPhase, type NodePhase } from './state.js';
import { BatchProgress, heldReason, nextStep, type QueuedNode } from './window.js';

/**
 * What a group tells the window: planned (its nodes cordoned, or not to be), and each node finished; and
 * asks it: may this group, blocked while others are out, be passed over for a later node?
 */
export interface GroupHooks {
  readonly planned: () => void;
  readonly nodeDone: (node: string) => void;
  readonly passOver: () => boolean;
  /**
   * Its nodes are back and it waits on the cluster (its budgets to recover): the window starts the next
   * batch meanwhile, and says so. Until a group says this or ends, the window waits for it before starting
   * a later batch, so that a batch whose end is known at once is reported done before the next starts.
   */
  readonly finishing: () => void;
}

/** The node steps as the window drives them (runner.ts): it starts groups, they carry them out. */
export interface WindowSteps {
  /**
   * A group of one batch's nodes through its steps: true when every node is back in service and its
   * budgets too; 'passed-over' when its fresh plan was blocked and `passOver` allowed it (nothing written).
   */
  runGroup(batch: number, nodes: readonly string[], hooks: GroupHooks): Promise<boolean | 'passed-over'>;
  phaseOf(node: string): NodePhase;
  /** Whether the node is cordoned now: a failed node still cordoned keeps its slot. */
  isCordoned(node: string): boolean;
  /** Whether nothing more may start: the run was interrupted, paused, or its command cannot start. */
  halted(): boolean;
  /** Whether the run was interrupted or paused: finished batches are then not reported. */
  stopping(): boolean;
  emit(event: RunEventBody): void;
  /** `batch` is finished: the event and the estimate after it. */
  batchFinished(batch: number, ok: boolean): void;
  /**
   * Until a node of the window is back, a budget or a node of the run changed, or a moment passed, and at
   * least a replanning interval after `since`: when the nodes passed over plan again.
   */
  untilRetry(since: number, slotFreed: Notifier): Promise<void>;
  now(): number;
}

/** How the window ended: a node or a group failed, or the API failed under a group (thrown by the caller). */
export interface WindowEnd {
  readonly failed: boolean;
  readonly error?: { readonly err: unknown } | undefined;
}

/**
 * A sliding window over the plan's order (window.ts decides what starts): at most as many nodes out of
 * service at once as the plan's largest batch (--max-unavailable), and the next node starts as soon as one
 * is back in service instead of when its whole batch is. Nodes that start together (free slots, same
 * batch) are planned and drained together, as a batch is. Each group is planned and cordoned before the
 * next is planned, so every fresh plan sees the nodes still out as cordoned; a group whose plan is blocked
 * while others are out waits for one of them to come back and plans again. A failed node stops the window
 * from starting anything more (--keep-going: it goes on, and the failed node, still cordoned, keeps its
 * slot); nodes already under way finish. With --pause (lockstep) each group, its pause included, is
 * waited for before the next starts.
 */
export class RunWindow {
  /** Nodes started and not yet finished (window.ts). */
  inFlight = 0;
  /** Nodes out of service and not in flight: failed and still cordoned, or found mid-way by a resume (window.ts). */
  readonly held = new Set<string>();
  /** Wakes whoever waits for a slot (a node finished, a group ended). */
  readonly slotFreed = new Notifier();
  private progress: BatchProgress | undefined;

  constructor(
    private readonly batches: readonly (readonly string[])[],
    private readonly keepGoing: boolean,
    private readonly steps: WindowSteps,
  ) {}

  async run(lockstep: boolean): Promise<WindowEnd> {
    const { batches, steps } = this;
    const width = Math.max(1, ...batches.map((b) => b.length));
    const queue: QueuedNode[] = batches.flatMap((nodes, i) =>
      nodes.filter((n) => steps.phaseOf(n) !== 'done').map((node) => ({ node, batch: i + 1 })),
    );
    const progress = new BatchProgress(queue);
    this.progress = progress;
    const order = new Map(queue.map((q, i) => [q.node, i]));
    // Nodes whose fresh plan was blocked while others were out: the next ones may go first (window.ts).
    const passedOver = new Set<string>();
    let turnStarted = steps.now();
    let failed = false;
    const running = new Set<Promise<void>>();
    // Batches are reported finished in their order, once they and every batch before them are.
    const flush = () => {
      for (const { batch, ok } of progress.finished()) steps.batchFinished(batch, ok);
    };
    let error: { err: unknown } | undefined;
    // Groups under way whose nodes have all ended and which have not said they wait on the cluster: their
    // batch's end is about to be known.
    const ending = new Set<{ readonly batch: number }>();
    while (!steps.halted() && !error) {
      const step = nextStep({
        width,
        queue,
        inFlight: this.inFlight,
        held: this.held,
        failed,
        keepGoing: this.keepGoing,
        passedOver,
      });
      if (step.kind === 'wait') {
        if (passedOver.size === 0) {
          await this.slotFreed.next();
          continue;
        }
        // The nodes passed over plan again, first, once a node is back, a budget or a node of the run
        // changed, or a moment later; a new turn at most every replanning interval.
        await steps.untilRetry(turnStarted, this.slotFreed);
        passedOver.clear();
        turnStarted = steps.now();
        continue;
      }
      if (step.kind === 'stop') {
        if (step.why === 'held') {
          failed = true;
          steps.emit({ type: 'warning', message: heldReason(width, this.held) });
        }
        break;
      }
      const { batch, nodes: group } = step;
      if ([...ending].some((g) => g.batch < batch)) {
        // An earlier batch is ending: its done comes first, unless it says it waits (then this one slides past).
        await this.slotFreed.next();
        continue;
      }
      // A node out of service already (held) keeps its place: it is never passed over.
      const mayPassOver = !lockstep && !group.some((n) => this.held.has(n));
      for (const node of group) {
        queue.splice(
          queue.findIndex((q) => q.node === node),
          1,
        );
        this.held.delete(node);
      }
      this.inFlight += group.length;
      if (progress.start(batch)) {
        const unfinished = progress.unfinishedBefore(batch).map((earlier) => ({
          batch: earlier,
          nodes: batches[earlier - 1]!.filter((n) => steps.phaseOf(n) !== 'done'),
        }));
        steps.emit({
          type: 'batch-started',
          batch,
          nodes: batches[batch - 1]!,
          ...(unfinished.length > 0 ? { unfinished } : {}),
        });
      }
      let planned!: () => void;
      const cordoned = new Promise<void>((resolve) => (planned = resolve));
      const finishedNodes = new Set<string>();
      const self = { batch };
      let said = false;
      const nodeDone = (node: string) => {
        if (finishedNodes.has(node)) return;
        finishedNodes.add(node);
        this.inFlight -= 1;
        // A failed node still cordoned is out of service until a resume: it keeps its slot.
        if (isFailedPhase(steps.phaseOf(node))) {
          failed = true;
          if (steps.isCordoned(node)) this.held.add(node);
        }
        if (finishedNodes.size === group.length && !said) ending.add(self);
        this.slotFreed.notify();
      };
      const finishing = () => {
        said = true;
        ending.delete(self);
        this.slotFreed.notify();
      };
      const passOver = () => mayPassOver && queue.some((q) => !passedOver.has(q.node));
      const work = steps.runGroup(batch, group, { planned, nodeDone, passOver, finishing }).then(
        (ok) => {
          if (ok === 'passed-over') {
            // Not started (nothing written): back in the queue at their places, passed over this turn.
            for (const node of group) {
              passedOver.add(node);
              queue.push({ node, batch });
            }
            queue.sort((a, b) => order.get(a.node)! - order.get(b.node)!);
            return;
          }
          if (!ok) failed = true;
          progress.ended(batch, group.length, ok);
          if (!steps.stopping()) flush();
        },
        (err: unknown) => {
          // The API failed under a group: start nothing more, let the others end, then say why.
          error ??= { err };
          failed = true;
        },
      );
      const settled = work.finally(() => {
        planned();
        // Nodes the group left without finishing them (an interruption, a pause, an error) leave the window.
        for (const node of group) nodeDone(node);
        ending.delete(self);
        running.delete(settled);
        this.slotFreed.notify();
      });
      running.add(settled);
      await (lockstep ? settled : cordoned);
    }
    while (running.size > 0) await Promise.race(running);
    return { failed, error };
  }

  /** Batches the run stopped in (not all their nodes started, or after one that did not finish), in order. */
  stoppedBatches(): Array<{ batch: number; ok: boolean }> {
    return this.progress?.stopped() ?? [];
  }
}
