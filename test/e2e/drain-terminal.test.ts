import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { kubectlJson, labEnv, seedScenario } from './lab.js';
import { bin, podsIn, setHelloMaxUnavailable, unschedulable } from './drain-run.js';
import { flat, Terminal } from './terminal.js';

// The real binary in a real terminal (tmux, on its own socket): the plan, the confirmation prompt, the
// live Ink view, the summary, read off the screen as an operator would see them.

const terminal = new Terminal('drain');
/** The whole screen and its scrollback, wrapped lines joined. */
const screen = () => terminal.history(500);

/** Seeds hello and starts `kubectl maint drain k8s-node-1` in a 160×50 tmux session; the shell then shows the exit code. */
async function drainHelloInTerminal(): Promise<void> {
  await seedScenario('hello');
  const command = `env -u CI -u CONTINUOUS_INTEGRATION ${process.execPath} ${bin} drain k8s-node-1 --ignore-daemonsets; echo "EXIT=$?"; sleep 600`;
  await terminal.open(command);
}

const PROMPT = 'e2e-prompt$';
/** `kubectl maint` as kubectl finds a plugin: a `kubectl-maint` on PATH (the source entry point). */
const pluginDir = mkdtempSync(path.join(tmpdir(), 'maint-plugin-'));
symlinkSync(bin, path.join(pluginDir, 'kubectl-maint'));
afterAll(() => rmSync(pluginDir, { recursive: true, force: true }));

/**
 * An operator's shell (not CI) in a columns × rows terminal, where `kubectl maint …` works as typed: the
 * lab's kubectl and the plugin on PATH, the pinned Node first.
 */
async function openShell(columns: number, rows: number): Promise<void> {
  const env = await labEnv();
  const PATH = [pluginDir, path.dirname(process.execPath), env.labBin, process.env.PATH ?? ''].join(':');
  // PATH set by the command itself: tmux gives a new session the client's PATH, whatever -e says.
  await terminal.openShell(PROMPT, columns, rows, `PATH='${PATH}'`);
}

const type = (line: string) => terminal.type(line);

afterEach(() => terminal.close());

