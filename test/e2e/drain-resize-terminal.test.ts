import { afterEach, describe, expect, it } from 'vitest';
import { bin } from './drain-run.js';
import { seedScenario } from './lab.js';
import { flat, Terminal } from './terminal.js';

// A live drain in a real terminal (tmux, on its own socket) made narrower while it waits, between two of
// its writes (Terminal.resizeBetweenWrites): the live area is laid out again for the new width, and once
// the drain ends the scrollback holds the lines printed once and the summary, never a copy or a half of a
// live frame.

const terminal = new Terminal('resize');
afterEach(() => terminal.close());

/** Every row the terminal kept, scrollback included, as drawn (wrapped rows not joined). */
async function rawScrollback(): Promise<string[]> {
  return String((await terminal.tmux('capture-pane', '-p', '-S', '-', '-t', 'resize')).stdout).split('\n');
}

/** The elapsed clock of the live header on the visible rows ("0:12"), if it shows. */
const clockOf = (rows: readonly string[]) => /Draining k8s-node-1 · (\d+:\d\d)/.exec(rows.join('\n'))?.[1];

/** The progress line's parts after the bar, each a count and one of the phases the header names. */
const PROGRESS_LINE = /^\[[█░]{24}\] \d+\/\d+( · \d+ (evicting|waiting for a budget|terminating|queued|failed))*$/;

describe('a live drain made narrower mid-drain', () => {
  it('120→80 columns: each redraw fits the new width with whole words, and no old frame stays in the scrollback', async () => {
    // hello-ignore: the drain waits for a replacement the scheduler cannot place, so the live view stays up.
    await seedScenario('hello-ignore');
    const command = `env -u CI -u CONTINUOUS_INTEGRATION ${process.execPath} ${bin} drain k8s-node-1 --ignore-daemonsets --yes; echo "EXIT=$?"; sleep 600`;
    await terminal.open(command, 120, 40);
    await terminal.eventually(
      async () => clockOf(await terminal.rows()) && flat(await terminal.history()).includes('blocked:'),
      90_000,
      'the live view, waiting',
    );

    await terminal.resizeBetweenWrites(80, 40);
    // The view redraws on the resize and every second: wait for two redraws at the new width.
    let seen = clockOf(await terminal.rows());
    for (let redraws = 0; redraws < 2; redraws++) {
      const before = seen;
      seen = await terminal.eventually(
        async () => {
          const now = clockOf(await terminal.rows());
          return now && now !== before ? now : undefined;
        },
        20_000,
        'a redraw at 80 columns',
      );
    }
    const visible = await terminal.rows();
    for (const row of visible) expect(row.length, row).toBeLessThanOrEqual(80);
    // Exactly one header and one whole progress line on the screen (its last word not cut).
    expect(visible.filter((row) => row.startsWith('Draining k8s-node-1 · '))).toHaveLength(1);
    const progress = visible.filter((row) => row.startsWith('['));
    expect(progress).toHaveLength(1);
    expect(progress[0]).toMatch(PROGRESS_LINE);

    await terminal.keys('C-c');
    await terminal.eventually(
      async () => flat(await terminal.history()).includes('EXIT=130'),
      30_000,
      'the drain to stop',
    );
    const kept = await rawScrollback();
    // The summary is there; no live header, progress bar or piece of one is.
    expect(flat(kept.join('\n'))).toMatch(/Interrupted after \d+s: \d pods? remains? on k8s-node-1/);
    expect(kept.filter((row) => row.includes('Draining k8s-node-1 ·'))).toEqual([]);
    expect(kept.filter((row) => /[█░]{3}/.test(row))).toEqual([]);
    for (const row of kept) expect(row.length, row).toBeLessThanOrEqual(120);
  });
});
