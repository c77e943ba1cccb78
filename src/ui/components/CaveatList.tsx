import { Box } from 'ink';
import { ColumnRow } from './ColumnRow.js';
import { Tone } from './Tone.js';

/** How many caveats show before the details key; the first ones say what the snapshot lacked. */
const FOLDED = 3;

/** What the plan does not model, dim; folded to the first few unless `all`. */
export function CaveatList({ caveats, all }: { caveats: readonly string[]; all: boolean }) {
  const shown = all ? caveats : caveats.slice(0, FOLDED);
  return (
    <Box flexDirection="column">
      {shown.map((caveat, i) => (
        <ColumnRow key={i} cells={['-', caveat]} widths={[1]} gap={1} tone="muted" />
      ))}
      {shown.length < caveats.length && <Tone tone="muted">… {caveats.length - shown.length} more (d shows them)</Tone>}
    </Box>
  );
}
