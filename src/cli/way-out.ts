import type { NextCommands } from '../drain/summary.js';
import type { PoolPlan } from '../plan/pool-types.js';
import type { DrainPlan } from '../plan/types.js';
import { wayOut, wayOutText } from '../ui/plan-advice.js';
import { shellQuote } from './suggested-commands.js';

/**
 * The drain's commands for the plan it goes ahead with: when the plan is blocked, the drain to run next
 * carries the flags that finish it (`--surge=demo/solo`, `--escalate-after DURATION …`), and when no flag
 * does, `stuck` says so — never the same command that just hung, as if running it again would finish.
 * `shown`: the plan's "What to do" was printed above (not under -o json), so `stuck` points at it.
 */
export function commandsWithWayOut<C extends NextCommands>(commands: C, plan: DrainPlan, shown = true): C {
  if (plan.verdict !== 'blocked') return commands;
  const { flags, enough } = wayOut(plan);
  const resume = flags.length > 0 ? `${commands.resume} ${flags.map(quoteFlag).join(' ')}` : commands.resume;
  return {
    ...commands,
    resume,
    ...(enough && flags.length > 0 ? {} : { stuck: wayOutText(plan, shown) ?? undefined }),
  };
}

/** A flag word as a shell takes it; `DURATION` (the operator's to choose) and flag pairs stay as written. */
const quoteFlag = (flag: string) => (flag.includes(' ') ? flag : shellQuote(flag));

/**
 * Why a run does not start on a blocked pool plan, with the way out of its first blocked batch: the flags
 * that finish it, or that none does and what to change (no plan is on the screen with --yes).
 */
export function blockedRunRefusal(plan: PoolPlan): string {
  const reason = plan.verdictReasons[0] ?? 'blocked';
  const batch = plan.batches.find((b) => b.verdict === 'blocked');
  const way = batch ? wayOutText(batch.plan, false) : null;
  const out = batch && way ? `; batch ${batch.number}: ${way}` : '';
  return `the pool plan is blocked: ${reason}${out} (--force-start to run anyway; nothing was changed)`;
}
