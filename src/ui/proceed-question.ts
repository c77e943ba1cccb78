import type { PoolPlan } from '../plan/pool-types.js';
import type { DrainPlan } from '../plan/types.js';
import { formatMs, formatSeconds } from './format.js';
import { wayOutText } from './plan-advice.js';
import { plural } from '../wording.js';
import { blockedWords, verdictHeadline } from './plan-sections.js';
import { poolHeadline } from './pool-plan-text.js';
import { wrapText } from './text-wrap.js';

/** The cluster a question is about, as the kubeconfig names it. */
export interface ClusterTarget {
  readonly context: string;
  readonly server: string;
}

/** What a drain is about to do to the pods. */
export interface DrainAction {
  readonly verb: 'evict' | 'delete';
  readonly pods: number;
}

/**
 * The question asked before a drain: the verdict, the cluster and what the answer lets happen, in the last
 * lines of the screen so that none of it has scrolled away when the operator answers (the plan above it
 * can be longer than the terminal).
 *
 *   SLOW: draining k8s-node-1 waits for disruption budgets · about 45s
 *   Context: lab (https://127.0.0.1:6443)
 *   Drain: cordon k8s-node-1 and evict 2 pods. Proceed? [y/N]
 */
export function drainQuestion(plan: DrainPlan, action: DrainAction, target: ClusterTarget, width: number): string {
  const total = plan.eta?.totalSeconds;
  const about = plan.eta?.uncounted ? 'at least' : 'about';
  const estimate = plan.verdict !== 'blocked' && total != null ? ` · ${about} ${formatSeconds(total)}` : '';
  const objection = planObjection(plan);
  const blocked = objection ? ` (${objection})` : '';
  const ask = `Drain: cordon ${plan.nodes.join(', ')} and ${action.verb} ${plural(action.pods, 'pod')}${blocked}.`;
  return question([`${verdictHeadline(plan)}${estimate}`, contextLine(target), ask], width);
}

/**
 * What the plan holds against the drain going ahead, as the question and the warning say it; for a blocked
 * plan, with the flags that would finish it, or that none does.
 */
function planObjection(plan: DrainPlan): string | null {
  const reason = plan.verdictReasons[0] ?? plan.verdict;
  if (plan.verdict === 'blocked')
    return `the plan says this drain ${blockedWords(plan)}: ${reason}; ${wayOutText(plan)}`;
  if (plan.verdict === 'disruptive') return `the plan says this drain leaves a workload down: ${reason}`;
  return null;
}

/**
 * Said instead of the question when the drain goes ahead without asking (--yes, -o json, no terminal)
 * although the plan expects it not to finish (or could not read all it needs): the cause, and what bounds
 * the wait. A drain that finishes but leaves a workload down is said too: no timeout bounds that.
 */
export function proceedWarning(plan: DrainPlan, timeoutMs: number): string | null {
  if (plan.verdict === 'disruptive') return planObjection(plan);
  if (plan.verdict !== 'blocked' && plan.verdict !== 'incomplete') return null;
  const what =
    plan.verdict === 'blocked'
      ? planObjection(plan)
      : `the plan could not read all it needs, so this drain may not finish: ${plan.verdictReasons[0] ?? plan.verdict}`;
  const bound =
    timeoutMs > 0
      ? `--timeout ${formatMs(timeoutMs)} stops it`
      : 'there is no --timeout, so it waits until interrupted (Ctrl-C)';
  return `${what}; ${bound}`;
}

/** proceedWarning as its "warning: " line, wrapped to the width; null when there is nothing to say. */
export function proceedWarningText(plan: DrainPlan, timeoutMs: number, width: number): string | null {
  const warning = proceedWarning(plan, timeoutMs);
  return warning ? `${wrapText(`warning: ${warning}`, width).join('\n')}\n` : null;
}

/**
 * The question asked before a run: the pool plan's verdict, its batches and estimate, the cluster, and
 * what each batch goes through.
 *
 *   SLOW: 6 nodes in 3 batches of at most 2 · about 12m for the run
 *   Context: lab (https://127.0.0.1:6443)
 *   Run: each batch is cordoned, drained, `scripts/upgrade.sh {node}` runs on each node, then it is
 *   uncordoned. Proceed? [y/N]
 */
export function runQuestion(
  plan: PoolPlan,
  run: { readonly command: readonly string[]; readonly uncordon: boolean },
  target: ClusterTarget,
  width: number,
): string {
  const total = plan.eta.totalSeconds;
  const estimate = total === null ? '' : ` · about ${formatSeconds(total)} for the run`;
  const steps = [
    'cordoned',
    'drained',
    ...(run.command.length > 0 ? [`\`${run.command.join(' ')}\` runs on each node`] : []),
    run.uncordon ? 'uncordoned once back' : 'left cordoned',
  ];
  const ask = `Run: each batch is ${steps.join(', ')}.`;
  return question([`${poolHeadline(plan)}${estimate}`, contextLine(target), ask], width);
}

function contextLine(target: ClusterTarget): string {
  return `Context: ${target.context} (${target.server})`;
}

/** Each part wrapped between words, the answer typed after a space on the last line. */
function question(parts: readonly string[], width: number): string {
  const text = [...parts.slice(0, -1), `${parts.at(-1) ?? ''} Proceed? [y/N]`];
  return `${text.flatMap((part) => wrapText(part, width - 2)).join('\n')} `;
}
