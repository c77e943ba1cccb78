import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, labEnv, seedScenario } from './lab.js';
import { bin, podsIn, unschedulable } from './drain-run.js';

// The real binary in a real terminal (tmux): the plan, the confirmation prompt, the live Ink view, the
// summary, read off the screen as an operator would see them.

const session = `maint-drain-e2e-${process.pid}`;
const tmux = (...args: string[]) => execa('tmux', args);
/** The whole screen and its scrollback, wrapped lines joined. */
const screen = async () => String((await tmux('capture-pane', '-p', '-J', '-S', '-500', '-t', session)).stdout);

/** Seeds hello and starts `kubectl maint drain k8s-node-1` in a 160×50 tmux session; the shell then shows the exit code. */
async function drainHelloInTerminal(): Promise<void> {
  await seedScenario('hello');
  const env = await labEnv();
  // An operator's terminal, not CI: under CI=true Ink draws only the last frame (is-in-ci), so the live
  // view would never show.
  const command = `env -u CI -u CONTINUOUS_INTEGRATION ${process.execPath} ${bin} drain k8s-node-1 --ignore-daemonsets; echo "EXIT=$?"; sleep 600`;
  const size = ['-x', '160', '-y', '50'];
  await tmux('new-session', '-d', '-s', session, ...size, '-e', `KUBECONFIG=${env.KUBECONFIG}`, command);
}

afterEach(async () => {
  await execa('tmux', ['kill-session', '-t', session], { reject: false });
});

describe('kubectl maint drain in a terminal', () => {
  it('shows the plan, asks before changing anything, shows the live view, and ends with the summary', async () => {
    await drainHelloInTerminal();

    await eventually(async () => (await screen()).includes('Proceed? [y/N]'), 30_000, 'the confirmation prompt');
    const beforeAnswer = await screen();
    expect(beforeAnswer).toContain('Drain: cordon k8s-node-1 and evict 2 pods. Proceed? [y/N]');
    expect(beforeAnswer).toMatch(/Budgets[\s\S]*demo\/hello/); // the plan came first
    expect(await unschedulable('k8s-node-1')).toBe(false); // nothing changed while asking

    await tmux('send-keys', '-t', session, 'y', 'Enter');
    const frames: string[] = [];
    const final = await eventually(
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

  it('changes nothing when the answer is no', async () => {
    await drainHelloInTerminal();
    await eventually(async () => (await screen()).includes('Proceed? [y/N]'), 30_000, 'the confirmation prompt');
    await tmux('send-keys', '-t', session, 'n', 'Enter');
    const final = await eventually(
      async () => ((await screen()).includes('EXIT=') ? screen() : undefined),
      30_000,
      'exit',
    );
    expect(final).toContain('Nothing was changed.');
    expect(final).toContain('EXIT=1');
    expect(await unschedulable('k8s-node-1')).toBe(false);
  });
});
