import type { BackoffSchedule } from '../drain/backoff.js';
import type { Clock } from '../drain/clock.js';
import type { DrainApi } from '../kube/drain-api.js';
import type { ClusterChange, RunApi } from '../kube/run-api.js';
import type { Snapshot } from '../snapshot/types.js';
import type { ChangeFeed, Notifier } from './changes.js';
import type { runCommand } from './command.js';
import { durably, type Durability } from './durable.js';
import type { RunEvent, RunEventBody } from './events.js';
import type { PhaseStore } from './phase-store.js';
import type { RunDefinition } from './state.js';

export interface RunDeps {
  readonly api: RunApi;
  readonly drain: DrainApi;
  readonly clock: Clock;
  /**
   * A fresh picture of the cluster, read before each batch's drain. With `builtSince` (epoch ms, the run's
   * clock), one made since then will do even if the cluster changed after: the plans several groups make
   * after one change share it (and its index, batch-drain.ts planBatch).
   */
  readonly loadSnapshot: (builtSince?: number) => Promise<Snapshot>;
  readonly emit: (event: RunEvent) => void;
  /** Write the node lifecycle conditions on node status (the user may patch nodes/status). */
  readonly writeConditions: boolean;
  readonly kubeconfig?: string | undefined;
  /** The command that continues this run, for the final event. */
  readonly resumeCommand: (rerunCommand: boolean) => string;
  /**
   * --pause: waits for the operator once a batch is drained ('continue'), or says the run stops here
   * ('stop': no terminal to wait on; the nodes stay drained until --resume).
   */
  readonly pause?: { readonly waitingFor: 'key' | 'resume'; readonly wait: () => Promise<'continue' | 'stop'> };
  /** Where the command's output is kept (command-log.ts), said in the first and last events. */
  readonly commandLog?: string | undefined;
  /**
   * Confirms, before each write, that the run still holds its Lease (LeaseKeeper.confirm): throws
   * LeaseLost when it does not, and the run stops there.
   */
  readonly confirmHeld: () => Promise<void>;
  /**
   * Until when (epoch ms) the run's Lease lets it hold its nodes (LeaseKeeper.heldUntil): a write or a read
   * the API server does not answer is tried again until then (durable.ts).
   */
  readonly heldUntil: () => number;
  /** Runs the operator's command (runCommand; replaceable only to observe it). */
  readonly runCommand?: typeof runCommand;
}

export interface RunControl {
  /**
   * Stops the run (a first Ctrl-C): nothing new starts, drains stop evicting, waits end; commands already
   * running go on to their end and their outcome is recorded. Every node stays in its recorded phase.
   */
  readonly signal: AbortSignal;
  /** Kills the commands still running (a second Ctrl-C): their nodes stay in phase command-running. */
  readonly killCommands: AbortSignal;
  /** --resume --rerun-command: run the command again on nodes whose command did not finish or failed. */
  readonly rerunCommand: boolean;
  readonly resumed: boolean;
  readonly holder: string;
}

/**
 * How often the run reads what it waits for (a node's return, budgets, the cluster settling) when nothing
 * it watches has changed (ChangeFeed): a change wakes a wait at once, the timer is the fallback should a
 * watch be late or down. A node or a budget is one small GET; a fresh plan reads a whole snapshot. The
 * reads of a node or a budget back off (250 ms, doubled up to 5 s): a wait whose watch is down never
 * turns into a GET every 250 ms.
 */
export const POLL: BackoffSchedule = { initialMs: 250, factor: 2, maxMs: 5_000 };
export const SETTLE_POLL_MS = 1000;
/** A fresh plan woken by changes reads a snapshot at most this often: a busy cluster changes all the time. */
const REPLAN_MIN_MS = 200;
/**
 * After a fresh plan that took T, a plan woken by changes waits until this many T have passed since it
 * ended: on a cluster so big that a plan takes a second, a busy cluster would otherwise keep the run
 * planning without a pause, its event loop held, its watches falling behind until the API server closes
 * them. Re-planning holds the main thread a third of the time at most. A node of the window back is not
 * paced: what it frees is worth planning at once.
 */