describe('kubectl maint drain in a terminal', () => {
  it('shows the plan, asks before changing anything, shows the live view, and ends with the summary', async () => {
    await drainHelloInTerminal();

    await terminal.eventually(
      async () => (await screen()).includes('Proceed? [y/N]'),
      30_000,
      'the confirmation prompt',
    );
    const beforeAnswer = await screen();
    expect(beforeAnswer).toContain('Drain: cordon k8s-node-1 and evict 2 pods. Proceed? [y/N]');
    expect(beforeAnswer).toMatch(/Waits for a budget[\s\S]*demo\/hello \(1 allowed\)/); // the plan came first
    expect(await unschedulable('k8s-node-1')).toBe(false); // nothing changed while asking

    await terminal.keys('y', 'Enter');
    const frames: string[] = [];
    const final = await terminal.eventually(
      async () => {
        const now = await screen();
        frames.push(now);
        return now.includes('EXIT=') ? now : undefined;
      },
      60_000,
      'the drain to finish',
    );

    expect(final).toContain('EXIT=0');
    expect(final).toContain('node/k8s-node-1 cordoned');
    expect(final).toMatch(/Drained k8s-node-1 in \d+s/);
    expect(final).toContain('`kubectl maint uncordon k8s-node-1` returns it to service');
    // The live view showed the pods being drained while it ran.
    expect(frames.some((f) => /Draining k8s-node-1/.test(f))).toBe(true);
    expect((await podsIn('demo')).filter((p) => p.node === 'k8s-node-1')).toEqual([]);
  });

  it('at 80x24 the question shows the verdict and the context on the screen the answer is typed on', async () => {
    await seedScenario('hello');
    const command = `env -u CI -u CONTINUOUS_INTEGRATION ${process.execPath} ${bin} drain k8s-node-1 --ignore-daemonsets; echo "EXIT=$?"; sleep 600`;
    await terminal.open(command, 80, 24);
    await terminal.eventually(
      async () => (await screen()).includes('Proceed? [y/N]'),
      30_000,
      'the confirmation prompt',
    );
    // The visible rows only, not the scrollback: the plan above the question is longer than the screen.
    const visible = (await terminal.rows()).join('\n');
    expect(visible).toMatch(/^SLOW: draining k8s-node-1 waits for disruption budgets/m);
    expect(visible).toMatch(/^Context: \S+ \(https:\/\/127\.0\.0\.1:\d+\)$/m);
    expect(flat(visible)).toContain('Drain: cordon k8s-node-1 and evict 2 pods. Proceed? [y/N]');
    expect(await unschedulable('k8s-node-1')).toBe(false);
    await terminal.keys('n', 'Enter');
    await terminal.eventually(async () => (await screen()).includes('EXIT=0'), 30_000, 'the drain to exit');
    expect(await unschedulable('k8s-node-1')).toBe(false);
  });

  it('changes nothing when the answer is no', async () => {
    await drainHelloInTerminal();
    await terminal.eventually(
      async () => (await screen()).includes('Proceed? [y/N]'),
      30_000,
      'the confirmation prompt',
    );
    await terminal.keys('n', 'Enter');
    const final = await terminal.eventually(
      async () => ((await screen()).includes('EXIT=') ? screen() : undefined),
      30_000,
      'exit',
    );
    expect(final).toContain('drain cancelled: nothing was changed');
    expect(final).toContain('EXIT=0');
    expect(await unschedulable('k8s-node-1')).toBe(false);
  });

  it("on hello-ignore: names the Pending replacement and the scheduler's message while it waits; the resume command printed after Ctrl-C, pasted, finishes the drain", async () => {
    await seedScenario('hello-ignore');
    await openShell(120, 40);
    await type('kubectl maint drain k8s-node-1 --ignore-daemonsets --yes; echo "EXIT=$?"');

    const waiting = await terminal.eventually(
      async () => {
        const text = flat(await screen());
        return /is Pending, the scheduler says: 0\/\d+ nodes are available/.test(text) && text.includes('blocked:')
          ? text
          : undefined;
      },
      90_000,
      'the wait to name the Pending replacement',
    );
    // --yes on a plan that cannot finish: said before anything changes, with what bounds the wait.
    expect(waiting).toContain('warning: the plan says this drain cannot finish');
    expect(waiting).toContain('there is no --timeout, so it waits until interrupted (Ctrl-C)');
    expect(waiting).toMatch(/didn't match pod topology spread constraints/);
    expect(waiting).not.toMatch(/waves? left/); // known to be blocked: no estimate
    // The pod it names is the replacement really Pending in the cluster.
    const named = /(demo\/hello-[a-z0-9]+-[a-z0-9]+) is Pending, the scheduler says/.exec(waiting)?.[1];
    const pods = await kubectlJson<{ items: Array<{ metadata: { name: string }; status: { phase: string } }> }>([
      'get',
      'pods',
      '-n',
      'demo',
    ]);
    expect(pods.items.find((p) => `demo/${p.metadata.name}` === named)?.status.phase).toBe('Pending');

    await terminal.keys('C-c');
    const interrupted = await terminal.eventually(
      async () => ((await screen()).includes('EXIT=130') ? screen() : undefined),
      30_000,
      'the drain to stop after Ctrl-C',
    );
    // The command to resume is on a line of its own and repeats the user's flags.
    const lines = interrupted.split('\n').map((l) => l.trim());
    const resume = lines[lines.indexOf('next: resume with:') + 1] ?? '';
    expect(resume).toBe('kubectl maint drain k8s-node-1 --ignore-daemonsets --yes');

    // Once the budget gives, the same command, pasted as printed, finishes the job.
    await setHelloMaxUnavailable(2);
    await type(`${resume}; echo "RESUMED=$?"`);
    const final = await terminal.eventually(
      async () => {
        const text = await screen();
        return /RESUMED=\d+/.test(text) ? text : undefined;
      },
      90_000,
      'the resumed drain to finish',
    );
    expect(final).toContain('RESUMED=0');
    expect(final).toMatch(/Drained k8s-node-1 in \d+s/);
    expect((await podsIn('demo')).filter((p) => p.node === 'k8s-node-1')).toEqual([]);
    expect(await unschedulable('k8s-node-1')).toBe(true);
  });
});
