import { Box } from 'ink';
import type { Verdict } from '../../plan/types.js';
import { VERDICT_TONES } from '../theme.js';
import { ColumnRow } from './ColumnRow.js';
import { Tone } from './Tone.js';

/**
 * The first thing on screen: the verdict in its colour, then why, most important first, then what the
 * drain destroys for good (pods nothing recreates, emptyDir data).
 */
export function VerdictBanner({
  verdict,
  headline,
  reasons,
  warnings = [],
}: {
  verdict: Verdict;
  headline: string;
  reasons: readonly string[];
  warnings?: readonly string[];
}) {
  return (
    <Box flexDirection="column">
      <Tone tone={VERDICT_TONES[verdict]} bold>
        {headline}
      </Tone>
      {reasons.map((reason, i) => (
        <Box key={i} paddingLeft={2}>
          <ColumnRow cells={['-', reason]} widths={[1]} gap={1} />
        </Box>
      ))}
      {warnings.map((warning, i) => (
        <Tone key={`w${i}`} tone="warn" bold>
          {warning}
        </Tone>
      ))}
    </Box>
  );
}
