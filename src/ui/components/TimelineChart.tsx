import { Box, Text } from 'ink';
import { axisSeconds, timelineRows, type Timeline } from '../plan-timeline.js';
import { drawTimelineAxis } from '../timeline-axis.js';
import { Columns } from './Columns.js';
import { Tone } from './Tone.js';

/**
 * A sequence drawn on a time axis (● where something happens, seconds underneath), then the legend:
 * what happens at each instant and which pods go; the pods it never deletes are dim.
 */
export function TimelineChart({ timeline, width }: { timeline: Timeline; width: number }) {
  const [axis, ...labels] = drawTimelineAxis(
    timeline.marks.map((m) => ({ atSeconds: m.atSeconds, text: axisSeconds(m.atSeconds) })),
    width,
  );
  const rows = timelineRows(timeline);
  return (
    <Box flexDirection="column">
      <Tone tone="accent">{axis}</Tone>
      {labels.map((l, i) => (
        <Text key={i}>{l}</Text>
      ))}
      <Columns rows={rows} tones={rows.map((r) => (r[0] === 'never' ? 'muted' : null))} />
    </Box>
  );
}
