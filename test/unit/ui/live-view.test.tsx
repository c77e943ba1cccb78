import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../src/run/events.js';
import { DrainView } from '../../../src/ui/components/DrainView.js';
import { RunView } from '../../../src/ui/components/RunView.js';
import { initialDrainProgress, reduceDrainEvents } from '../../../src/ui/drain-progress.js';
import { startDrainInk } from '../../../src/ui/drain-view.js';
import { eraseReflowedFrame } from '../../../src/ui/live-view.js';
import { initialRunProgress, reduceRunEvents } from '../../../src/ui/run-progress.js';
import { cordoned, helloDrain, podEvent, podRef, started, T0 } from './drain-fixture.js';
import { FakeStdin, FakeStdout } from './fake-terminal.js';

// The live area must stay below the terminal's height: a frame as tall as the screen cannot be erased
// in place, and each redraw would leave a copy of it in the scrollback.

const lines = (frame: string | undefined) => (frame ?? '').split('\n');
const count = (text: string, sequence: string) => text.split(sequence).length - 1;

describe('the live area', () => {
  const pods = Array.from({ length: 30 }, (_, i) => podRef(`web-${i}`));
  const drain = [started(pods), cordoned(0), ...pods.map((p) => podEvent(p, 1, { phase: 'evicting', attempt: 1 }))];
  const progress = drain.reduce((s, e) => reduceDrainEvents(s, e), initialDrainProgress());

  it('of a drain with more pods in flight than the screen has rows never takes more than its rows', () => {
    for (const rows of [5, 9, 23]) {
      const frame = render(<DrainView progress={progress} nowMs={T0 + 2_000} rows={rows} log={false} />).lastFrame();
      expect(lines(frame).length, String(rows)).toBeLessThanOrEqual(rows);
      expect(frame).toContain('Draining k8s-node-1');
      expect(frame).toMatch(/… and \d+ more/);
    }
  });

  it('of a run over more nodes than the screen has rows never takes more than its rows', () => {
    const nodes = Array.from({ length: 40 }, (_, i) => `w${i}`);
    const started: RunEvent = {
      type: 'run-started',
      atMs: 0,
      runId: 'r1',
      holder: 'ops',
      batches: nodes.map((n) => [n]),
      command: [],
      resumed: false,
      commandLog: null,
      phases: Object.fromEntries(nodes.map((n) => [n, 'pending' as const])),
    };
    const run = [started].reduce(reduceRunEvents, initialRunProgress());
    const frame = render(<RunView progress={run} nowMs={1_000} rows={23} log={false} />).lastFrame();
    expect(lines(frame).length).toBeLessThanOrEqual(23);
    expect(lines(frame)[0]).toMatch(/^Run r1 · batch - of 40/);
  });

  it('leaves the whole summary in the scrollback, however short the screen', async () => {
    const stdout = new FakeStdout(true);
    stdout.rows = 4;
    const view = startDrainInk({
      stdout: stdout.asStream(),
      stdin: new FakeStdin(false).asStream(),
      colors: false,
      interactive: true,
      now: () => T0 + 50_000,
    });
    helloDrain().forEach((e) => view.onEvent(e));
    await view.done();
    const text = stdout.text();
    for (const line of ['Drained k8s-node-1 in 45s', 'done: 2 evicted, 1 skipped', 'left: node k8s-node-1 cordoned']) {
      expect(text).toContain(line);
    }
  });
});

describe('eraseReflowedFrame', () => {
  it('erases every row the narrower terminal re-wrapped the frame onto, then gives Ink back the rows it erases', () => {
    // 100 columns wrap onto two rows of 80, 10 stay on one: 3 rows, and the row under the frame.
    const written = eraseReflowedFrame(`${'a'.repeat(100)}\n${'b'.repeat(10)}`, 80);
    expect(count(written, '\u001b[2K')).toBe(4);
    expect(count(written, '\u001b[1A')).toBe(3);
    // Ink then erases its two lines and the row under them, from where these newlines leave the cursor.
    expect(written.endsWith('\u001b[G\n\n')).toBe(true);
  });

  it('counts wide characters by the columns they take', () => {
    const written = eraseReflowedFrame('日本語'.repeat(10), 40);
    // 60 columns on a 40-column terminal: two rows.
    expect(count(written, '\u001b[1A')).toBe(2);
  });
});
