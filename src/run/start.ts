import { randomBytes } from 'node:crypto';
import type { V1Lease } from '@kubernetes/client-node';
import type { RunApi } from '../kube/run-api.js';
import type { PoolPlan } from '../plan/pool-types.js';
import { checkAccess, RunRefused, takeRunForResume, type ClaimContext, type LeaseWait } from './claim.js';
import { resolveCommand } from './command.js';
import { commandLogDir, keptResult } from './command-log.js';
import { giveBack } from './lease-keeper.js';
import { trustedPhase, UNFINISHED_COMMAND, type RunDefinition, type RunOptions } from './state.js';

/**
 * How a run starts or resumes, before its first step: the run a new one records (its id, batches,
 * command, flags and estimates), and the resume's checks on the run it takes (its command still runs, no
 * command left unfinished unless --rerun-command). The command line's questions and words are cli/'s.
 */

/** What a start or a resume took: the run, its Lease, and whether the lifecycle conditions may be written. */
export interface TakenRun {
  readonly definition: RunDefinition;
  readonly lease: V1Lease;
  readonly conditions: boolean;
  /** A new run (its claims are undone when it fails before its first write), or a resumed one. */
  readonly fresh: boolean;
}

/** A resume that did not go ahead once its run was taken: its Lease is given back; `cause` says why. */
export class ResumeNotTaken extends Error {
  constructor(
    readonly runId: string,
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = 'ResumeNotTaken';
  }
}

/**
 * Takes the run to resume (`runId`, or the only one): the recorded command must still run from the
 * directory it was started in, and a command that did not finish or failed is run again only with
 * `rerunCommand`. Refusals are RunRefused; another failure once the run is taken is ResumeNotTaken.
 * `onPicked` hears of the run taken when none was named (the only one to resume).
 */
export async function resumeRun(
  ctx: ClaimContext,
  which: { readonly runId: string | undefined; readonly rerunCommand: boolean },
  onPicked: (runId: string) => void,
  wait?: LeaseWait,
): Promise<TakenRun> {
  const { conditions } = await checkAccess(ctx);
  const found = await takeRunForResume(
    ctx,
    which.runId,
    (recorded) => {
      const again = resolveCommand(recorded.command, recorded.commandDir ?? process.cwd());
      return 'problem' in again ? `run ${recorded.id}: ${again.problem}` : null;
    },
    wait,
  );
  const { definition, lease } = found;
  try {
    if (found.picked) onPicked(found.picked);
    await refuseUnfinishedCommands(ctx.api, definition, which.rerunCommand);
  } catch (err) {
    await giveBack(ctx, lease.metadata?.name ?? '').catch(() => undefined);
    throw err instanceof RunRefused ? err : new ResumeNotTaken(definition.id, err);
  }
  return { definition, lease, conditions, fresh: false };
}

/** A resumed run re-runs a command that did not finish (or failed) only when asked: say which node, write nothing more. */
async function refuseUnfinishedCommands(api: RunApi, definition: RunDefinition, rerun: boolean): Promise<void> {
  if (rerun) return;
  const logs = commandLogDir(definition.id);
  for (const node of definition.batches.flat()) {
    const { phase } = trustedPhase(await api.readNode(node), definition);
    // A result this machine kept (it could not be written): the command ran, and the resume writes it.
    if (phase === 'command-running' && keptResult(logs, definition.id, node)) continue;
    if (UNFINISHED_COMMAND.has(phase)) {
      const what =
        phase === 'command-running'
          ? 'did not finish (interrupted)'
          : phase === 'command-killed'
            ? 'was killed (interrupted)'
            : 'failed';
      throw new RunRefused(
        `node "${node}": its command ${what}; re-run it with kubectl maint run --resume ${definition.id} --rerun-command`,
      );
    }
  }
}

/** The run a new start records on its Lease: the pool plan's batches and estimates, the command, the flags. */
export function newRunDefinition(
  plan: PoolPlan,
  command: { readonly argv: readonly string[]; readonly dir: string },
  options: RunOptions,
  now: Date,
): RunDefinition {
  return {
    id: newRunId(now),
    batches: plan.batches.map((b) => b.nodes),
    command: command.argv,
    ...(command.argv.length > 0 ? { commandDir: command.dir } : {}),
    options,
    sealKey: randomBytes(16).toString('hex'),
    estimates: {
      commandSeconds: plan.eta.commandSeconds,
      batches: plan.batches.map(({ eta }) => ({
        drainSeconds: eta.drainSeconds,
        replacementsReadySeconds: eta.replacementsReadySeconds,
      })),
    },
  };
}

/** A run's id: when it started, plus a little randomness so two runs started in the same second differ. */
function newRunId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15).toLowerCase();
  return `${stamp}-${randomBytes(2).toString('hex')}`;
}
