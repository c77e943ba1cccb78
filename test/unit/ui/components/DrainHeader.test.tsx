import { renderToString } from 'ink';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { DrainHeader } from '../../../../src/ui/components/DrainHeader.js';
import type { DrainCounts } from '../../../../src/ui/drain-live-state.js';

const counts: DrainCounts = {
  total: 8,
  queued: 2,
  evicting: 0,
  waiting: 1,
  terminating: 1,
  gone: 3,
  skipped: 1,
  failed: 0,
  dryRun: 0,
  done: 4,
};

describe('<DrainHeader />', () => {
  it('shows nodes, elapsed time, waves left, the progress bar and what is in flight', () => {
    const { lastFrame } = render(
      <DrainHeader nodes={['k8s-node-1']} dryRun="none" elapsedMs={42_000} wavesLeft={2} counts={counts} />,
    );
    expect(lastFrame()).toMatchInlineSnapshot(`
      "Draining k8s-node-1 · 0:42 · about 2 waves left
      [████████████░░░░░░░░░░░░] 4/8 · 1 waiting for a budget · 1 terminating · 2 queued"
    `);
  });
  it('says at least the time left when the estimate cannot count some pods', () => {
    const header = (atLeast: boolean) =>
      render(
        <DrainHeader
          nodes={['k8s-node-1']}
          dryRun="none"
          elapsedMs={42_000}
          wavesLeft={2}
          counts={counts}
          secondsLeft={40}
          atLeast={atLeast}
        />,
      )
        .lastFrame()
        ?.split('\n')[0];
    expect(header(true)).toBe('Draining k8s-node-1 · 0:42 · at least 40s left');
    expect(header(false)).toBe('Draining k8s-node-1 · 0:42 · about 40s left');
  });
  it('once the wait is known to be blocked, says by what instead of a waves estimate', () => {
    const { lastFrame } = render(
      <DrainHeader
        nodes={['k8s-node-1']}
        dryRun="none"
        elapsedMs={42_000}
        wavesLeft={0}
        blockedBy="demo/hello-new cannot be scheduled"
        counts={counts}
      />,
    );
    expect(lastFrame()?.split('\n')[0]).toBe(
      'Draining k8s-node-1 · 0:42 · blocked: demo/hello-new cannot be scheduled',
    );
  });
  it('says when it is a dry run and leaves out the waves when none are left', () => {
    const { lastFrame } = render(
      <DrainHeader
        nodes={['a', 'b']}
        dryRun="server"
        elapsedMs={5000}
        wavesLeft={0}
        counts={{ ...counts, queued: 0, waiting: 0, terminating: 0 }}
      />,
    );
    expect(lastFrame()?.split('\n')[0]).toBe('Draining a, b (server dry run) · 0:05');
    expect(lastFrame()?.split('\n')[1]).toBe('[████████████░░░░░░░░░░░░] 4/8');
  });
});

describe('<DrainHeader /> time left: one estimate', () => {
  it('gives the time left alone when the plan gave one (no waves beside it), and by how much it is past', () => {
    const header = (secondsLeft: number) =>
      render(
        <DrainHeader
          nodes={['k8s-node-1']}
          dryRun="none"
          elapsedMs={7_000}
          wavesLeft={1}
          counts={counts}
          secondsLeft={secondsLeft}
        />,
      )
        .lastFrame()
        ?.split('\n')[0];
    expect(header(14.2)).toBe('Draining k8s-node-1 · 0:07 · about 14s left');
    expect(header(-3.5)).toBe('Draining k8s-node-1 · 0:07 · past the estimate by 3s');
  });

  it('names the pod --escalate-after deletes next and when, on its own line, whole at 60, 80 and 120 columns', () => {
    for (const columns of [60, 80, 120]) {
      const frame = renderToString(
        <DrainHeader
          nodes={['k8s-node-1']}
          dryRun="none"
          elapsedMs={7_000}
          wavesLeft={1}
          counts={counts}
          secondsLeft={14}
          escalation={{ pod: 'db/postgres-0', atElapsedMs: 16_000, inMs: 9_000 }}
        />,
        { columns },
      );
      const lines = frame.split('\n');
      expect(lines[0], String(columns)).toBe('Draining k8s-node-1 · 0:07 · about 14s left');
      expect(lines.at(-1), String(columns)).toBe('--escalate-after deletes db/postgres-0 at 0:16 (in 9s)');
      expect(Math.max(...lines.map((l) => l.length)), String(columns)).toBeLessThanOrEqual(columns);
    }
  });
});
