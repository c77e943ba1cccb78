import { Box, Text } from 'ink';
import type { DrainSummary } from '../drain-summary-text.js';
import { Tone } from './Tone.js';

/** The end of a drain: the outcome in its tone, then done / remaining / failed / left / next. */
export function DrainSummaryView({ summary }: { summary: DrainSummary }) {
  return (
    <Box flexDirection="column" marginTop={1}>
      <Tone tone={summary.tone} bold>
        {summary.headline}
      </Tone>
      {summary.lines.map((line, i) => (
        <Box key={i} paddingLeft={2}>
          <Text>{line}</Text>
        </Box>
      ))}
    </Box>
  );
}
