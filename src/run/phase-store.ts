import type { V1Node } from '@kubernetes/client-node';
import { ApiAway, durably, type Durability } from './durable.js';
import type { NodeState, RunEventBody } from './events.js';
import { writeOwnNode } from './lease-keeper.js';
import type { RunDeps } from './step-context.js';
import {
  ANNOTATION,
  historyWith,
  lifecycleConditions,
  phaseSeal,
  reached,
  trustedPhase,
  type NodePhase,
  type RunDefinition,
} from './state.js';

/** Where a node of the run is: its batch, its phase, and what went wrong there. */
export interface PhaseEntry {
  readonly batch: number;
  readonly phase: NodePhase;
  readonly problem?: string | undefined;
}

/** What a phase's write also carries, in the same request. */
export interface PhaseWriteExtras {
  readonly annotations?: Readonly<Record<string, string>>;
  readonly uncordon?: boolean;
  readonly releaseAutoscalers?: boolean;
  /** What the write records, in the words of the warning when the API server is away. */
  readonly kept?: string;
}

/** Phases written before a step starts, and the step: a write the API server never took means it never started. */
export const STEP_STARTS: ReadonlyMap<NodePhase, string> = new Map<NodePhase, string>([
  ['draining', 'drain'],
  ['command-running', 'command'],
  ['returning', 'wait to be back'],
  ['done', 'uncordon'],
]);

export const NOT_WRITTEN = "not written to the cluster: the API server did not answer before the run's Lease expired";

const joined = (a: string | undefined, b: string) => (a ? `${a}; ${b}` : b);

/**
 * Where the node really is once the API server never took its phase `phase`: a step that had not started
 * left it where it was (`was`, the phase that did not start named); a step that ended, at its end.
 * Undefined when nothing is known of the node.
 */
export function unwrittenEntry(
  was: PhaseEntry | undefined,
  batch: number,
  phase: NodePhase,
  problem: string | undefined,
): PhaseEntry | undefined {
  if (!STEP_STARTS.has(phase)) return { batch, phase, problem: joined(problem, NOT_WRITTEN) };
  return was && { ...was, problem: joined(was.problem, `${phase}: ${NOT_WRITTEN}`) };
}

/** How a node starts the run, read from the node itself (the run's annotations, its cordon). */
export interface StartingPhase {
  readonly node: string;
  readonly batch: number;
  readonly phase: NodePhase;
  /** A phase on the node the run did not write (edited by hand?): not trusted, the node starts over. */
  readonly distrusted?: NodePhase | undefined;
  readonly cordoned: boolean;
}

/**
 * Each node's phase at the start of a run (or a resume), from the nodes as read (`reads`, in the order of
 * the definition's batches). A node released when the run stopped stays done: another run or a drain may
 * have it now.
 */
export function startingPhases(
  definition: Pick<RunDefinition, 'id' | 'sealKey' | 'batches' | 'released'>,
  reads: readonly V1Node[],
): StartingPhase[] {
  const released = new Set(definition.released ?? []);
  const batchOf = definition.batches.flatMap((nodes, i) => nodes.map((node) => ({ node, batch: i + 1 })));
  return batchOf.map(({ node, batch }, i) => {
    if (released.has(node)) return { node, batch, phase: 'done', cordoned: false };
    const { phase, distrusted } = trustedPhase(reads[i]!, definition);
    return { node, batch, phase, distrusted, cordoned: reads[i]!.spec?.unschedulable === true };
  });
}

/**
 * The run's record of every node's phase: what it knows here, and each change written to the node
 * (annotation, and the lifecycle conditions where allowed) before it is known here.
 */
export class PhaseStore {
  private readonly phases = new Map<string, PhaseEntry>();
  /** Each node's lifecycle conditions on their way to its status (a promise that never rejects). */
  private readonly conditions = new Map<string, Promise<void>>();
  /** Each node's phase writes asked so far: conditions due to an earlier one give way to a later one's. */
  private readonly asked = new Map<string, number>();

  constructor(
    private readonly definition: RunDefinition,
    private readonly deps: Pick<RunDeps, 'api' | 'clock' | 'confirmHeld' | 'writeConditions'>,
    private readonly durability: (what: string) => Durability,
    private readonly emit: (event: RunEventBody) => void,
  ) {}

  phaseOf(node: string): NodePhase {
    return this.phases.get(node)?.phase ?? 'pending';
  }

  batchOf(node: string): number | undefined {
    return this.phases.get(node)?.batch;
  }

