import { renderJson, renderYaml } from './document.js';
import type { RunTimeline } from '../run/run-timeline.js';
import type { PhaseStep } from '../run/state.js';
import { formatSeconds } from './format.js';
import { truncateToWidth } from './text-wrap.js';

/**
 * `kubectl maint runs show ID` as text: one row per node, its phases along a shared time axis, one letter
 * per phase (a legend says which), so that it reads in a log or a pipe as on a terminal.
 *
 *   run 20261202-090000-ab12: stopped, 1m50s recorded
 *   last held by ops@bastion pid 42
 *   NODE    B  09:00:00                   09:01:50  PHASE
 *   pool-1  1  .dddddDcccccccccccCCrrrrrrR✓  done
 *   pool-2  2  ............................ddddddX  drain-failed
 */

const GLYPH: Readonly<Record<string, string>> = {
  pending: '.',
  draining: 'd',
  drained: 'D',
  'command-running': 'c',
  'command-done': 'C',
  returning: 'r',
  returned: 'R',
  done: '✓',
  'drain-failed': 'X',
  'command-failed': 'X',
  'command-killed': 'K',
  'not-returned': 'X',
};

const LEGEND =
  'legend: . pending  d draining  D drained  c command running  C command done  r returning  R returned  ✓ done  X failed  K command killed';

const GAP = '  ';
const MIN_BAR = 10;

export function runTimelineText(timeline: RunTimeline, width: number): string[] {
  const times = timeline.nodes.flatMap((n) => n.steps.map((s) => Date.parse(s.at)));
  const start = times.length > 0 ? Math.min(...times) : Date.parse(timeline.readAt);
  // A live run's timeline runs to the read; a stopped one's to the last thing it recorded.
  const end = timeline.state === 'alive' ? Date.parse(timeline.readAt) : Math.max(start, ...times);
  const lines = [`run ${timeline.id}: ${timeline.state}, ${formatSeconds((end - start) / 1000)} recorded`];
  if (timeline.holder) {
    lines.push(truncateToWidth(`${timeline.state === 'alive' ? 'held by' : 'last held by'} ${timeline.holder}`, width));
  }
  if (timeline.command && timeline.command.length > 0)
    lines.push(truncateToWidth(`command: ${timeline.command.join(' ')}`, width));

  const nodeWidth = Math.max(4, ...timeline.nodes.map((n) => n.node.length));
  const batchWidth = Math.max(1, ...timeline.nodes.map((n) => String(n.batch ?? '-').length));
  const phaseWidth = Math.max(5, ...timeline.nodes.map((n) => n.phase.length));
  const bar = Math.max(MIN_BAR, width - nodeWidth - batchWidth - phaseWidth - 3 * GAP.length);
  const from = clock(start);
  const to = clock(end);
  const axis = bar >= from.length + to.length + 1 ? from + to.padStart(bar - from.length) : from.padEnd(bar);
  lines.push(['NODE'.padEnd(nodeWidth), 'B'.padEnd(batchWidth), axis, 'PHASE'].join(GAP));
  for (const node of timeline.nodes) {
    lines.push(
      [
        node.node.padEnd(nodeWidth),
        String(node.batch ?? '-').padStart(batchWidth),
        drawSteps(node.steps, start, end, bar),
        node.phase,
      ]
        .join(GAP)
        .trimEnd(),
    );
  }
  lines.push(...wrapLegend(width));
  return lines;
}

/** The row of one node: each phase from the column of its start to the next one's, at least one column. */
export function drawSteps(steps: readonly PhaseStep[], start: number, end: number, width: number): string {
  const cells = Array.from({ length: width }, () => ' ');
  const span = Math.max(1, end - start);
  const column = (ms: number) => Math.min(width - 1, Math.max(0, Math.floor(((ms - start) / span) * (width - 1))));
  steps.forEach((step, i) => {
    const glyph = GLYPH[step.phase] ?? '?';
    const from = column(Date.parse(step.at));
    const next = steps[i + 1];
    // The last phase lasts to the end of the axis, unless it is the end of the node's run.
    const to = next ? column(Date.parse(next.at)) - 1 : step.phase === 'done' ? from : width - 1;
    for (let c = from; c <= Math.max(from, to); c += 1) cells[c] = glyph;
  });
  return cells.join('');
}

/** HH:MM:SS in UTC. */
function clock(ms: number): string {
  return new Date(ms).toISOString().slice(11, 19);
}

/** The legend, broken between its entries to the width. */
function wrapLegend(width: number): string[] {
  const [head, ...entries] = LEGEND.split('  ');
  const lines: string[] = [];
  let line = head!;
  for (const entry of entries) {
    if (line.length + 2 + entry.length > width) {
      lines.push(line);
      line = `        ${entry}`;
    } else line += `  ${entry}`;
  }
  return [...lines, line];
}

/** -o json|yaml: the RunTimeline as it is. */
export function runTimelineDocument(timeline: RunTimeline, format: 'json' | 'yaml'): string {
  return format === 'json' ? renderJson(timeline) : renderYaml(timeline);
}
