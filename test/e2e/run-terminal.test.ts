import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bin } from './drain-run.js';
import { seedScenario } from './lab.js';
import { poolNodes, scratch, seedPool } from './run-helpers.js';
import { flat, Terminal } from './terminal.js';

// `kubectl maint run` in a real terminal (tmux, on its own socket): the live pool view and --pause's wait
// for a key, read off the screen as an operator would see them.

const terminal = new Terminal('run');
/** The screen and its scrollback, whitespace collapsed so a text is found however it wrapped. */
const screen = async () => flat(await terminal.history(500));
/** The screen (flattened, or as `read` reads it) once it shows `text`. */
const shown = (text: string, ms: number, what: string, read: () => Promise<string> = screen) =>
  terminal.eventually(
    async () => {
      const now = await read();
      return now.includes(text) ? now : undefined;
    },
    ms,
    what,
  );

afterEach(() => terminal.close());

describe('kubectl maint run in a terminal', () => {
  it('at 80x24 shows the pool plan and asks, naming its verdict, batches, estimate and context; no changes nothing', async () => {
    await seedScenario('pool');
    const command = `env -u CI -u CONTINUOUS_INTEGRATION ${process.execPath} ${bin} run pool-1 pool-2 --ignore-daemonsets -- true; echo "EXIT=$?"; sleep 600`;
    await terminal.open(command, 80, 24);
    await terminal.eventually(
      async () => (await screen()).includes('Proceed? [y/N]'),
      60_000,
      'the confirmation prompt',
    );
    // The visible rows only: the verdict, the batches and the context are on the screen the answer is typed on.
    const visible = flat((await terminal.rows()).join('\n'));
    expect(visible).toMatch(/(CLEAR|SLOW): 2 nodes in 2 batches of at most 1 · about \S+ for the run/);
    expect(visible).toMatch(/Context: \S+ \(https:\/\/127\.0\.0\.1:\d+\)/);
    expect(visible).toMatch(
      /Run: each batch is cordoned, drained, `\S*true` runs on each node, uncordoned once back\. Proceed\? \[y\/N\]/,
    );
    // Above it, the batches and the estimate, and where the rest of the plan is.
    const all = await screen();
    expect(all).toMatch(/Batches BATCH NODES VERDICT/);
    expect(all).toMatch(/Estimate: about \S+ for the run/);
    expect(all).toContain("Each batch's reasons and");
    // The pool plan the question summarises: the same nodes and flags, with the run's batch size.
    expect(flat(all)).toContain('kubectl maint plan pool-1 pool-2 --ignore-daemonsets --max-unavailable 1');

    await terminal.keys('n', 'Enter');
    const done = await terminal.eventually(
      async () => ((await screen()).includes('EXIT=') ? screen() : undefined),
      30_000,
      'the exit',
    );
    expect(done).toContain('run cancelled: nothing was changed');
    expect(done).toContain('EXIT=0');
    expect((await poolNodes()).filter((n) => n.spec.unschedulable)).toEqual([]);
    expect(
      (await poolNodes()).filter((n) =>
        Object.keys(n.metadata.annotations ?? {}).some((k) => k.startsWith('maint.kubectl.io/run')),
      ),
    ).toEqual([]);
  });

  it('--pause shows the drained batch in the pool view, waits for a key, then takes it back into service', async () => {
    await seedScenario('pool');
    const command = `env -u CI -u CONTINUOUS_INTEGRATION ${process.execPath} ${bin} run pool-1 pool-2 --max-unavailable 2 --pause --ignore-daemonsets --yes; echo "EXIT=$?"; sleep 600`;
    await terminal.open(command);

    const paused = await shown('press any key to go on', 120_000, 'the run to pause with its batch drained');
    expect(paused).toMatch(/Run \S+ · batch 1 of 1 · \d+:\d\d/);
    expect(paused).toMatch(/pool-1 1 drained/);
    expect(paused).toMatch(/pool-2 1 drained/);
    // The batch's nodes in the pool plan's order (equally empty nodes: either way round).
    expect(paused).toMatch(
      /batch 1 \((pool-1, pool-2|pool-2, pool-1)\) is drained: do the maintenance, then press any key to go on/,
    );
    expect(
      (await poolNodes())
        .filter((n) => n.spec.unschedulable)
        .map((n) => n.metadata.name)
        .sort(),
    ).toEqual(['pool-1', 'pool-2']);

    await terminal.keys('x');
    const done = await shown('EXIT=', 120_000, 'the run to finish');
    expect(done).toContain('EXIT=0');
    expect(done).toMatch(/run \S+ done: every node is back in service/);
    expect((await poolNodes()).filter((n) => n.spec.unschedulable)).toEqual([]);
  });

  it('Ctrl-C during the command lets it finish, then shows every node and the resume command', async () => {
    await seedPool();
    const dir = scratch();
    const command = path.join(dir, 'flash.sh');
    writeFileSync(
      command,
      `#!/bin/sh\necho "flashing $1"\nwhile [ ! -e "${dir}/go" ]; do sleep 0.1; done\necho "flashed $1"; touch "${dir}/finished"\n`,
    );
    chmodSync(command, 0o755);
    await terminal.open(
      `env -u CI -u CONTINUOUS_INTEGRATION ${process.execPath} ${bin} run pool-1 --ignore-daemonsets --yes -- ${command} {node}; echo "EXIT=$?"; sleep 600`,
    );
    await shown('flashing pool-1', 120_000, 'the command to start');
    await terminal.keys('C-c');
    const stopping = await shown('Ctrl-C again kills it', 30_000, 'the run to say it waits for the command');
    expect(stopping).toContain('interrupted: nothing new starts; waiting for the command on pool-1 to finish');
    expect(existsSync(path.join(dir, 'finished'))).toBe(false);
    writeFileSync(path.join(dir, 'go'), '');
    const done = await shown('EXIT=', 60_000, 'the run to finish');
    expect(done).toContain('EXIT=130');
    expect(existsSync(path.join(dir, 'finished'))).toBe(true);
    expect(done).toMatch(/run \S+ interrupted: each node stays in the phase below/);
    expect(done).toMatch(/pool-1 1 command-done/);
    expect(done).toMatch(/continue with: kubectl maint run --resume \S+/);
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps a failed command's last lines in the scrollback with the summary, and all of it in the run's log", async () => {
    await seedPool();
    const dir = scratch();
    const command = path.join(dir, 'upgrade.sh');
    writeFileSync(
      command,
      [
        '#!/bin/sh',
        'exec >&2',
        'for i in $(seq 1 30); do echo "unpacking package $i of 30"; done',
        // A title, a clipboard write and a screen clear: none may reach the terminal.
        "printf 'title\\033]0;pwned\\007 clipboard\\033]52;c;cHduZWQ=\\007 clear\\033[2J done\\n'",
        'echo "E: dpkg was interrupted"',
        'exit 7',
        '',
      ].join('\n'),
    );
    chmodSync(command, 0o755);
    await terminal.open(
      `env -u CI -u CONTINUOUS_INTEGRATION XDG_STATE_HOME=${dir}/state ${process.execPath} ${bin} run pool-1 --ignore-daemonsets --yes -- ${command} {node}; echo "EXIT=$?"; sleep 600`,
    );
    const done = await shown('EXIT=', 120_000, 'the run to finish', () => terminal.history(500));
    expect(flat(done)).toContain('EXIT=1');
    const runId = /run (\S+) stopped: a node failed/.exec(done)?.[1];
    expect(runId, done).toBeDefined();
    const log = `${dir}/state/kubectl-maint/runs/${runId}/pool-1.log`;
    // Its log named (the line wraps at the terminal's width), the last 20 lines, one per row, then the summary.
    expect(flat(done)).toContain(`pool-1: command exited 7; its last 20 lines of output (all of it in ${log}):`);
    const tail = [
      ...Array.from({ length: 18 }, (_, i) => `  unpacking package ${i + 13} of 30`),
      '  title clipboard clear done',
      '  E: dpkg was interrupted',
    ].join('\n');
    expect(done).toContain(tail);
    expect(done.indexOf(tail)).toBeLessThan(done.indexOf('continue with:'));
    expect(flat(done)).toContain(`command output: ${log}`);
    expect(String((await terminal.tmux('display', '-p', '-t', 'run', '#{pane_title}')).stdout)).not.toContain('pwned');
    const kept = readFileSync(log, 'utf8').split('\n');
    expect(kept).toContain('title clipboard clear done');
    expect(kept.filter((line) => line.startsWith('unpacking package'))).toHaveLength(30);
    expect(kept).toContain('E: dpkg was interrupted');
    rmSync(dir, { recursive: true, force: true });
  });
});
