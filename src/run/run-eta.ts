import { batchEta, type BatchDrainTimes } from '../plan/pool-eta.js';

/** What the pool plan estimated when the run started, recorded with the run so a resume estimates too. */
export interface RunEstimates {
  /** --command-time in seconds: the command and the node's return, per batch; null when not given. */
  readonly commandSeconds: number | null;
  /** Per batch, in run order: its drain and its replacements' readiness, as the pool plan saw them. */
  readonly batches: readonly BatchDrainTimes[];
}

/** Where the command's time in an estimate comes from: this run's finished batches, --command-time, or nowhere. */
export type CommandBasis = 'measured' | 'assumed' | 'none';

/** The run's ETA at one moment, in seconds from then: what an `eta` event carries. */
export interface RunEtaNow {
  /** Seconds left in the current batch (0 once it finished); null when it cannot be told (a blocked drain). */
  readonly batchSeconds: number | null;
  /** Seconds left in the whole run; null when a batch cannot be told. */
  readonly runSeconds: number | null;
  /** The command and the node's return, per batch, as the estimate counts it (0 when not counted). */
  readonly commandSeconds: number;
  readonly commandBasis: CommandBasis;
}

/**
 * The run's estimate, kept up to date as it goes: each batch is its drain (the fresh plan of the batch
 * once it starts, the pool plan's before), the command and the node's return, and what is left of its
 * budgets' recovery (pool-eta.ts). The command's time is the operator's assumption until a batch of this
 * run (before a resume too) has measured it; then the mean of the measured batches replaces it.
 */
export class RunEta {
  private readonly measured: number[];

  /** `measured`: the batches' command times this run measured before it was resumed. */
  constructor(
    private readonly estimates: RunEstimates | undefined,
    measured: readonly number[] = [],
  ) {
    this.measured = [...measured];
  }

  /** Every batch's command and return this run measured, those before a resume first: what its state records. */
  measuredSeconds(): readonly number[] {
    return [...this.measured];
  }

  /** A batch's command and return, from its drain's end until its last node was back. */
  recordCommand(seconds: number): void {
    this.measured.push(seconds);
  }

  command(): { seconds: number; basis: CommandBasis } {
    if (this.measured.length > 0) {
      return { seconds: round(this.measured.reduce((a, b) => a + b, 0) / this.measured.length), basis: 'measured' };
    }
    const assumed = this.estimates?.commandSeconds;
    return assumed == null ? { seconds: 0, basis: 'none' } : { seconds: assumed, basis: 'assumed' };
  }

  /**
   * The estimate at a step of batch `batch` (1-based): when it starts (with its fresh drain plan), when its
   * drain is over, or when it is finished. `later` are the numbers of the batches still to run after it.
   */
  at(step: 'started' | 'drained' | 'finished', current: BatchDrainTimes | null, later: readonly number[]): RunEtaNow {
    const command = this.command();
    const batchSeconds = this.left(step, current, command.seconds);
    const laterSeconds = later.map((n) => {
      const times = this.estimates?.batches[n - 1];
      return times ? batchEta(times, command.seconds).totalSeconds : null;
    });
    const runSeconds =
      batchSeconds === null || laterSeconds.some((s) => s === null)
        ? null
        : round(laterSeconds.reduce<number>((a, b) => a + (b ?? 0), batchSeconds));
    return { batchSeconds, runSeconds, commandSeconds: command.seconds, commandBasis: command.basis };
  }

  private left(
    step: 'started' | 'drained' | 'finished',
    current: BatchDrainTimes | null,
    command: number,
  ): number | null {
    if (step === 'finished') return 0;
    if (!current) return null;
    if (step === 'started') return batchEta(current, command).totalSeconds;
    // The drain is over: the command, or the replacements still to become Ready if they take longer.
    return round(Math.max(command, current.replacementsReadySeconds - (current.drainSeconds ?? 0)));
  }
}

const round = (seconds: number) => Math.round(seconds * 10) / 10;
