import type { DrainPlan } from '../plan/types.js';
import { planDocument, type PlanSection } from './plan-document.js';
import { layoutPlanText } from './plan-layout.js';
import { UNLIMITED_WIDTH } from './text-wrap.js';

export interface PlanTextOptions {
  /** Also list, per rejected node, why a replacement cannot go there. */
  readonly details?: boolean;
  /**
   * Only what a drain is about to do (verdict, pods, admission, budgets, replacements), as the preface of
   * `kubectl maint drain`; the comparisons and caveats are left to `kubectl maint plan`.
   */
  readonly brief?: boolean;
  /** Wrap to this many columns (a terminal's); unlimited by default, for pipes and files. */
  readonly width?: number | undefined;
  /** The command that shows the whole plan, with the user's own flags (brief only). */
  readonly planCommand?: string;
  /** What to run next (the drain, or the plan again with the flags advised): the last line of "What to do". */
  readonly nextCommand?: string | undefined;
}

const BRIEF_SECTIONS: ReadonlySet<PlanSection['id']> = new Set([
  'pods',
  'opt-out',
  'admission',
  'order',
  'budgets',
  'replacements',
  'eta',
]);

/**
 * The plan for a pipe, a log file or `--no-tui`: plain text, no colour, verdict first. Sections: verdict
 * and reasons, pods by outcome, budgets, replacements, drain vs NoExecute taint, node failure, caveats.
 *
 *   BLOCKED: draining k8s-node-1 cannot finish
 *     - demo/hello-a: no node can take its replacement
 *
 *   Pods on k8s-node-1 (4)
 *     Blocked: eviction never admitted (1)
 *       demo/hello-a   demo/hello (1 allowed)   replacement cannot be scheduled
 */
export function renderPlanText(plan: DrainPlan, options: PlanTextOptions = {}): string {
  const document = planDocument(plan, { details: options.details ?? false, nextCommand: options.nextCommand });
  const width = options.width ?? UNLIMITED_WIDTH;
  if (!options.brief) return layoutPlanText(document, width);
  const command = options.planCommand ?? `kubectl maint plan ${plan.nodes.join(' ')}`;
  const more = `The NoExecute and node-failure comparisons and ${plan.caveats.length} caveats: ${command}`;
  const brief = {
    ...document,
    sections: [
      ...document.sections.filter((s) => BRIEF_SECTIONS.has(s.id)),
      { id: 'caveats', title: more, blocks: [] } satisfies PlanSection,
    ],
  };
  return layoutPlanText(brief, width);
}
