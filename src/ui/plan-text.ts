import type { DrainPlan } from '../plan/types.js';
import { planDocument, type Block, type PlanDocument, type PlanSection } from './plan-document.js';
import { listNames, qualified } from './format.js';
import {
  etaSection,
  isPerPodGroup,
  podBudgets,
  podGroupRows,
  podGroups,
  podWhy,
  type PodGroup,
  type PodGroupKey,
} from './plan-sections.js';
import { plural } from '../wording.js';
import { layoutPlanText } from './plan-layout.js';
import { UNLIMITED_WIDTH } from './text-wrap.js';

export interface PlanTextOptions {
  /** Also list, per rejected node, why a replacement cannot go there. */
  readonly details?: boolean;
  /**
   * Only the verdict, what to do, the pods in counts and those that decide the drain, as the preface of
   * `kubectl maint drain`'s question, within one screen; the rest is `drain --details` or `kubectl maint plan`.
   */
  readonly brief?: boolean;
  /** Wrap to this many columns (a terminal's); unlimited by default, for pipes and files. */
  readonly width?: number | undefined;
  /** The command that shows the whole plan, with the user's own flags (brief only). */
  readonly planCommand?: string;
  /** What to run next (the drain, or the plan again with the flags advised): the last line of "What to do". */
  readonly nextCommand?: string | undefined;
}

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
  const estimate = etaSection(plan).title;
  const brief: PlanDocument = {
    ...document,
    sections: [
      briefPodsSection(plan),
      // What decides the drain besides its pods: the admission chain's answers (a denial decides it as a
      // refusal does), the pods that asked not to be disrupted, and the eviction order's groups.
      ...document.sections.filter((s) => BRIEF_EXTRAS.has(s.id)),
      // The estimate's one line: how long the operator is about to wait is part of the answer.
      ...(estimate ? [{ id: 'eta', title: estimate, blocks: [] } satisfies PlanSection] : []),
      {
        id: 'caveats',
        title: `The budgets, replacements, waves and ${plural(plan.caveats.length, 'caveat')}: --details, or ${command}`,
        blocks: [],
      },
    ],
  };
  return layoutPlanText(brief, width);
}

/** The plan's sections the brief plan keeps whole, when the plan has them: each is short and decides the drain. */
const BRIEF_EXTRAS: ReadonlySet<PlanSection['id']> = new Set(['opt-out', 'admission', 'order']);

/** The groups the brief plan names pod by pod: those that decide whether and when the drain finishes. */
const DECIDING: ReadonlySet<PodGroupKey> = new Set(['refused', 'held', 'rescued', 'unknown', 'blocked', 'waits']);

/** At most this many pods of a group are named in the brief plan; the rest are counted. */
const BRIEF_PODS = 5;

const BRIEF_WORDS: Record<PodGroupKey, string> = {
  refused: 'refused',
  held: 'not evicted as one is refused',
  rescued: 'taken out by a strategy',
  unknown: 'may never be evicted',
  blocked: 'blocked',
  waits: 'wait for a budget',
  immediate: 'evicted at once',
  deleted: 'deleted without eviction',
  skipped: 'left on the node',
};

/**
 * The pods in counts, and by name only those that decide the drain (DECIDING): enough to answer the
 * drain's question within one screen.
 */
function briefPodsSection(plan: DrainPlan): PlanSection {
  const nodes = plan.nodes.join(', ');
  if (plan.pods.length === 0) return { id: 'pods', title: `No pods on ${nodes}`, blocks: [] };
  const groups = podGroups(plan);
  const counts = groups.map((g) => `${g.pods.length} ${BRIEF_WORDS[g.key]}`).join(', ');
  const blocks = groups
    .filter((g) => DECIDING.has(g.key))
    .flatMap((group): Block[] => {
      const title: Block = { kind: 'text', text: `${group.title} (${group.pods.length})`, indent: 2, tone: group.tone };
      return [title, ...briefRows(group).map((text): Block => ({ kind: 'text', text, indent: 4, hang: 2 }))];
    });
  return { id: 'pods', title: `Pods on ${nodes} (${plan.pods.length}): ${counts}`, blocks };
}

/**
 * Refused pods one line per reason; waiting pods one line per budget, with their waves; blocked pods one
 * line each with why, at most BRIEF_PODS of them, then how many more.
 */
function briefRows(group: PodGroup): string[] {
  if (!isPerPodGroup(group.key)) return podGroupRows(group).map((row) => row[0] ?? '');
  if (group.key === 'waits') {
    const byBudget = Map.groupBy(group.pods, (pod) => podBudgets(pod) || 'no budget');
    return [...byBudget].map(
      ([budgets, pods]) =>
        `${budgets}: ${listNames(
          pods.map((pod) => (pod.wave === null ? qualified(pod) : `${qualified(pod)} (wave ${pod.wave})`)),
          BRIEF_PODS,
        )}`,
    );
  }
  const rows = group.pods.slice(0, BRIEF_PODS).map((pod) => `${qualified(pod)}: ${podWhy(pod)}`);
  const more = group.pods.length - rows.length;
  return more > 0 ? [...rows, `and ${plural(more, 'more pod')} (--details)`] : rows;
}