const REPLAN_IDLE_PER_PLAN = 2;

/**
 * What a node step works with (each step's own interface says which parts it uses): the run's
 * definition and control, its phases, its events, and its reads and waits on the cluster.
 */
export interface StepBase {
  readonly definition: RunDefinition;
  readonly control: RunControl;
  readonly deps: RunDeps;
  readonly phases: PhaseStore;
  readonly waits: RunWaits;
  readonly aborted: () => boolean;
  readonly emit: (event: RunEventBody) => void;
}

/** The run's reads and waits on the cluster: tried again while the API server is away, woken by changes. */
export class RunWaits {
  constructor(
    private readonly deps: RunDeps,
    private readonly signal: AbortSignal,
    private readonly changes: ChangeFeed,
    private readonly emit: (event: RunEventBody) => void,
  ) {}

  /** A read the run needs, tried again while the API server is away and the run's Lease holds. */
  read<T>(what: string, attempt: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    return durably(attempt, { ...this.durability(`reading ${what} again once it answers`), signal });
  }

  /** How a write or a read outlasts an API server that is away (durable.ts); `what` names what waits. */
  durability(what: string): Durability {
    return {
      clock: this.deps.clock,
      heldUntil: this.deps.heldUntil,
      onAway: (reason: string, seconds: number) =>
        this.emit({
          type: 'warning',
          message: `API server unreachable: ${what} (trying again for up to ${seconds}s, while the run's Lease holds its nodes): ${reason}`,
        }),
    };
  }

  /**
   * Until a change `wants` accepts or `ms` pass, whichever comes first; false when the run is aborted. The
   * waits that lose the race are dropped.
   */
  async changeOrTimeout(ms: number, wants: (change: ClusterChange) => boolean): Promise<boolean> {
    return (await this.changeSlotOrTimeout(ms, wants)).awake;
  }

  /**
   * changeOrTimeout, or a node of the window back (`slotFreed`) first: whether that woke it, which
   * notSooner does not pace.
   */
  async changeSlotOrTimeout(
    ms: number,
    wants: (change: ClusterChange) => boolean,
    slotFreed?: Notifier,
  ): Promise<{ readonly awake: boolean; readonly freed: boolean }> {
    const done = new AbortController();
    const stop = () => done.abort();
    this.signal.addEventListener('abort', stop, { once: true });
    let freed = false;
    try {
      const awake = await Promise.race([
        this.changes.next(done.signal, wants),
        this.deps.clock.sleep(ms, done.signal),
        ...(slotFreed ? [slotFreed.next(done.signal).then((woken) => (freed = woken))] : []),
      ]);
      return { awake, freed };
    } finally {
      this.signal.removeEventListener('abort', stop);
      done.abort();
    }
  }

  /** When the run's last fresh plan ended and how long it took (`planned`): what paces the next (`notSooner`). */
  private lastPlan = { endedAt: -Infinity, tookMs: 0 };

  /** A fresh plan was made, from `startedAt` until now (its own work, not its wait for the cache). */
  planned(startedAt: number): void {
    const now = this.deps.clock.now();
    this.lastPlan = { endedAt: now, tookMs: now - startedAt };
  }

  /**
   * Waits out what is left of REPLAN_MIN_MS since `since` (a snapshot read started then) and, unless
   * `paced` is false, of REPLAN_IDLE_PER_PLAN times the run's last plan since it ended.
   */
  async notSooner(since: number, paced = true): Promise<void> {
    const idle = paced ? this.lastPlan.endedAt + REPLAN_IDLE_PER_PLAN * this.lastPlan.tookMs : -Infinity;
    const left = Math.max(since + REPLAN_MIN_MS, idle) - this.deps.clock.now();
    if (left > 0) await this.deps.clock.sleep(left, this.signal);
  }
}
