import { render } from 'ink-testing-library';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../src/run/events.js';
import { DrainView } from '../../../src/ui/components/DrainView.js';
import { RunView } from '../../../src/ui/components/RunView.js';
import { initialDrainProgress, reduceDrainEvents } from '../../../src/ui/drain-live-state.js';
import { startDrainInk } from '../../../src/ui/drain-view.js';
import { eraseReflowedFrame } from '../../../src/ui/live-view.js';
import { initialRunProgress, reduceRunEvents } from '../../../src/ui/run-live-state.js';
import { displayWidth } from '../../../src/ui/text-wrap.js';
import { cordoned, HELLO_A, HELLO_B, helloDrain, podEvent, podRef, started, T0, waiting } from './drain-fixture.js';
import { FakeStdin, FakeStdout } from './fake-terminal.js';

// The live area must stay below the terminal's height: a frame as tall as the screen cannot be erased
// in place, and each redraw would leave a copy of it in the scrollback.

const lines = (frame: string | undefined) => (frame ?? '').split('\n');
const count = (text: string, sequence: string) => text.split(sequence).length - 1;

/** The drain's live view on a terminal `stdout`, its clock stopped at `nowMs`. */
const liveDrainOn = (stdout: FakeStdout, nowMs: number) =>
  startDrainInk({
    stdout: stdout.asStream(),
    stdin: new FakeStdin(false).asStream(),
    colors: false,
    interactive: true,
    now: () => nowMs,
  });

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
    const view = liveDrainOn(stdout, T0 + 50_000);
    helloDrain().forEach((e) => view.onEvent(e));
    await view.done();
    const text = stdout.text();
    for (const line of ['Drained k8s-node-1 in 45s', 'done: 2 evicted, 1 skipped', 'left: node k8s-node-1 cordoned']) {
      expect(text).toContain(line);
    }
  });
});

describe('a live drain on a terminal made narrower', () => {
  it('takes the new width in before its next draw, even when the SIGWINCH has not been handled yet', async () => {
    const stdout = new FakeStdout(true);
    stdout.columns = 120;
    const view = liveDrainOn(stdout, T0 + 5_000);
    [started(), cordoned(0), podEvent(HELLO_A, 1, { phase: 'evicting', attempt: 1 }), waiting(HELLO_B, 1, 2)].forEach(
      (e) => view.onEvent(e),
    );
    const wide = stdout.writes.length;
    expect(widest(stdout.writes)).toBeGreaterThan(80); // the budget's wait fills the 120 columns

    // The terminal re-wraps its rows at 80 columns at once; the drain's next event comes before the signal.
    stdout.resizeTerminal(80, 40);
    view.onEvent(waiting(HELLO_B, 3, 3));
    await view.done();
    const narrow = stdout.writes.slice(wide);
    // First the rows the terminal re-wrapped the last frame onto are erased, then every frame fits 80 columns.
    expect(narrow[0]?.startsWith('\u001b[2K\u001b[1A'.repeat(4))).toBe(true);
    expect(widest(narrow)).toBeLessThanOrEqual(80);
    expect(stripVTControlCharacters(narrow.join(''))).toContain('Draining k8s-node-1');
  });
});

/** The widest line of what was written, in columns. */
const widest = (writes: readonly string[]) =>
  Math.max(...stripVTControlCharacters(writes.join('')).split('\n').map(displayWidth));

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
