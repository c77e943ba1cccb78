import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { DrainHeader } from '../../../../src/ui/components/DrainHeader.js';
import type { DrainCounts } from '../../../../src/ui/drain-progress.js';

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
