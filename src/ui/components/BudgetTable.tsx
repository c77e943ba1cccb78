import { Box, Text } from 'ink';
import { BUDGET_HEADER, budgetRow, type BudgetLine } from '../plan-sections.js';
import { Columns } from './Columns.js';
import { Tone } from './Tone.js';

/** Budgets with disruptions allowed, healthy/desired and the waves they impose; problems underneath. */
export function BudgetTable({ budgets }: { budgets: readonly BudgetLine[] }) {
  return (
    <Box flexDirection="column">
      <Columns header={BUDGET_HEADER} rows={budgets.map(budgetRow)} tones={budgets.map((b) => b.tone)} />
      {budgets
        .filter((b) => b.note)
        .map((b) => (
          <Text key={b.name}>
            <Tone tone={b.tone}>! </Tone>
            {b.name}: {b.note}
          </Text>
        ))}
    </Box>
  );
}
