import { describe, expect, it } from 'vitest';
import type { NodeTimeline, RunTimeline } from '../../../src/run/run-timeline.js';
import { drawSteps, runTimelineDocument, runTimelineText } from '../../../src/ui/run-timeline-text.js';
import { parse } from 'yaml';

const at = (clock: string) => `2026-12-02T${clock}.000Z`;
const steps = (...pairs: Array<[string, string]>) => pairs.map(([phase, clock]) => ({ phase, at: at(clock) }));

const pool1: NodeTimeline = {
  node: 'pool-1',
  batch: 1,
  phase: 'done',
  steps: steps(
    ['pending', '09:00:00'],
    ['draining', '09:00:05'],
    ['drained', '09:00:20'],
    ['command-running', '09:00:25'],
    ['command-done', '09:01:00'],
    ['returning', '09:01:05'],
    ['returned', '09:01:25'],
    ['done', '09:01:30'],
  ),
};
const pool2: NodeTimeline = {
  node: 'pool-2',
  batch: 2,
  phase: 'drain-failed',
  steps: steps(['pending', '09:00:00'], ['draining', '09:01:40'], ['drain-failed', '09:01:50']),
};
const gone: NodeTimeline = { node: 'pool-3', batch: 2, phase: 'gone', steps: [] };

const timeline: RunTimeline = {
  kind: 'RunTimeline',
  apiVersion: 'maint.kubectl.io/v1alpha1',
  id: '20261202-090000-ab12',
  state: 'stopped',
  holder: null,
  started: at('09:00:00'),
  command: ['/usr/local/bin/reboot.sh', '{node}'],
  next: 'kubectl maint run --resume 20261202-090000-ab12',
  nodes: [pool1, pool2, gone],
  readAt: at('09:05:00'),
};

/** The bar of a node's row: what lies between the batch and the phase columns. */
const barOf = (lines: string[], node: string) => {
  const header = lines.find((l) => l.startsWith('NODE'))!;
  const row = lines.find((l) => l.startsWith(node))!;
  return row.slice(header.indexOf('09:'), header.indexOf('PHASE')).trimEnd();
};

describe('runs show: the timeline as text', () => {
  it.each([60, 80, 120])('fits %i columns, one row per node, its phases in the order it went through them', (width) => {
    const lines = runTimelineText(timeline, width);
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(width);
    expect(lines[0]).toBe('run 20261202-090000-ab12: stopped, 1m50s recorded');
    const bar = barOf(lines, 'pool-1');
    const firsts = ['.', 'd', 'D', 'c', 'C', 'r', 'R', '✓'].map((glyph) => bar.indexOf(glyph));
    expect(firsts.every((column) => column >= 0)).toBe(true);
    expect([...firsts].sort((a, b) => a - b)).toEqual(firsts);
    // Done ends the node's row; pool-2's drain starts after it and its failure lasts to the axis' end.
    expect(bar.endsWith('✓')).toBe(true);
    const failed = barOf(lines, 'pool-2');
    expect(failed.indexOf('d')).toBeGreaterThan(bar.indexOf('✓'));
    expect(failed).toMatch(/X+$/);
    const header = lines.find((l) => l.startsWith('NODE'))!;
    expect(failed.length).toBe(header.indexOf('PHASE') - header.indexOf('09:') - 2);
    expect(lines.find((l) => l.startsWith('pool-3'))).toMatch(/^pool-3 +2 +gone$/);
  });

  it('at 80 columns', () => {
    expect(runTimelineText(timeline, 80).join('\n')).toMatchInlineSnapshot(`
      "run 20261202-090000-ab12: stopped, 1m50s recorded
      command: /usr/local/bin/reboot.sh {node}
      NODE    B  09:00:00                                       09:01:50  PHASE
      pool-1  1  ..dddddddDDDcccccccccccccccccCCrrrrrrrrrrRRR✓            done
      pool-2  2  .................................................dddddX  drain-failed
      pool-3  2                                                           gone
      legend: . pending  d draining  D drained  c command running  C command done
              r returning  R returned  ✓ done  X failed  K command killed"
    `);
  });

  it('the axis is scaled to the run: the same phase takes twice the columns on twice the width', () => {
    const narrow = drawSteps(pool1.steps, Date.parse(at('09:00:00')), Date.parse(at('09:01:30')), 31);
    const wide = drawSteps(pool1.steps, Date.parse(at('09:00:00')), Date.parse(at('09:01:30')), 61);
    const count = (bar: string, glyph: string) => [...bar].filter((c) => c === glyph).length;
    expect(count(wide, 'c')).toBeGreaterThanOrEqual(2 * count(narrow, 'c') - 1);
    expect(narrow.length).toBe(31);
  });

  it('a live run runs to the moment it was read', () => {
    const live = runTimelineText({ ...timeline, state: 'alive', holder: 'ops@bastion pid 42' }, 80);
    expect(live.slice(0, 2)).toEqual(['run 20261202-090000-ab12: alive, 5m recorded', 'held by ops@bastion pid 42']);
    expect(live.find((l) => l.startsWith('NODE'))).toContain('09:05:00');
  });

  it('-o json and -o yaml hold every step with its time', () => {
    for (const format of ['json', 'yaml'] as const) {
      const text = runTimelineDocument(timeline, format);
      const document = (format === 'json' ? JSON.parse(text) : parse(text)) as RunTimeline;
      expect(document).toEqual(timeline);
    }
  });
});
