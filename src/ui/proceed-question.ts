import type { PoolPlan } from '../plan/pool-types.js';
import type { DrainPlan } from '../plan/types.js';
import { formatSeconds } from './format.js';
import { plural } from '../wording.js';
import { verdictHeadline } from './plan-sections.js';
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
  const estimate = plan.verdict !== 'blocked' && total != null ? ` · about ${formatSeconds(total)}` : '';
  const blocked =
    plan.verdict === 'blocked'
      ? ` (the plan says this drain cannot finish: ${plan.verdictReasons[0] ?? 'blocked'})`
      : plan.verdict === 'disruptive'
        ? ` (the plan says this drain leaves a workload down: ${plan.verdictReasons[0] ?? 'disruptive'})`
        : '';
  const ask = `Drain: cordon ${plan.nodes.join(', ')} and ${action.verb} ${plural(action.pods, 'pod')}${blocked}.`;
  return question([`${verdictHeadline(plan)}${estimate}`, contextLine(target), ask], width);
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