  /** A node's phase as the run found it when it started: nothing written. */
  found(node: string, batch: number, phase: NodePhase): void {
    this.phases.set(node, { batch, phase });
  }

  /** Nodes back in service or on their way there (returned or done). */
  returned(): Set<string> {
    return new Set([...this.phases].filter(([, s]) => reached(s.phase, 'returned')).map(([n]) => n));
  }

  /** Every node where it is now, for the final event. */
  states(): NodeState[] {
    return [...this.phases].map(([node, s]) => ({ node, batch: s.batch, phase: s.phase, problem: s.problem }));
  }

  /**
   * Records the phase on the node, then tells the listeners: only while the run holds its Lease and the
   * node is still its own (else LeaseLost, nothing written). `also`: annotations written with the phase,
   * and the uncordon, in the same request. The lifecycle conditions (where allowed) follow in the
   * background (writeConditionsAfter): the step goes on once the phase is written.
   */
  async set(
    node: string,
    batch: number,
    phase: NodePhase,
    problem?: string,
    also: PhaseWriteExtras = {},
  ): Promise<void> {
    const nowIso = new Date(this.deps.clock.now()).toISOString();
    const { sealKey, id } = this.definition;
    const asked = (this.asked.get(node) ?? 0) + 1;
    this.asked.set(node, asked);
    const write = async () => {
      // The node's earlier conditions first: sent at once, their status patch would change the node under
      // the phase's write, guarded by the node's resourceVersion, and send it back for a read and another
      // try. The Lease is read meanwhile, and the phase written once both have answered.
      const held = this.deps.confirmHeld();
      await Promise.all([this.conditions.get(node), held]);
      await writeOwnNode(
        this.deps.api,
        id,
        node,
        (read) => ({
          ...also.annotations,
          [ANNOTATION.phase]: phase,
          [ANNOTATION.since]: nowIso,
          [ANNOTATION.history]: historyWith(read, phase, nowIso),
          ...(sealKey ? { [ANNOTATION.seal]: phaseSeal(sealKey, id, node, phase, nowIso) } : {}),
        }),
        {
          uncordon: also.uncordon === true,
          releaseAutoscalers: also.releaseAutoscalers === true,
          confirm: () => held,
        },
      );
    };
    const before = STEP_STARTS.get(phase);
    const what = before
      ? `${node}'s ${before} starts once its phase ${phase} is written`
      : `${also.kept ?? `${node}'s phase ${phase}`} is kept and will be written`;
    try {
      await durably(write, this.durability(what));
    } catch (err) {
      if (err instanceof ApiAway) {
        const entry = unwrittenEntry(this.phases.get(node), batch, phase, problem);
        if (entry) this.phases.set(node, entry);
      }
      throw err;
    }
    this.phases.set(node, { batch, phase, problem });
    if (this.deps.writeConditions) this.writeConditionsAfter(node, phase, nowIso, asked);
    this.emit({ type: 'phase', node, batch, phase, problem });
  }

  /**
   * The node lifecycle conditions of the phase just written (the node's `asked`th), on the node's status,
   * after its earlier ones. They wait a turn of the event loop: a step that goes on at once to the next
   * phase (command-done to returning, returned to done) asks that write first, and then only the next
   * phase's conditions are written; the node's next phase write would otherwise wait for this status
   * patch. Best effort, as the run writes them only where it may: one that the API server refuses, or
   * does not take before the run's Lease expires, is a warning.
   */
  private writeConditionsAfter(node: string, phase: NodePhase, nowIso: string, asked: number): void {
    const earlier = this.conditions.get(node);
    const write = () => this.deps.api.setNodeConditions(node, lifecycleConditions(phase, nowIso));
    const kept = `${node}'s conditions for phase ${phase} are kept and will be written`;
    const written: Promise<void> = (earlier ?? Promise.resolve())
      .then(nextTurn)
      .then(() => (this.asked.get(node) === asked ? durably(write, this.durability(kept)) : undefined))
      .then(
        () => undefined,
        (err: unknown) =>
          this.emit({
            type: 'warning',
            message: `node "${node}": its lifecycle conditions for phase ${phase} were not written: ${(err as Error).message}`,
          }),
      )
      .finally(() => {
        if (this.conditions.get(node) === written) this.conditions.delete(node);
      });
    this.conditions.set(node, written);
  }

  /** Once every node's conditions are written (or said not to be): before the run's last event. */
  async settled(): Promise<void> {
    await Promise.all(this.conditions.values());
  }
}

/** Resolves after the callbacks already due, the I/O answered included: what the caller's steps ask at once comes first. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
