import { Box, Text } from 'ink';
import type { DrainPlan } from '../../plan/types.js';
import {
  budgetBreaches,
  budgetLine,
  noExecuteComparison,
  podGroups,
  replacementLines,
  unreplacedPods,
  verdictHeadline,
  warningLines,
} from '../plan-sections.js';
import { nodeFailureTimeline, noExecuteTimeline } from '../plan-timeline.js';
import { BudgetTable } from './BudgetTable.js';
import { CaveatList } from './CaveatList.js';
import { KeyHints } from './KeyHints.js';
import { NoExecuteComparison } from './NoExecuteComparison.js';
import { PodGroupList } from './PodGroupList.js';
import { ReplacementList } from './ReplacementList.js';
import { Section } from './Section.js';
import { TimelineChart } from './TimelineChart.js';
import { VerdictBanner } from './VerdictBanner.js';

export interface PlanViewProps {
  plan: DrainPlan;
  /** Show per-node reasons under each replacement. */
  details: boolean;
  /** Show the key hints (only when the view listens to keys). */
  interactive: boolean;
  /** Terminal columns, for the timeline axes. */
  width: number;
}

/** The whole plan, verdict first. Stateless: the app around it owns the details toggle. */
export function PlanView({ plan, details, interactive, width }: PlanViewProps) {
  const budgets = plan.budgets.map(budgetLine);
  const replacements = replacementLines(plan);
  const unreplaced = unreplacedPods(plan);
  const axisWidth = Math.max(20, Math.min(width - 4, 72));
  return (
    <Box flexDirection="column">
      <VerdictBanner
        verdict={plan.verdict}
        headline={verdictHeadline(plan)}
        reasons={plan.verdictReasons}
        warnings={warningLines(plan)}
      />
      <Section title={`Pods on ${plan.nodes.join(', ')} (${plan.pods.length})`}>
        {plan.pods.length === 0 ? <Text>none</Text> : <PodGroupList groups={podGroups(plan)} />}
      </Section>
      {budgets.length > 0 && (
        <Section title="Budgets">
          <BudgetTable budgets={budgets} />
        </Section>
      )}
      {(replacements.length > 0 || unreplaced.length > 0) && (
        <Section title="Replacements">
          <ReplacementList lines={replacements} unreplaced={unreplaced} details={details} />
        </Section>
      )}
      {plan.pods.length > 0 && (
        <Section title={`Drain compared with a NoExecute taint ${plan.noExecute.taint}`}>
          <NoExecuteComparison rows={noExecuteComparison(plan)} breaches={budgetBreaches(plan)} />
        </Section>
      )}
      {plan.pods.length > 0 && (
        <Section title={noExecuteTimeline(plan).title}>
          <TimelineChart timeline={noExecuteTimeline(plan)} width={axisWidth} />
        </Section>
      )}
      <Section title={nodeFailureTimeline(plan).title}>
        <TimelineChart timeline={nodeFailureTimeline(plan)} width={axisWidth} />
      </Section>
      {plan.caveats.length > 0 && (
        <Section title={`Caveats (${plan.caveats.length})`}>
          <CaveatList caveats={plan.caveats} all={details || !interactive} />
        </Section>
      )}
      {interactive && (
        <Box marginTop={1}>
          <KeyHints details={details} />
        </Box>
      )}
    </Box>
  );
}
